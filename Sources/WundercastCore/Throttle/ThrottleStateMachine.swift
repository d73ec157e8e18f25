/// The decision logic of ``AsyncThrottleSequence``, free of concurrency so that it can be
/// tested on its own. Time is an instant of the caller's monotonic clock, never GPS time.
///
/// Rules, in order (DESIGN "Throttle"):
/// 1. Only ``Fix`` values reach it: below 2D or non-finite coordinates were refused earlier.
/// 2. The first fix passes at once.
/// 3. Nothing passes within ``ThrottlePolicy/minInterval`` of the last emission.
/// 4. A fix passes when it is at least ``ThrottlePolicy/minDistance`` from the last
///    *emitted* fix (so slow drift adds up), optionally widened by its horizontal error.
/// 5. Otherwise a fix passes when ``ThrottlePolicy/maxAge`` has gone by since the last
///    emission (stationary heartbeat).
public struct ThrottleStateMachine<Instant: InstantProtocol>: Sendable where Instant.Duration == Swift.Duration {
    /// Why a fix passed, for logs and tests.
    public enum Reason: Sendable, Equatable {
        case first
        case moved(metres: Double)
        case heartbeat
    }

    public let policy: ThrottlePolicy
    private var lastEmitted: (fix: Fix, at: Instant)?

    public init(policy: ThrottlePolicy) {
        self.policy = policy
    }

    /// Offers `fix` seen at `now`; returns why it passes, or `nil` when it is held back.
    public mutating func offer(_ fix: Fix, at now: Instant) -> Reason? {
        guard let last = lastEmitted else {
            lastEmitted = (fix, now)
            return .first
        }
        let elapsed = last.at.duration(to: now)
        guard elapsed >= policy.minInterval else { return nil }
        let moved = last.fix.coordinate.distance(to: fix.coordinate)
        var threshold = policy.minDistance
        if policy.widenByHorizontalError, let error = fix.horizontalError { threshold += error }
        if moved >= threshold {
            lastEmitted = (fix, now)
            return .moved(metres: moved)
        }
        if elapsed >= policy.maxAge {
            lastEmitted = (fix, now)
            return .heartbeat
        }
        return nil
    }
}
