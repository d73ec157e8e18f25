import Synchronization

/// A clock that moves only when a test calls ``advance(by:)``: time-based code is tested
/// without sleeping. Sleepers resume, in deadline order, when time reaches their deadline;
/// a cancelled sleeper throws `CancellationError`.
///
/// The test's own waits (``waitForSleeper(until:timeout:)``, ``waitForSleepers(_:timeout:)``)
/// end when the condition holds, throw ``DeadlineExceeded`` after their timeout of real time
/// (a safety net: the code under test never scheduled that wake-up), and throw
/// `CancellationError` at once when the waiting task is cancelled (e.g. by `.timeLimit`).
public final class ManualClock: Clock, Sendable {
    public struct Instant: InstantProtocol, CustomStringConvertible {
        /// Time since the clock's origin.
        public var offset: Duration
        public init(offset: Duration) { self.offset = offset }
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (a: Instant, b: Instant) -> Bool { a.offset < b.offset }
        public var description: String { "t+\(offset)" }
    }

    private struct Sleeper {
        var deadline: Instant
        var continuation: CheckedContinuation<Void, any Error>
    }
    /// A test waiting for sleepers: for `count` of them, or for one until exactly `deadline`.
    private struct Waiter {
        enum Condition {
            case count(Int)
            case deadline(Instant)
        }
        var condition: Condition
        var continuation: CheckedContinuation<Void, any Error>
    }
    private struct State {
        var now = Instant(offset: .zero)
        var sleepers: [Int: Sleeper] = [:]
        var nextID = 0
        var waiters: [Int: Waiter] = [:]

        func holds(_ condition: Waiter.Condition) -> Bool {
            switch condition {
            case .count(let count): sleepers.count >= count
            case .deadline(let deadline): sleepers.values.contains { $0.deadline == deadline }
            }
        }

        mutating func takeSatisfiedWaiters() -> [CheckedContinuation<Void, any Error>] {
            let ready = waiters.filter { holds($0.value.condition) }
            for id in ready.keys { waiters[id] = nil }
            return ready.values.map(\.continuation)
        }

        mutating func takeID() -> Int {
            defer { nextID += 1 }
            return nextID
        }
    }
    private let state = Mutex(State())

    public init() {}

    public var now: Instant { state.withLock { $0.now } }
    public var minimumResolution: Duration { .zero }

    /// Number of tasks sleeping on this clock now.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// The deadlines of the tasks sleeping on this clock now, earliest first.
    public var deadlines: [Instant] { state.withLock { $0.sleepers.values.map(\.deadline).sorted() } }

    /// Suspends until some task sleeps until exactly `deadline` (a condition, not a poll):
    /// proves that the code under test scheduled that wake-up, before time is advanced to it.
    /// Throws ``DeadlineExceeded`` when none does within `timeout` of real time, and
    /// `CancellationError` when the waiting task is cancelled.
    public func waitForSleeper(until deadline: Instant, timeout: Duration = .seconds(20)) async throws {
        try await wait(for: .deadline(deadline), timeout: timeout) {
            "a sleeper until \(deadline) on the manual clock (sleepers until: \(self.deadlines))"
        }
    }

    /// Suspends until at least `count` tasks sleep on this clock (a condition, not a poll).
    /// Throws ``DeadlineExceeded`` when fewer do within `timeout` of real time, and
    /// `CancellationError` when the waiting task is cancelled.
    public func waitForSleepers(_ count: Int = 1, timeout: Duration = .seconds(20)) async throws {
        try await wait(for: .count(count), timeout: timeout) {
            "\(count) sleepers on the manual clock (sleepers until: \(self.deadlines))"
        }
    }

    private func wait(
        for condition: Waiter.Condition, timeout: Duration, _ what: @escaping @Sendable () -> String
    ) async throws {
        do {
            try await withDeadline(timeout, "") { try await self.wait(for: condition) }
        } catch let error as DeadlineExceeded {
            throw DeadlineExceeded(what: what(), timeout: error.timeout)
        }
    }

    private func wait(for condition: Waiter.Condition) async throws {
        let id = state.withLock { $0.takeID() }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome = state.withLock { s -> Result<Void, any Error>? in
                    if s.holds(condition) { return .success(()) }
                    if Task.isCancelled { return .failure(CancellationError()) }
                    s.waiters[id] = Waiter(condition: condition, continuation: continuation)
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
            waiter?.continuation.resume(throwing: CancellationError())
        }
    }

    /// The instant `offset` after the clock's origin.
    public func at(_ offset: Duration) -> Instant { Instant(offset: offset) }

    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = state.withLock { $0.takeID() }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let (resumeNow, waiters) = state.withLock { s -> (Bool, [CheckedContinuation<Void, any Error>]) in
                    if deadline <= s.now { return (true, []) }
                    if Task.isCancelled { return (true, []) }
                    s.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return (false, s.takeSatisfiedWaiters())
                }
                for waiter in waiters { waiter.resume() }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let sleeper = state.withLock { $0.sleepers.removeValue(forKey: id) }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
        try Task.checkCancellation()
    }

    /// Moves time forward by `duration` and wakes every sleeper whose deadline has come.
    public func advance(by duration: Duration) {
        let due = state.withLock { s -> [Sleeper] in
            s.now = s.now.advanced(by: duration)
            let due = s.sleepers.filter { $0.value.deadline <= s.now }
            for key in due.keys { s.sleepers.removeValue(forKey: key) }
            return due.values.sorted { $0.deadline < $1.deadline }
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// Moves time forward by `duration` as a suspended machine sees it: time passed, but no
    /// sleeper wakes (timers that slept through a suspend fire late); the next ``advance(by:)``
    /// wakes those whose deadline has come.
    public func jump(by duration: Duration) {
        state.withLock { $0.now = $0.now.advanced(by: duration) }
    }
}
