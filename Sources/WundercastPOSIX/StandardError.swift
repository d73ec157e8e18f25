#if canImport(Glibc)
import Glibc
#endif

/// Unbuffered writes to fd 2 (stdio's buffering reaches the journal late under systemd; PITFALLS).
public enum StandardError {
    /// Writes `text` (UTF-8) to fd 2 at once. A failed write (stderr closed) is dropped:
    /// there is nowhere left to report it.
    public static func write(_ text: String) {
        try? Descriptor.writeAll(2, Array(text.utf8), subject: "stderr")
    }
}
