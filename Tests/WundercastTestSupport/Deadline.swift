/// The wait for an event took longer than its safety net: the awaited event never came.
public struct DeadlineExceeded: Error, CustomStringConvertible {
    /// What was awaited, e.g. `"READY=1 from wundercastd"`.
    public var what: String
    public var timeout: Duration
    public var description: String { "timed out after \(timeout) waiting for \(what)" }

    public init(what: String, timeout: Duration) {
        self.what = what
        self.timeout = timeout
    }
}

/// Runs `operation` and returns its result, or throws ``DeadlineExceeded`` after `timeout`.
///
/// A safety net, not a synchronisation: `operation` waits for an event (a continuation resumed
/// by the producer); the deadline only turns a hang into a failure. Neither side blocks a
/// thread: a child task sleeps on `ContinuousClock` while the other awaits.
/// On timeout `operation` is cancelled (waiters in this module throw `CancellationError` then)
/// and its end is awaited before this returns. Cancelling the caller cancels both.
public func withDeadline<T: Sendable>(
    _ timeout: Duration, _ what: @autoclosure () -> String,
    _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    let what = what()
    return try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await operation() }
        group.addTask {
            try await Task.sleep(for: timeout, clock: .continuous)
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let value = first else {
            throw DeadlineExceeded(what: what, timeout: timeout)
        }
        return value
    }
}
