/// Exponential back-off: `initial`, `2·initial`, `4·initial`, … capped at `maximum`.
/// Deterministic (no jitter) so that tests can compute it.
public struct Backoff: Sendable, Equatable {
    public var initial: Duration
    public var maximum: Duration

    public init(initial: Duration, maximum: Duration) {
        self.initial = initial
        self.maximum = maximum
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
