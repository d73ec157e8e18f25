#if canImport(Glibc)
import Glibc
#endif

/// Unbuffered writes to fd 2 (stdio's buffering reaches the journal late under systemd; PITFALLS).
enum StandardError {
    static func write(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.write(2, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 { if errno == EINTR { continue } else { return } }
            offset += n
        }
    }
}
