/// Why the world may have come back (issue 8, point 2): the machine resumed from suspend, or
/// the network changed after an outage. ``WeatherService/wake(_:asleepFor:)`` takes it.
public enum WakeReason: String, Sendable, Equatable, CaseIterable {
    /// logind's `PrepareForSleep(false)` on the system bus: the machine resumed.
    case resumed = "logind"
    /// `CLOCK_BOOTTIME` gained on `CLOCK_MONOTONIC` between two watchdog ticks: the machine was
    /// suspended (where logind is not there to say so).
    case clockJump = "clock-jump"
    /// rtnetlink reported a new address or route, or a link that came up.
    case networkReturned = "network"

    /// The machine was suspended (not only the network changed).
    public var isResume: Bool { self != .networkReturned }
}

/// What a wake did to the weather pipeline's schedule (``RefreshStateMachine/wake(_:at:)``).
public enum WakeOutcome: Sendable, Equatable {
    /// The back-off after a network failure was cut short: the next attempt starts now (at the
    /// earliest 5 s after the last attempt started).
    case backoffCutShort
    /// The last failure was not a network one (a `Retry-After`, a 429, a 401/403, a daily
    /// limit, …): its back-off stands, `remaining` from now.
    case backoffKept(remaining: Duration, code: String)
    /// After a resume: the weather is fetched again as soon as `MinInterval` allows.
    case refresh
    /// Nothing to do: the network changed while no fetch had failed for lack of it.
    case nothing
}
