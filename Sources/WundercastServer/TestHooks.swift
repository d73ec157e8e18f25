import WundercastModel
import WundercastPipeline

import WundercastPOSIX

/// Hooks for the daemon's own tests, honoured only in debug builds (a release build ignores
/// the variables):
/// - `WUNDERCAST_TEST_WEDGE=pipeline`: the first `refresh` wedges the weather pipeline
///   (``WeatherService/wedgeOnRefreshForTesting()``), so a test sees `WATCHDOG=1` stop.
/// - `WUNDERCAST_TEST_BACKOFF=SECONDS`: the retry policy's first step (default 5 s), so a
///   test sees a wake cut a long back-off short without waiting through shorter ones.
/// - `WUNDERCAST_TEST_ALERTS_BACKOFF=SECONDS`: the alert source's first retry after a failure
///   (default 60 s), so a test sees a source come back without waiting a minute.
/// - `WUNDERCAST_TEST_SLEPT_FILE=PATH`: whole seconds read from PATH (when it exists) are
///   added to `CLOCK_BOOTTIME − CLOCK_MONOTONIC`, so a test simulates a suspend that
///   logind's `PrepareForSleep(false)` is checked against.
/// - `WUNDERCAST_TEST_KERNEL_CLOCK=STATE`: what `adjtimex(2)` is taken to return (`0`
///   `TIME_OK`, `5` `TIME_ERROR`), read from the variable, or from the file it names when it
///   starts with `/` (a test changes the answer while the daemon runs); the machine's clock
///   is never asked, let alone touched.
enum TestHooks {
    /// The kernel's clock state for ``ClockSync``.
    static var kernelClockState: @Sendable () -> Int32? {
        #if DEBUG
        if let value = Environment.value("WUNDERCAST_TEST_KERNEL_CLOCK") {
            guard value.hasPrefix("/") else { return { Int32(value) } }
            return {
                let text = (try? WholeFile.read(path: value, limit: 64)).map { String(decoding: $0, as: UTF8.self) }
                return text.flatMap { Int32($0.filter { !$0.isWhitespace }) }
            }
        }
        #endif
        return KernelClock.state
    }

    /// `CLOCK_BOOTTIME − CLOCK_MONOTONIC`, for ``WakeWatch``.
    static var suspendOffset: @Sendable () -> Duration {
        #if DEBUG
        if let path = Environment.value("WUNDERCAST_TEST_SLEPT_FILE") {
            return {
                let text = (try? WholeFile.read(path: path, limit: 64)).map { String(decoding: $0, as: UTF8.self) }
                let slept = text.flatMap { Int64($0.filter { !$0.isWhitespace }) } ?? 0
                return SuspendClocks.offset() + .seconds(slept)
            }
        }
        #endif
        return SuspendClocks.offset
    }

    /// The retry policy of the weather service.
    static var retry: RetryPolicy {
        #if DEBUG
        if let seconds = Environment.value("WUNDERCAST_TEST_BACKOFF").flatMap(Int64.init), seconds > 0 {
            return RetryPolicy(backoff: Backoff(initial: .seconds(seconds), maximum: .seconds(seconds * 16)))
        }
        #endif
        return RetryPolicy()
    }

    /// The back-off of the alert source after a failure: from 60 s up to `interval`.
    static func alertsRetry(_ interval: Duration) -> Backoff {
        #if DEBUG
        if let seconds = Environment.value("WUNDERCAST_TEST_ALERTS_BACKOFF").flatMap(Int64.init), seconds > 0 {
            return Backoff(initial: .seconds(seconds), maximum: .seconds(seconds * 16))
        }
        #endif
        return Backoff(initial: .seconds(60), maximum: interval)
    }

    /// Arms the wedge of `service` when asked.
    static func apply(to service: WeatherService<ContinuousClock>) {
        #if DEBUG
        if Environment.value("WUNDERCAST_TEST_WEDGE") == "pipeline" { service.wedgeOnRefreshForTesting() }
        #endif
    }
}
