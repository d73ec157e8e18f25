import Foundation
import Testing
@testable import WundercastSupport
@testable import WundercastModel
@testable import WundercastPipeline
import WundercastTestSupport

/// Issue 8, point 5: the service's events in the journal, each with its own `MESSAGE_ID`,
/// positions at `[Journal] Precision=` (default 1 decimal).
extension WeatherServiceTests {
    static func entries(_ log: CapturedLog, _ id: String) -> [CapturedLog.Entry] {
        log.all.filter { $0.field("MESSAGE_ID") == id }
    }

    /// Fix acquired once (not per fix), lost after MaxFixAge, acquired again with the next fix.
    @Test func fixAcquiredAndLostAreLoggedOncePerChange() async throws {
        let log = CapturedLog()
        let running = start(.authorizedAlways, minInterval: .seconds(60), maxAge: .seconds(300), logger: log.logger)
        try await source.waitForOpen()
        try await fetched(makeFix(48.137154, 11.575382), 1, by: running, requests: 1)
        source.send(makeFix(48.137160, 11.575390))  // the same place again: no new entry
        try await clock.waitForSleeper(until: clock.at(.seconds(120)))
        clock.advance(by: .seconds(120))
        await running.state("aged") { $0.error?.code == "no-fix" }
        source.send(makeFix(48.137154, 11.575382))
        await running.state("current again") { $0.location?.status == .current }
        await running.stop()

        let changes = log.all.filter {
            [MessageID.fixAcquired, MessageID.fixLost].contains($0.field("MESSAGE_ID") ?? "")
        }
        #expect(
            changes.map { $0.field("MESSAGE_ID") } == [
                MessageID.fixAcquired, MessageID.fixLost, MessageID.fixAcquired,
            ],
            "\(log.texts)")
        let acquired = Self.entries(log, MessageID.fixAcquired)
        #expect(acquired.first?.field("WUNDERCAST_LATITUDE") == "48.1")
        #expect(acquired.first?.field("WUNDERCAST_LONGITUDE") == "11.6")
        #expect(acquired.first?.field("WUNDERCAST_FIX_MODE") == "3")
        #expect(acquired.first?.priority == .info)
        #expect(acquired.first?.function.isEmpty == false)
        let lost = Self.entries(log, MessageID.fixLost)
        #expect(lost.first?.field("WUNDERCAST_MAX_FIX_AGE_MS") == "120000")
        #expect(lost.first?.priority == .notice)
        // No entry holds the position at more than one decimal.
        #expect(!log.texts.contains { $0.contains("48.14") || $0.contains("11.58") }, "\(log.texts)")
    }

    /// A provider error whose text echoes the request (a URL with the coordinates) is logged
    /// with the coordinates at journal precision, followed by the back-off entry.
    @Test func aFailureIsLoggedWithACoarsePositionAndItsBackOff() async throws {
        let log = CapturedLog()
        let running = start(
            .denied, minInterval: .seconds(10), maxAge: .seconds(60),
            fallback: .coordinate(Coordinate(latitude: 59.9139, longitude: 10.7522)), logger: log.logger)
        try await provider.waitForRequests(1)
        let error = WeatherError.transport(
            code: 7, message: "Failed to connect to api.example: /v1/forecast?latitude=59.91&longitude=10.75")
        provider.answerNext(with: .failure(error))
        await running.state("offline") { $0.status == .offline }
        try await clock.waitForSleeper(until: clock.at(.seconds(5)))
        await running.stop()

        let failed = Self.entries(log, MessageID.fetchFailed)
        #expect(failed.count == 1)
        #expect(
            failed.first?.message.contains("latitude=59.9&longitude=10.8") == true, "\(failed.first?.message ?? "")")
        #expect(failed.first?.field("WUNDERCAST_PROVIDER") == "scripted")
        let backOff = Self.entries(log, MessageID.backOff)
        #expect(backOff.count == 1)
        #expect(backOff.first?.field("WUNDERCAST_RETRY_MS") == "5000")
        #expect(backOff.first?.field("WUNDERCAST_ERROR") == "connect")
        #expect(!log.texts.contains { $0.contains("59.91") || $0.contains("10.75") }, "\(log.texts)")
    }
}

@Suite struct FixCurrencyTests {
    static let noFix = WeatherState.ErrorInfo(code: "no-fix", message: "no GPS fix for more than 2min")
    static let unreachable = WeatherState.ErrorInfo(code: "gpsd-unreachable", message: "lost gpsd")

    @Test func changesOnlyOnTransitions() {
        var currency = FixCurrency()
        #expect(currency.update(WeatherState.ErrorInfo(code: "no-fix", message: "no GPS fix yet")) == nil)
        #expect(currency.update(nil) == .acquired)
        #expect(currency.update(nil) == nil)
        #expect(currency.update(Self.noFix) == .lost)
        #expect(currency.update(Self.noFix) == nil)
        #expect(currency.update(nil) == .acquired)
    }

    /// A session that takes over a current position (a reload to another gpsd, a change of
    /// authorization) acquired nothing: no entry until the position is lost.
    @Test func aSessionTakingOverACurrentPositionAcquiredNothing() {
        var currency = FixCurrency(current: true)
        #expect(currency.update(nil) == nil)
        #expect(currency.update(Self.noFix) == .lost)
    }

    /// gpsd gone or the receiver gone end the currency with entries of their own: no "lost"
    /// here, but the next fix is "acquired" again.
    @Test func otherProblemsEndItSilently() {
        var currency = FixCurrency()
        _ = currency.update(nil)
        #expect(currency.update(Self.unreachable) == nil)
        #expect(currency.update(Self.noFix) == nil)
        #expect(currency.update(nil) == .acquired)
    }
}
