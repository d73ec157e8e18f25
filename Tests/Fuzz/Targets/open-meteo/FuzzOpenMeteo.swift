import WundercastProviders

/// libFuzzer entry: the input is the body of an Open-Meteo `/v1/forecast` answer (current and
/// forecast) under HTTP 200, decoded as the provider does, in metric and in imperial units; and as the answer to a lookup of two locations (a JSON array).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOpenMeteo(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let body = Array(UnsafeBufferPointer(start: data, count: size))
    _ = try? OpenMeteoProvider.decode(status: 200, body: body, requested: .metric)
    _ = try? OpenMeteoProvider.decode(status: 200, body: body, requested: .imperial)
    _ = try? OpenMeteoProvider.decodeBatch(status: 200, body: body, count: 2)
    return 0
}
