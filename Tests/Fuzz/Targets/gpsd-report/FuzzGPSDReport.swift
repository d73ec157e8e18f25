import CGPS
import WundercastModel

@testable import WundercastGPSD

/// libFuzzer entry: the input is what gpsd sends a client, one JSON report a line. Each line is
/// unpacked as the connection does (``GPSDConnection/unpack(_:into:line:)``: checked, then
/// libgps's `gps_unpack` into one session's `gps_data_t`, then judged) and, for a TPV with a
/// position, judged by the fix rules and the epoch de-duplication, as ``GPSDReader`` does. An
/// accepted fix lies within ±90/±180.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGPSDReport(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    var deduplicator = EpochDeduplicator()
    GPSDConnection.zero(session)
    for raw in bytes.split(separator: UInt8(ascii: "\n")) {
        let report = Array(raw) + [UInt8(ascii: "\n")]
        guard case .position(let tpv) = GPSDConnection.unpack(report, into: session, line: line),
            let fix = Fix(report: tpv), let published = deduplicator.admit(fix, at: ContinuousClock.now)
        else { continue }
        guard abs(published.coordinate.latitude) <= 90, abs(published.coordinate.longitude) <= 180 else {
            fatalError("accepted a fix outside the globe: \(published.coordinate)")
        }
    }
    return 0
}

/// One session's `gps_data_t` (24,496 bytes: on the heap, as in ``GPSDConnection``) and raw line.
nonisolated(unsafe) private let session = UnsafeMutablePointer<gps_data_t>.allocate(capacity: 1)
nonisolated(unsafe) private let line = UnsafeMutablePointer<CChar>.allocate(capacity: GPSDConnection.lineCapacity)
