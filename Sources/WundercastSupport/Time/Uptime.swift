/// The daemon's one monotonic time line for ages: time since the process's first reading of
/// `ContinuousClock` (on Linux `CLOCK_BOOTTIME`: it counts a suspend and no wall clock step moves
/// it). Every part that stamps a moment whose age is published (a fix received, weather fetched)
/// and every part that publishes ages read this same line, so that ages stay true across a step of
/// the wall clock (NTP, `date -s`, an RTC-less board's first synchronisation).
public enum Uptime {
    private static let origin = ContinuousClock.now

    /// Time since the origin (never negative, never steps).
    @Sendable public static func now() -> Duration { origin.duration(to: .now) }
}
