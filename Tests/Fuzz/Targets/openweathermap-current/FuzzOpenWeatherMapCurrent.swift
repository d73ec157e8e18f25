import WundercastModel
import WundercastProviders

/// libFuzzer entry: the input is the body of an OpenWeatherMap `/data/2.5/weather` answer under
/// HTTP 200, decoded as the provider does (asked in metric; shown in metric and imperial).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOpenWeatherMapCurrent(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let response = HTTPResponse(
        status: 200, headers: ["content-type": "application/json"],
        body: Array(UnsafeBufferPointer(start: data, count: size)))
    let asked = OpenWeatherMapUnits(.metric)
    for units in [UnitSystem.metric, .imperial] {
        guard let current = try? OpenWeatherMapCurrent(response, asked: asked, units: units) else { continue }
        _ = OpenWeatherMapProvider.weather(current: current, forecast: nil)
    }
    return 0
}
