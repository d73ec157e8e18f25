import Synchronization

/// A liveness probe: the watchdog sends probes, the loop it watches answers them when it gets
/// to them. ``isAnswered`` tells whether every probe sent so far was answered: a loop stuck
/// on a lock or on work that never ends answers none.
public final class Heartbeat: Sendable {
    private let sent = Atomic<UInt64>(0)
    private let answered = Atomic<UInt64>(0)

    public init() {}

    /// Whether every probe sent so far has been answered.
    public var isAnswered: Bool {
        answered.load(ordering: .acquiring) >= sent.load(ordering: .acquiring)
    }

    /// Sends a probe (counts it; the caller delivers it to the loop).
    public func send() {
        sent.add(1, ordering: .acquiringAndReleasing)
    }

    /// The loop is alive now: every probe sent so far is answered.
    public func answer() {
        let now = sent.load(ordering: .acquiring)
        var current = answered.load(ordering: .relaxed)
        while current < now {
            let (exchanged, original) = answered.compareExchange(
                expected: current, desired: now, ordering: .acquiringAndReleasing)
            if exchanged { return }
            current = original
        }
    }
}
