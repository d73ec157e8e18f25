import Foundation
import Testing
import WundercastSupport
import WundercastModel
import WundercastConfiguration
import WundercastTestSupport

/// Every failure kind of issue 7 (point 5) at the service: the weather already shown stays,
/// marked `stale`; without weather the state is `offline` or `error`; the next attempt waits
/// for the kind's back-off; exactly one log line, at the kind's priority, with its code.
extension WeatherServiceTests {
    /// A failure, its `error.code`, whether it leaves the state `offline` (else `error`) when no
    /// weather is kept, and the wait before the next attempt after it is the first failure.
    struct Case: Sendable, CustomTestStringConvertible {
        var error: WeatherError
        var code: String
        var offline: Bool
        var wait: Duration
        var testDescription: String { code + (error.retryAfter.map { " Retry-After \($0)" } ?? "") }
    }

    static let cases: [Case] = [
        Case(
            error: .transport(code: 6, message: "Could not resolve host: api.example"), code: "dns", offline: true,
            wait: .seconds(5)),
        Case(
            error: .transport(code: 7, message: "Couldn't connect to server"), code: "connect", offline: true,
            wait: .seconds(5)),
        Case(
            error: .transport(code: 28, message: "Operation timed out"), code: "timeout", offline: true,
            wait: .seconds(5)),
        Case(
            error: .transport(code: 60, message: "SSL certificate problem"), code: "tls", offline: true,
            wait: .seconds(5)),
        Case(
            error: .transport(code: 18, message: "transfer closed"), code: "truncated", offline: true, wait: .seconds(5)
        ),
        Case(
            error: .transport(code: 56, message: "Connection reset by peer"), code: "transport", offline: true,
            wait: .seconds(5)),
        Case(error: .tooLarge(limit: 2 << 20), code: "too-large", offline: false, wait: .seconds(5)),
        Case(
            error: .http(status: 401, reason: "Invalid API key", retryAfter: nil), code: "http-401", offline: false,
            wait: .seconds(3600)),
        Case(
            error: .http(status: 403, reason: nil, retryAfter: nil), code: "http-403", offline: false,
            wait: .seconds(3600)),
        Case(
            error: .http(status: 404, reason: nil, retryAfter: nil), code: "http-404", offline: false,
            wait: .seconds(600)),
        Case(
            error: .http(status: 429, reason: nil, retryAfter: nil), code: "http-429", offline: false,
            wait: .seconds(60)),
        Case(
            error: .http(status: 429, reason: nil, retryAfter: 120), code: "http-429", offline: false,
            wait: .seconds(120)),
        Case(
            error: .http(status: 429, reason: nil, retryAfter: 2), code: "http-429", offline: false, wait: .seconds(5)),
        Case(
            error: .http(status: 503, reason: "maintenance", retryAfter: 30), code: "http-503", offline: false,
            wait: .seconds(30)),
        Case(
            error: .http(status: 500, reason: nil, retryAfter: nil), code: "http-500", offline: false, wait: .seconds(5)
        ),
        Case(
            error: .notJSON(status: 200, bytes: 512, contentType: "text/html"), code: "not-json", offline: false,
            wait: .seconds(5)),
        Case(
            error: .errorBody(status: 200, providerCode: "404", reason: "city not found"), code: "error-body",
            offline: false, wait: .seconds(5)),
        Case(
            error: .decoding(message: "current is a string, expected an object"), code: "decoding", offline: false,
            wait: .seconds(5)),
    ]

    static let place = FallbackPlace.coordinate(Coordinate(latitude: 59.91, longitude: 10.75))

    @Test(arguments: cases)
    func goodWeatherStaysStaleAfterEveryKindOfFailure(_ c: Case) async throws {
        let log = CapturedLog()
        let running = start(
            .denied, minInterval: .seconds(10), maxAge: .seconds(60), fallback: Self.place, logger: log.logger)
        try await provider.waitForRequests(1)
        provider.answerNext(with: .success(makeWeather(-3)))
        await running.state("fresh") { $0.status == .fresh }
        try await clock.waitForSleeper(until: clock.at(.seconds(60)))
        clock.advance(by: .seconds(60))
        try await provider.waitForRequests(2)
        provider.answerNext(with: .failure(c.error))
        let stale = await running.state("stale with \(c.code)") { $0.status == .stale && $0.error != nil }
        #expect(stale?.weather?.temperature == -3, "the good weather stays")
        #expect(stale?.error == WeatherState.ErrorInfo(code: c.code, message: c.error.message))
        try await clock.waitForSleeper(until: clock.at(.seconds(60) + c.wait))
        #expect(clock.deadlines == [clock.at(.seconds(60) + c.wait)])

        let lines = log.all.filter { $0.fields.contains { $0 == ("MESSAGE_ID", MessageID.fetchFailed) } }
        #expect(lines.count == 1, "one log line: \(log.texts)")
        #expect(lines.first?.priority == c.error.kind.logPriority)
        #expect(lines.first?.fields.contains { $0 == ("WUNDERCAST_ERROR", c.code) } == true)
        #expect(lines.first?.message.contains(c.error.message) == true)
        // Then the wait before the next attempt, in an entry of its own.
        let backOff = log.all.filter { $0.field("MESSAGE_ID") == MessageID.backOff }
        #expect(backOff.count == 1, "\(log.texts)")
        #expect(backOff.first?.field("WUNDERCAST_RETRY_MS") == String(c.wait.components.seconds * 1000))
        #expect(backOff.first?.field("WUNDERCAST_ERROR") == c.code)
        await running.stop()
    }

    @Test(arguments: cases)
    func withoutWeatherTheStateIsOfflineOrError(_ c: Case) async throws {
        let running = start(.denied, fallback: Self.place)
        try await provider.waitForRequests(1)
        provider.answerNext(with: .failure(c.error))
        let failed = await running.state("failed with \(c.code)") { $0.error?.code == c.code }
        #expect(failed?.status == (c.offline ? .offline : .error))
        #expect(failed?.weather == nil)
        await running.stop()
    }

    /// 401 twice in a row: 1 h, then 2 h; a success starts over at 1 h.
    @Test func aRefusedKeyBacksOffForHoursAndASuccessResets() async throws {
        let running = start(.denied, minInterval: .seconds(10), maxAge: .seconds(60), fallback: Self.place)
        let refused = WeatherError.http(status: 401, reason: nil, retryAfter: nil)
        try await provider.waitForRequests(1)
        provider.answerNext(with: .failure(refused))
        try await clock.waitForSleeper(until: clock.at(.seconds(3600)))
        clock.advance(by: .seconds(3600))
        try await provider.waitForRequests(2)
        provider.answerNext(with: .failure(refused))
        try await clock.waitForSleeper(until: clock.at(.seconds(3600 + 7200)))
        clock.advance(by: .seconds(7200))
        try await provider.waitForRequests(3)
        provider.answerNext(with: .success(makeWeather(1)))
        await running.state("fresh") { $0.status == .fresh }
        // MaxAge later, a third refusal waits 1 h again, not 4 h.
        try await clock.waitForSleeper(until: clock.at(.seconds(10_800 + 60)))
        clock.advance(by: .seconds(60))
        try await provider.waitForRequests(4)
        provider.answerNext(with: .failure(refused))
        try await clock.waitForSleeper(until: clock.at(.seconds(10_860 + 3600)))
        #expect(clock.deadlines == [clock.at(.seconds(10_860 + 3600))])
        await running.stop()
    }
}
