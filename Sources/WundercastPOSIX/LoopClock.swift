/// Time for code confined to an ``EventLoop``: monotonic time since the clock's origin, and
/// timers that run on the loop's thread. ``ContinuousLoopClock`` is the loop's own timers on
/// `ContinuousClock`; a test gives a manual one, which moves only when the test advances it and
/// then fires the timers that came due on the loop (no test waits for real time).
///
/// Scheduling and cancelling are for the loop's thread only (checked); ``now`` is for any thread.
public protocol LoopClock: Sendable {
    /// The loop whose thread runs the timers.
    var loop: EventLoop { get }

    /// Time since the clock's origin.
    var now: Duration { get }

    /// Runs `work` on the loop's thread once ``now`` has reached `deadline` (a deadline passed
    /// already: on the next turn of the loop). `name` says what the timer is for (a test finds
    /// a timer by it). Loop thread only.
    @discardableResult
    func schedule(at deadline: Duration, name: String, _ work: @escaping () -> Void) -> LoopTimer

    /// Cancels a timer that has not run (nothing happens for one that has). Loop thread only.
    func cancel(_ timer: LoopTimer)
}

/// A timer of a ``LoopClock``, for ``LoopClock/cancel(_:)``.
public struct LoopTimer: Sendable, Hashable {
    /// The clock's number for it.
    public let number: UInt64
    public init(number: UInt64) { self.number = number }
}

/// `ContinuousClock` (`CLOCK_BOOTTIME`, counting a suspend) and the timers of ``loop``:
/// ``EventLoop/schedule(at:_:)``, at millisecond resolution, never early.
public struct ContinuousLoopClock: LoopClock {
    public let loop: EventLoop
    private let origin: ContinuousClock.Instant

    /// The origin is now.
    public init(loop: EventLoop) {
        self.loop = loop
        origin = .now
    }

    public var now: Duration { origin.duration(to: .now) }

    @discardableResult
    public func schedule(at deadline: Duration, name: String, _ work: @escaping () -> Void) -> LoopTimer {
        LoopTimer(number: loop.schedule(at: origin + deadline, work).number)
    }

    public func cancel(_ timer: LoopTimer) {
        loop.cancel(EventLoop.TimerID(number: timer.number))
    }
}
