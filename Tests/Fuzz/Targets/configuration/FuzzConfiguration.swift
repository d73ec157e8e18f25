import WundercastConfiguration

/// libFuzzer entry: the input is the bytes of a configuration file, parsed as the daemon loads
/// one (`Configuration.apply(file:onto:)`: ``Configuration/parse(bytes:file:onto:)``), then again
/// as a drop-in over itself, with the rules between keys checked; the result is shown as
/// `wundercastd --check-config` and a reload would show it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfiguration(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let main = Configuration.parse(bytes: bytes, file: "fuzz.conf", onto: ParsedConfiguration())
    let parsed = Configuration.parse(bytes: bytes, file: "fuzz.conf.d/drop-in.conf", onto: main).checked()
    _ = parsed.effectiveText()
    _ = parsed.configuration.changedKeys(from: Configuration())
    _ = parsed.errors.map(\.description)
    return 0
}
