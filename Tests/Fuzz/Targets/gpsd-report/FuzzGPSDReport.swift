import CGPS
import WundercastCore

@testable import WundercastGPSD

#if canImport(Glibc)
import Glibc
#endif

/// libFuzzer entry: the input is what gpsd sends a client, one JSON report a line. Each line is
/// unpacked as `gps_read` does (`gps_unpack` into the session's `gps_data_t`, `set` cleared
/// before; the raw line, newline included, cut to the connection's buffer), judged by the
/// connection (``GPSDConnection/message(of:line:)``) and, for a TPV with a position, by the fix
/// rules and the epoch de-duplication, as ``GPSDReader`` does. An accepted fix lies within
/// ±90/±180.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGPSDReport(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    var deduplicator = EpochDeduplicator()
    GPSDConnection.zero(session)
    for raw in bytes.split(separator: UInt8(ascii: "\n")) {
        // A C string ends at its first NUL; libgps keeps at most its buffer's size of a line.
        var report = raw.prefix(maxLine - 2).prefix { $0 != 0 }.map { CChar(bitPattern: $0) } + [0x0A, 0]
        let message = report.withUnsafeMutableBufferPointer { report in
            session.pointee.set = 0
            _ = gps_unpack(report.baseAddress!, session)
            line.initialize(repeating: 0, count: GPSDConnection.lineCapacity)
            _ = strncpy(line, report.baseAddress!, GPSDConnection.lineCapacity - 1)
            return GPSDConnection.message(of: session, line: line)
        }
        guard case .position(let tpv) = message, let fix = Fix(report: tpv), let published = deduplicator.admit(fix)
        else { continue }
        guard abs(published.coordinate.latitude) <= 90, abs(published.coordinate.longitude) <= 180 else {
            fatalError("accepted a fix outside the globe: \(published.coordinate)")
        }
    }
    return 0
}

/// libgps 3.22's line buffer (`privdata_t.buffer` in gps_sock.c): `GPS_JSON_RESPONSE_MAX * 2`
/// bytes, `GPS_JSON_RESPONSE_MAX` being 4096 (gps_json.h, not installed).
private let maxLine = 2 * 4096

/// One session's `gps_data_t` (24,496 bytes: on the heap, as in ``GPSDConnection``) and the raw line.
nonisolated(unsafe) private let session = UnsafeMutablePointer<gps_data_t>.allocate(capacity: 1)
nonisolated(unsafe) private let line = UnsafeMutablePointer<CChar>.allocate(capacity: GPSDConnection.lineCapacity)
