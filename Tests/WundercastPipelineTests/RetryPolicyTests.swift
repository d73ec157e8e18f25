import Foundation
import Testing
import WundercastModel
import WundercastPipeline

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

@Suite struct RetryPolicyKindTests {
    let now = RetryPolicyTests().now

    /// A refused key waits hours, growing; a 404 minutes; a 429 without `Retry-After` a minute,
    /// growing; one with `Retry-After` is taken at its word; other kinds the plain back-off.
    @Test(arguments: [
        (WeatherError.http(status: 401, reason: nil, retryAfter: nil), [3600.0, 7200, 14_400, 28_800]),
        (.http(status: 403, reason: nil, retryAfter: nil), [3600, 7200, 14_400, 28_800]),
        (.http(status: 404, reason: nil, retryAfter: nil), [600, 1200, 2400, 4800]),
        (.http(status: 429, reason: nil, retryAfter: nil), [60, 120, 240, 480]),
        (.http(status: 429, reason: nil, retryAfter: 7), [7, 10, 20, 40]),
        (.http(status: 500, reason: nil, retryAfter: nil), [5, 10, 20, 40]),
        (.notJSON(status: 200, bytes: 1, contentType: nil), [5, 10, 20, 40]),
        (.transport(code: 6, message: ""), [5, 10, 20, 40]),
    ])
    func eachKindBacksOffItsWay(error: WeatherError, seconds: [Double]) {
        var policy = RetryPolicy()
        #expect(seconds.map { _ in policy.failed(error, now: now) } == seconds.map { .seconds($0) })
    }

    /// The kind's streak counts failures of that kind in a row: a 401 after network failures
    /// starts at 1 h, not at 1 h · 2⁴.
    @Test func aNewKindStartsItsOwnStreak() {
        var policy = RetryPolicy()
        for _ in 0..<4 { _ = policy.failed(.transport(code: 7, message: ""), now: now) }
        #expect(policy.failed(.http(status: 401, reason: nil, retryAfter: nil), now: now) == .seconds(3600))
        #expect(policy.failed(.http(status: 401, reason: nil, retryAfter: nil), now: now) == .seconds(7200))
        policy.succeeded()
        #expect(policy.failed(.http(status: 401, reason: nil, retryAfter: nil), now: now) == .seconds(3600))
    }

    @Test func aRefusedKeyWaitsAtMostADay() {
        var policy = RetryPolicy()
        let waits = (1...10).map { _ in policy.failed(.http(status: 403, reason: nil, retryAfter: nil), now: now) }
        #expect(waits.last == .seconds(86_400))
    }
}
