#if canImport(Glibc)
import Glibc
#endif

/// The machine's host name (`gethostname`; the kernel's `uname -n`).
public enum HostName {
    /// The host name, or `nil` when the call fails or gives an empty name.
    public static var current: String? {
        var buffer = [UInt8](repeating: 0, count: 256)
        let called = buffer.withUnsafeMutableBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { gethostname($0.baseAddress!, $0.count - 1) }
        }
        guard called == 0 else { return nil }
        let name = String(decoding: buffer.prefix { $0 != 0 }, as: UTF8.self)
        return name.isEmpty ? nil : name
    }
}
