import Synchronization

/// A liveness probe: the watchdog sends numbered probes, the loop it watches answers each
/// when it gets to it. ``isAnswered`` tells whether every probe sent so far was answered: a
/// loop stuck on a lock or on work that never ends answers none, and a probe answered late
/// answers only itself and those before it — never one sent after it, still queued behind
/// the work that stuck the loop.
public final class Heartbeat: Sendable {
    private let sent = Atomic<UInt64>(0)
    private let answered = Atomic<UInt64>(0)

    public init() {}

    /// Whether every probe sent so far has been answered.
    public var isAnswered: Bool {
        answered.load(ordering: .acquiring) >= sent.load(ordering: .acquiring)
    }

    /// Sends a probe: counts it and returns its number (1, 2, …), which the caller delivers
    /// to the loop with it.
    @discardableResult
    public func send() -> UInt64 {
        sent.add(1, ordering: .acquiringAndReleasing).newValue
    }

    /// The loop got to probe `number`: it and every probe before it are answered.
    public func answer(_ number: UInt64) {
        var current = answered.load(ordering: .relaxed)
        while current < number {
            let (exchanged, original) = answered.compareExchange(
                expected: current, desired: number, ordering: .acquiringAndReleasing)
            if exchanged { return }
            current = original
        }
    }

    /// No loop holds a probe any more (none runs, or the one that ran has ended): every probe
    /// sent so far is answered.
    public func answerAll() {
        answer(sent.load(ordering: .acquiring))
    }
}
