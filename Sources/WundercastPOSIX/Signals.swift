#if canImport(Glibc)
import Glibc
#endif

/// Unix signals for a daemon: blocked in every thread and read from one place (a `signalfd`;
/// see ``stream(_:)``), so none is lost between start-up and reading (PITFALLS: a
/// `DispatchSource` signal source registers asynchronously and missed 1 SIGTERM in 10).
public enum Signals {
    /// The signals a daemon handles: SIGTERM and SIGINT (stop), SIGHUP (reload).
    public static let handled: [Int32] = [SIGTERM, SIGINT, SIGHUP]

    /// Blocks `numbers` in the calling thread with `pthread_sigmask`, and ignores SIGPIPE
    /// (writes to a peer that left fail with `EPIPE` instead). Call it as the first statement
    /// of `main`, before any thread exists: threads inherit the mask, so the signals then stay
    /// pending until ``stream(_:)`` reads them.
    ///
    /// Children inherit the blocked mask through `fork`/`exec` and `posix_spawn`: whatever the
    /// process starts must reset it (`POSIX_SPAWN_SETSIGMASK` with an empty set).
    /// A mask handed down already blocked by the parent is fine: blocked is what a `signalfd` needs.
    public static func blockBeforeThreads(_ numbers: [Int32] = handled) {
        var set = makeSet(numbers)
        pthread_sigmask(SIG_BLOCK, &set, nil)
        signal(SIGPIPE, SIG_IGN)
    }

    static func makeSet(_ numbers: [Int32]) -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for number in numbers { sigaddset(&set, number) }
        return set
    }
}
