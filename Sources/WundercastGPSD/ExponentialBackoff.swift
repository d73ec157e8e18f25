/// Delays between reconnection attempts: `initial`, then doubling, capped at `maximum`;
/// ``reset()`` after a good connection starts again from `initial`.
///
/// No jitter: one daemon talks to one local gpsd, there is no herd to spread out.
struct ExponentialBackoff: Sendable {
    let initial: Duration
    let maximum: Duration
    private var upcoming: Duration

    /// `initial` is raised to 1 ms (a zero delay would never grow) and capped at `maximum`.
    init(initial: Duration, maximum: Duration) {
        let floor = Duration.milliseconds(1)
        self.maximum = max(maximum, floor)
        self.initial = min(max(initial, floor), self.maximum)
        self.upcoming = self.initial
    }

    /// The delay before the next attempt; each call doubles the following one, up to `maximum`.
    mutating func nextDelay() -> Duration {
        let delay = upcoming
        upcoming = upcoming > maximum / 2 ? maximum : upcoming * 2
        return delay
    }

    /// Back to `initial`, after a connection that worked.
    mutating func reset() {
        upcoming = initial
    }
}
