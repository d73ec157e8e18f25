#if canImport(Glibc)
import Glibc
#endif

/// The process's own life: how it ends, which signals it ignores, how its thread pauses, what
/// exists on its file system — the calls programs need beside the daemon's I/O.
public enum ProcessControl {
    /// Ends the process with `status` (`exit(3)`: `atexit` handlers run, stdio is flushed).
    public static func exit(_ status: Int32) -> Never { Glibc.exit(status) }

    /// Opens `/dev/null` on each of the descriptors 0, 1 and 2 that the process was started
    /// without (`cmd >&-`), before anything else opens one: else the first socket or file opened
    /// would take its number, and output meant for stdout would go into it. Returns the
    /// numbers that were missing.
    @discardableResult
    public static func openMissingStandardDescriptors() -> Set<Int32> {
        var missing: Set<Int32> = []
        for descriptor: Int32 in 0...2 where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
            missing.insert(descriptor)
            // The lowest free number: `descriptor`, as the lower ones are open by now.
            _ = open("/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY)
        }
        return missing
    }

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

    /// Sleeps for `span`, or less when `output` hangs up first (`POLLERR`, `POLLHUP`: its reader
    /// is gone); returns whether it did.
    public static func pause(_ span: Duration, unlessHangUpOf output: Int32) -> Bool {
        let deadline = ContinuousClock.now + span
        while true {
            let now = ContinuousClock.now
            guard now < deadline else { return false }
            var descriptor = pollfd(fd: output, events: 0, revents: 0)
            let ready = poll(&descriptor, 1, PollTimeout.milliseconds(until: deadline))
            if ready > 0, descriptor.revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0 { return true }
            if ready > 0 { pause(.milliseconds(10)) }  // another event on an output: not ours to read
        }
    }

    /// The process's effective user id (`geteuid`).
    public static var effectiveUser: UInt32 { geteuid() }

    /// Whether something is at `path` (`access(F_OK)`: a dangling symbolic link is nothing).
    public static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }
}
