/// Exponential back-off: `initial`, `2·initial`, `4·initial`, … capped at `maximum`.
/// Deterministic (no jitter: one daemon, one gpsd, one provider; no herd to spread), so
/// that tests can compute it. Used for weather retries and gpsd reconnects.
public struct Backoff: Sendable, Equatable {
    public let initial: Duration
    public let maximum: Duration

    /// `initial` is raised to 1 ms (a zero delay would never grow, and would loop tight) and
    /// capped at `maximum`.
    public init(initial: Duration, maximum: Duration) {
        let floor = Duration.milliseconds(1)
        self.maximum = max(maximum, floor)
        self.initial = min(max(initial, floor), self.maximum)
    }

    /// The delay before retry number `attempt` (1-based): `initial · 2^(attempt-1)`, at most `maximum`.
    public func delay(attempt: Int) -> Duration {
        var d = initial
        var n = 1
        while n < attempt && d < maximum {
            d = d * 2
            n += 1
        }
        return min(d, maximum)
    }
}
