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

/// A log file that lines are appended to (`wundercastctl --log FILE`).
public enum AppendFile {
    /// Appends `text` (UTF-8) to `path`, creating it (mode 0600) when missing. A failure is
    /// dropped: the log is for debugging, and nothing may reach a status bar instead.
    public static func write(_ text: String, to path: String) {
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return }
        defer { _ = close(fd) }
        try? Descriptor.writeAll(fd, Array(text.utf8), subject: path)
    }
}
