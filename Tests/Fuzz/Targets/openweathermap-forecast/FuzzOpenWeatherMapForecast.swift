import WundercastProviders

/// libFuzzer entry: the input is the body of an OpenWeatherMap `/data/2.5/forecast` answer under
/// HTTP 200, decoded as the provider does and joined with a current answer (which gives the hours
/// and days of the forecast their start).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOpenWeatherMapForecast(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let response = HTTPResponse(
        status: 200, headers: ["content-type": "application/json"],
        body: Array(UnsafeBufferPointer(start: data, count: size)))
    let asked = OpenWeatherMapUnits(.metric)
    guard let forecast = try? OpenWeatherMapForecastList(response, asked: asked, units: .metric) else { return 0 }
    _ = OpenWeatherMapProvider.weather(current: current, forecast: forecast)
    return 0
}

/// A current answer at the start of the recorded forecasts' range (Aug 2014; `dt` in seconds).
private let current: OpenWeatherMapCurrent = {
    let body = #"{"main":{"temp":21.5},"dt":1407888000,"timezone":3600,"weather":[{"id":800,"icon":"01d"}]}"#
    let response = HTTPResponse(status: 200, headers: [:], body: Array(body.utf8))
    do {
        return try OpenWeatherMapCurrent(response, asked: OpenWeatherMapUnits(.metric), units: .metric)
    } catch {
        fatalError("the fixed current answer does not decode: \(error)")
    }
}()
