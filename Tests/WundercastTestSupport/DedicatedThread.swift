import Foundation
import Synchronization

/// Runs blocking `body` (a blocking `recv`, a `waitpid`, a lock held by another process) on a
/// new thread of its own and awaits its result, so that no Swift concurrency thread blocks:
/// on 2 cores the cooperative pool has 2 threads, and tests run in parallel share them.
///
/// Cancellation ends the wait at once with `CancellationError`, but does not interrupt
/// `body`: it runs on to its own bound (give it one, e.g. `SO_RCVTIMEO`), and its result is
/// dropped then.
public func onDedicatedThread<T: Sendable>(
    _ name: String, _ body: @escaping @Sendable () throws -> T
) async throws -> T {
    let once = ResumeOnce<T>()
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            guard once.set(continuation) else { return }
            let thread = Thread { once.resume(with: Result { try body() }) }
            thread.name = name
            thread.start()
        }
    } onCancel: {
        once.resume(with: .failure(CancellationError()))
    }
}

/// A continuation resumed by whoever comes first: the result or the cancellation.
private final class ResumeOnce<T: Sendable>: Sendable {
    private enum State {
        case waiting
        case registered(CheckedContinuation<T, any Error>)
        case resumed
    }
    private let state = Mutex(State.waiting)

    /// Registers the continuation; `false` (and resumed with `CancellationError`) when the
    /// task was cancelled before.
    func set(_ continuation: CheckedContinuation<T, any Error>) -> Bool {
        let registered = state.withLock { state -> Bool in
            guard case .waiting = state else { return false }
            state = .registered(continuation)
            return true
        }
        if !registered { continuation.resume(throwing: CancellationError()) }
        return registered
    }

    func resume(with result: Result<T, any Error>) {
        let continuation = state.withLock { state -> CheckedContinuation<T, any Error>? in
            defer { state = .resumed }
            guard case .registered(let continuation) = state else { return nil }
            return continuation
        }
        continuation?.resume(with: result)
    }
}
