import WundercastConfiguration

/// The time and distance rules that thin the location stream before weather is fetched.
/// Config `[Throttle]`.
public struct ThrottlePolicy: Sendable, Equatable {
    /// Never two emissions closer than this (measured from the last emission). `MinInterval=`.
    public var minInterval: Duration
    /// A fix passes when it is at least this many metres from the last *emitted* fix. `MinDistance=`.
    public var minDistance: Double
    /// While stationary, one emission per this span keeps the weather fresh. `MaxAge=`.
    public var maxAge: Duration
    /// When `true`, the distance threshold is widened by the fix's horizontal error (`eph`),
    /// so that receiver noise alone does not count as movement.
    public var widenByHorizontalError: Bool

    public init(minInterval: Duration, minDistance: Double, maxAge: Duration, widenByHorizontalError: Bool = false) {
        self.minInterval = minInterval
        self.minDistance = minDistance
        self.maxAge = maxAge
        self.widenByHorizontalError = widenByHorizontalError
    }

    /// The policy of a configuration's `[Throttle]` section.
    public init(_ settings: Configuration.Throttle) {
        self.init(minInterval: settings.minInterval, minDistance: settings.minDistance, maxAge: settings.maxAge)
    }
}
