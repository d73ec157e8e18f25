import Synchronization

/// Values appended from any thread (a source's events, log entries), and waits for a
/// condition on them that are woken by ``append(_:)`` itself: no polling, no sleeping.
///
/// Each wait is bounded by a deadline as a safety net only, so that a broken component fails
/// its test instead of hanging it; a passing test never reaches the deadline.
public final class EventRecorder<Value: Sendable>: Sendable {
    private struct Waiter {
        let condition: @Sendable ([Value]) -> Bool
        let continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var values: [Value] = []
        var waiters: [UInt64: Waiter] = [:]
        var nextID: UInt64 = 0
        /// Waits given up before they registered (deadline or cancellation came first).
        var expired: Set<UInt64> = []
    }

    private let state = Mutex(State())

    public init() {}

    /// Everything appended so far, oldest first.
    public var values: [Value] { state.withLock { $0.values } }

    /// Appends `value` and resumes every waiter whose condition now holds.
    public func append(_ value: Value) {
        let ready = state.withLock { state -> [CheckedContinuation<Bool, Never>] in
            state.values.append(value)
            let values = state.values
            let satisfied = state.waiters.filter { $0.value.condition(values) }
            for id in satisfied.keys { state.waiters[id] = nil }
            return satisfied.map(\.value.continuation)
        }
        for continuation in ready { continuation.resume(returning: true) }
    }

    /// Returns `true` as soon as `condition` holds for the values appended so far (at once when
    /// it already does), `false` if it still does not after `deadline` (the safety net) or when
    /// the waiting task is cancelled.
    public func wait(
        _ deadline: Duration = .seconds(30), until condition: @escaping @Sendable ([Value]) -> Bool
    ) async -> Bool {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        let timer = Task { [weak self] in
            // Cancelled (the wait ended first): nothing to expire.
            guard (try? await Task.sleep(for: deadline)) != nil else { return }
            self?.expire(id)
        }
        defer { timer.cancel() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let answer = state.withLock { state -> Bool? in
                    if condition(state.values) { return true }
                    if state.expired.remove(id) != nil { return false }
                    state.waiters[id] = Waiter(condition: condition, continuation: continuation)
                    return nil
                }
                if let answer { continuation.resume(returning: answer) }
            }
        } onCancel: {
            expire(id)
        }
    }

    /// Gives up waiter `id`, if it is still waiting.
    private func expire(_ id: UInt64) {
        let waiter = state.withLock { state -> Waiter? in
            guard let waiter = state.waiters.removeValue(forKey: id) else {
                state.expired.insert(id)
                return nil
            }
            return waiter
        }
        waiter?.continuation.resume(returning: false)
    }
}
