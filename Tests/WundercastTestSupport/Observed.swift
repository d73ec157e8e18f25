import Foundation

/// A value that changes on some thread (a callback, a reader thread) and that tests wait on:
/// ``update(_:)`` resumes every waiter whose condition now holds. No polling: the waiter is
/// a continuation, resumed by the thread that changed the value.
public final class Observed<Value: Sendable>: @unchecked Sendable {
    private struct Waiter {
        var condition: (Value) -> Bool
        var continuation: CheckedContinuation<Value, any Error>
    }

    private let lock = NSLock()
    private var current: Value
    private var waiters: [UInt64: Waiter] = [:]
    private var nextID: UInt64 = 0

    public init(_ value: Value) { current = value }

    /// The value now.
    public var value: Value { lock.withLock { current } }

    /// Changes the value and resumes the waiters whose condition holds for the new one.
    @discardableResult
    public func update<R>(_ body: (inout Value) -> R) -> R {
        let (result, value, ready): (R, Value, [CheckedContinuation<Value, any Error>]) = lock.withLock {
            let result = body(&current)
            let value = current
            var ready: [CheckedContinuation<Value, any Error>] = []
            for (id, waiter) in waiters where waiter.condition(value) {
                ready.append(waiter.continuation)
                waiters[id] = nil
            }
            return (result, value, ready)
        }
        for continuation in ready { continuation.resume(returning: value) }
        return result
    }

    /// Waits until `condition` holds (checked now, then at each change) and returns the value
    /// it held for; throws ``DeadlineExceeded`` (naming `what` and the value then) after
    /// `timeout` (a safety net), `CancellationError` when the task is cancelled.
    @discardableResult
    public func wait(
        timeout: Duration = .seconds(30), _ what: String, until condition: @escaping @Sendable (Value) -> Bool
    ) async throws -> Value {
        do {
            return try await withDeadline(timeout, what) { try await self.wait(until: condition) }
        } catch let error as DeadlineExceeded {
            throw DeadlineExceeded(
                what: "\(what) (the value then: \(String(describing: value).prefix(1000)))", timeout: error.timeout)
        }
    }

    /// Waits, without a deadline, until `condition` holds; throws `CancellationError` when the
    /// task is cancelled.
    public func wait(until condition: @escaping @Sendable (Value) -> Bool) async throws -> Value {
        let id = lock.withLock {
            nextID += 1
            return nextID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let outcome: WaitOutcome<Value> = lock.withLock {
                    if condition(current) { return .ready(current) }
                    if Task.isCancelled { return .cancelled }
                    waiters[id] = Waiter(condition: condition, continuation: continuation)
                    return .registered
                }
                switch outcome {
                case .ready(let value): continuation.resume(returning: value)
                case .cancelled: continuation.resume(throwing: CancellationError())
                case .registered: break
                }
            }
        } onCancel: {
            let waiter = lock.withLock { waiters.removeValue(forKey: id) }
            waiter?.continuation.resume(throwing: CancellationError())
        }
    }
}

private enum WaitOutcome<Value> {
    case ready(Value)
    case cancelled
    case registered
}
