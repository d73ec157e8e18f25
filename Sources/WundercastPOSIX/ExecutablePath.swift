#if canImport(Glibc)
import Glibc
#endif

extension ProcessControl {
    /// The running program's file, `/proc/self/exe` resolved (`readlink(2)`): an installed
    /// `/usr/local/bin/wundercastctl` finds its data in `/usr/local/share`. `nil` when it cannot
    /// be read (no `/proc`).
    public static var executablePath: String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
