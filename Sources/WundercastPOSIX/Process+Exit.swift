#if canImport(Glibc)
import Glibc
#endif

/// The process's own life: how it ends, which signals it ignores, how its thread pauses, what
/// exists on its file system — the calls programs need beside the daemon's I/O.
public enum ProcessControl {
    /// Ends the process with `status` (`exit(3)`: `atexit` handlers run, stdio is flushed).
    public static func exit(_ status: Int32) -> Never { Glibc.exit(status) }

    /// Ignores `SIGPIPE` process-wide: a write to a reader that left fails with `EPIPE`.
    public static func ignoreBrokenPipes() { _ = signal(SIGPIPE, SIG_IGN) }

    /// Pauses the calling thread for `span` (`nanosleep`, resumed after a signal). For a
    /// program's own thread (wundercastctl's `watch` retry), never a cooperative one.
    public static func pause(_ span: Duration) {
        let (seconds, attoseconds) = span.components
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        var left = timespec()
        while nanosleep(&request, &left) == -1 && errno == EINTR { request = left }
    }

    /// The process's effective user id (`geteuid`).
    public static var effectiveUser: UInt32 { geteuid() }

    /// Whether something is at `path` (`access(F_OK)`: a dangling symbolic link is nothing).
    public static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }
}
