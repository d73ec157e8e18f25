import Foundation
import Testing
import WundercastCore

@Suite struct RetryPolicyTests {
    /// 2025-12-01 10:59:30 UTC.
    let now = Date(timeIntervalSince1970: 1_764_586_770)

    @Test(arguments: [(LimitWindow.minute, 30.0), (.hour, 30.0), (.day, 13 * 3600 + 30.0)])
    func limitWindowsWaitUntilTheNextOneBegins(window: LimitWindow, seconds: Double) {
        #expect(RetryPolicy.untilNext(window, after: now) == .seconds(seconds))
    }

    @Test(arguments: [(LimitWindow.minute, 30.0), (.hour, 30.0), (.day, 13 * 3600 + 30.0)])
    func aNamedLimitWaitsForItsWindowNotFiveSeconds(window: LimitWindow, seconds: Double) {
        var policy = RetryPolicy()
        let error = WeatherError.limited(
            status: 429, window: window, reason: "Daily API request limit exceeded. Please try again tomorrow.",
            retryAfter: nil)
        #expect(policy.failed(error, now: now) == .seconds(max(seconds, 5)))
    }

    @Test func backOffDoublesUpToItsMaximumAndResets() {
        var policy = RetryPolicy(backoff: Backoff(initial: .seconds(5), maximum: .seconds(20)))
        let error = WeatherError.transport(code: 7, message: "refused")
        #expect(
            (1...4).map { _ in policy.failed(error, now: now) } == [
                .seconds(5), .seconds(10), .seconds(20), .seconds(20),
            ])
        policy.succeeded()
        #expect(policy.failed(error, now: now) == .seconds(5))
    }
}
