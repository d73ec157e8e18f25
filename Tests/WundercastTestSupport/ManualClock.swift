import Synchronization

/// A clock that moves only when a test calls ``advance(by:)``: time-based code is tested
/// without sleeping. Sleepers resume, in deadline order, when time reaches their deadline;
/// a cancelled sleeper throws `CancellationError`.
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
    private struct State {
        var now = Instant(offset: .zero)
        var sleepers: [Int: Sleeper] = [:]
        var nextID = 0
        var sleeperWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
        var deadlineWaiters: [(deadline: Instant, continuation: CheckedContinuation<Void, Never>)] = []

        mutating func takeSatisfiedWaiters() -> [CheckedContinuation<Void, Never>] {
            let n = sleepers.count
            var ready = sleeperWaiters.filter { $0.count <= n }.map(\.continuation)
            sleeperWaiters.removeAll { $0.count <= n }
            let deadlines = Set(sleepers.values.map(\.deadline.offset))
            ready += deadlineWaiters.filter { deadlines.contains($0.deadline.offset) }.map(\.continuation)
            deadlineWaiters.removeAll { deadlines.contains($0.deadline.offset) }
            return ready
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
    public func waitForSleeper(until deadline: Instant) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { s -> Bool in
                if s.sleepers.values.contains(where: { $0.deadline == deadline }) { return true }
                s.deadlineWaiters.append((deadline, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// The instant `offset` after the clock's origin.
    public func at(_ offset: Duration) -> Instant { Instant(offset: offset) }

    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = state.withLock { s -> Int in
            defer { s.nextID += 1 }
            return s.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let (resumeNow, waiters) = state.withLock { s -> (Bool, [CheckedContinuation<Void, Never>]) in
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

    /// Suspends until at least `count` tasks sleep on this clock (a condition, not a poll).
    public func waitForSleepers(_ count: Int = 1) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { s -> Bool in
                if s.sleepers.count >= count { return true }
                s.sleeperWaiters.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }
}
