import WundercastPipeline

/// libFuzzer entry: the input is a kept state file (`[Cache] Path=`), decoded as the daemon loads
/// it at start (``LastState/decode(_:)``, then the position rounded to the configured decimals).
/// What it accepts, the daemon writes back (``LastState/encoded()``) on its next fetch and must
/// read again: the written file decodes, and writing that changes nothing more.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLastState(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let state = try? LastState.decode(bytes) else { return 0 }
    let kept = state.positionRounded(toDecimals: 2)
    do {
        let written = try LastState.decode(kept.encoded())
        let again = try LastState.decode(written.encoded())
        guard again == written else { fatalError("a written state changes when written again: \(written) \(again)") }
    } catch {
        fatalError("a state the daemon accepted does not read back once written: \(error)")
    }
    return 0
}
