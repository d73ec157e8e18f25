import Foundation

/// Runs blocking `body` (a blocking `recv`, a `waitpid`, a lock held by another process) on a
/// new thread of its own and awaits its result, so that no Swift concurrency thread blocks:
/// on 2 cores the cooperative pool has 2 threads, and tests run in parallel share them.
///
/// Cancellation does not interrupt `body`: give it its own bound (e.g. `SO_RCVTIMEO`).
public func onDedicatedThread<T: Sendable>(
    _ name: String, _ body: @escaping @Sendable () throws -> T
) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread { continuation.resume(with: Result { try body() }) }
        thread.name = name
        thread.start()
    }
}
