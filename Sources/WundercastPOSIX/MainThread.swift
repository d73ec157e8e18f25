import Dispatch
import Synchronization

/// The main thread of a daemon whose signals are blocked (``Signals/blockBeforeThreads(_:)``).
public enum MainThread {
    /// Runs `operation` as a detached task and blocks the calling thread until it returns;
    /// returns its result (an exit status). Call from `main.swift` instead of a top-level `await`.
    ///
    /// Why: a top-level `await` makes the main thread run `dispatch_main()`, which on Linux
    /// parks it in `sigsuspend` with an EMPTY mask, so a blocked SIGTERM is delivered to it
    /// (default action: the process dies) instead of staying pending for the `signalfd`.
    /// Blocked here in a semaphore wait, the main thread keeps its mask. Nothing runs on the
    /// main actor meanwhile: `operation` must not need it.
    public static func run(_ operation: @escaping @Sendable () async -> Int32) -> Int32 {
        let result = ResultBox()
        let finished = DispatchSemaphore(value: 0)
        Task.detached {
            result.status.store(await operation(), ordering: .releasing)
            finished.signal()
        }
        finished.wait()
        return result.status.load(ordering: .acquiring)
    }

    private final class ResultBox: Sendable {
        let status = Atomic<Int32>(0)
    }
}
