import Synchronization
import WundercastPOSIX

/// A ``WundercastPOSIX/LoopClock`` that moves only when a test calls ``advance(by:)``: the timers
/// that came due then run on the loop, in deadline order (time standing at each one's deadline
/// while it runs), before `advance` returns. Code on the loop schedules timers as on the real
/// clock; a test waits for one by its name (``waitForTimer(named:)``), a condition, not a poll.
///
/// `@unchecked Sendable`: the timers and waiters are confined to ``loop``'s thread (checked, or
/// reached through `post`/`perform`); only the time is shared, behind a `Mutex`.
public final class ManualLoopClock: LoopClock, @unchecked Sendable {
    public let loop: EventLoop
    private let time = Mutex<Duration>(.zero)

    private struct Timer {
        var deadline: Duration
        var name: String
        var work: () -> Void
    }
    private struct Waiter {
        var id: UInt64
        var name: String
        var continuation: CheckedContinuation<Duration, any Error>
    }
    // Loop thread only.
    private var timers: [UInt64: Timer] = [:]
    private var nextNumber: UInt64 = 1
    private var waiters: [Waiter] = []
    private var cancelledWaiters: Set<UInt64> = []
    private let nextWaiter = Atomic<UInt64>(1)

    /// Time starts at zero.
    public init(loop: EventLoop) {
        self.loop = loop
    }

    public var now: Duration { time.withLock { $0 } }

    @discardableResult
    public func schedule(at deadline: Duration, name: String, _ work: @escaping () -> Void) -> LoopTimer {
        loop.preconditionOnLoop()
        let number = nextNumber
        nextNumber += 1
        timers[number] = Timer(deadline: deadline, name: name, work: work)
        let ready = waiters.filter { $0.name == name }
        waiters.removeAll { $0.name == name }
        for waiter in ready { waiter.continuation.resume(returning: deadline) }
        return LoopTimer(number: number)
    }

    public func cancel(_ timer: LoopTimer) {
        loop.preconditionOnLoop()
        timers[timer.number] = nil
    }

    /// Moves time forward by `duration`, running on the loop every timer due meanwhile
    /// (earliest first, also those the timers themselves schedule within it), and returns when
    /// they have run.
    public func advance(by duration: Duration) async {
        await loop.perform { [self] in
            let target = now + duration
            while let (number, timer) = timers.filter({ $0.value.deadline <= target }).min(by: {
                ($0.value.deadline, $0.key) < ($1.value.deadline, $1.key)
            }) {
                timers[number] = nil
                time.withLock { $0 = max($0, timer.deadline) }
                timer.work()
            }
            time.withLock { $0 = target }
        }
    }

    /// Moves time to `deadline` (nothing when it has passed), as ``advance(by:)``.
    public func advance(to deadline: Duration) async {
        await advance(by: max(.zero, deadline - now))
    }

    /// The deadlines of the timers named `name` not yet run, earliest first.
    public func deadlines(named name: String) async -> [Duration] {
        await loop.perform { [self] in timers.values.filter { $0.name == name }.map(\.deadline).sorted() }
    }

    /// The earliest deadline of a timer named `name` not yet run, once there is one (suspends
    /// until the code under test schedules it). Throws `CancellationError` when the waiting
    /// task is cancelled (a test's deadline ends the wait), or when the loop has ended.
    public func waitForTimer(named name: String) async throws -> Duration {
        let id = nextWaiter.wrappingAdd(1, ordering: .relaxed).oldValue
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Duration, any Error>) in
                let posted = loop.post { [self] in
                    if cancelledWaiters.remove(id) != nil {
                        continuation.resume(throwing: CancellationError())
                    } else if let first = timers.values.filter({ $0.name == name }).map(\.deadline).min() {
                        continuation.resume(returning: first)
                    } else {
                        waiters.append(Waiter(id: id, name: name, continuation: continuation))
                    }
                }
                if !posted { continuation.resume(throwing: CancellationError()) }
            }
        } onCancel: {
            loop.post { [self] in
                if let index = waiters.firstIndex(where: { $0.id == id }) {
                    waiters.remove(at: index).continuation.resume(throwing: CancellationError())
                } else {
                    cancelledWaiters.insert(id)
                }
            }
        }
    }
}
