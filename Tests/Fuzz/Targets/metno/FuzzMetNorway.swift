import WundercastModel
import WundercastProviders

/// libFuzzer entry: the input is the body of a MET Norway locationforecast 2.0 answer (compact
/// or complete: current and forecast) under HTTP 200, decoded as the provider does for Oslo, in
/// metric and imperial, with a time zone one hour east of UTC.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMetNorway(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let body = Array(UnsafeBufferPointer(start: data, count: size))
    let oslo = Coordinate(latitude: 59.9139, longitude: 10.7522)
    for units in [UnitSystem.metric, .imperial] {
        _ = try? MetNorwayProvider.decode(
            status: 200, body: body, at: oslo, requested: units, contentType: "application/json",
            utcOffset: { _ in 3600 })
    }
    return 0
}
