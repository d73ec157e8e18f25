#if canImport(Glibc)
import Glibc
#endif

/// The two clocks that tell a suspend: `CLOCK_BOOTTIME` counts the time the machine spent
/// suspended, `CLOCK_MONOTONIC` does not. Their difference grows by exactly the time asleep
/// (`WundercastPipeline`'s `SuspendDetector` compares it between readings).
public enum SuspendClocks {
    /// `CLOCK_BOOTTIME − CLOCK_MONOTONIC` now: the total time suspended since boot.
    public static func offset() -> Duration {
        read(CLOCK_BOOTTIME) - read(CLOCK_MONOTONIC)
    }

    private static func read(_ clock: clockid_t) -> Duration {
        var now = timespec()
        _ = clock_gettime(clock, &now)
        return .seconds(now.tv_sec) + .nanoseconds(now.tv_nsec)
    }
}
