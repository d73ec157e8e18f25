#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WundercastModel
import WundercastPipeline
import WundercastProviders

/// libFuzzer entry: the first byte chooses the alert source (its value modulo 4: NWS, MetAlerts,
/// Bright Sky, ECCC), the rest is the body of its answer under HTTP 200, decoded as the fetcher
/// does for a point in its area; what decodes goes into an ``AlertBook`` twice (an answer, then
/// the same again an hour later) and is expired a day later — nothing may trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAlerts(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard size > 0, let data else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let body = Array(bytes.dropFirst())
    let alerts: [Alert]?
    switch bytes[0] % 4 {
    case 0: alerts = try? NWSAlerts.decode(status: 200, body: body, contentType: "application/geo+json")
    case 1: alerts = try? MetAlerts.decode(status: 200, body: body, contentType: "application/json")
    case 2: alerts = try? BrightSkyAlerts.decode(status: 200, body: body, contentType: "application/json")
    default:
        alerts = try? ECCCAlerts.decode(
            status: 200, body: body, contentType: "application/json", at: Coordinate(latitude: 45.5, longitude: -75.5))
    }
    guard let alerts, alerts.count <= AlertFetcher.maximumAlerts else { return 0 }
    let now = Date(timeIntervalSince1970: 1_750_000_000)
    var book = AlertBook()
    _ = book.answered(alerts, at: now)
    _ = book.answered(alerts, at: now + 3600)
    _ = book.expire(at: now + 86_400 * 2)
    _ = AlertsState.ordered(alerts)
    return 0
}
