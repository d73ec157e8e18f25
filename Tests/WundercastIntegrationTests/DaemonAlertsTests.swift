import Foundation
import Testing
import WundercastModel
import WundercastTestSupport

@testable import WundercastServer

/// Official alerts in the real daemon: a position in Phoenix (`Fallback=`, the real city table
/// says US, so NWS is asked), NWS answered by a fixture server of its own with the recorded
/// Phoenix answer — its times moved to today (edited: whole days added, so its alerts are in
/// force on the machine's clock; nothing else changed).
@Suite(.serialized, .timeLimit(.minutes(3))) struct DaemonAlertsTests {
    static let phoenix = "33.45,-112.07"

    /// The recorded answer with every ISO 8601 instant moved by the whole days between its
    /// first `sent` and today.
    static func phoenixToday() throws -> String {
        let text = String(
            decoding: try Fixtures.bytes("alerts/nws/active_point_phoenix_2024-07-18.json"), as: UTF8.self)
        let pattern = try NSRegularExpression(
            pattern: #"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:[+-]\d{2}:\d{2}|Z)"#)
        let parser = ISO8601DateFormatter()
        let matches = pattern.matches(in: text, range: NSRange(text.startIndex..., in: text))
        let first = try #require(
            matches.first.flatMap { Range($0.range, in: text) }.flatMap { parser.date(from: String(text[$0])) })
        let days = (Date().timeIntervalSince(first) / 86_400).rounded(.down)
        var edited = text
        for match in matches.reversed() {
            let range = Range(match.range, in: edited)!
            guard let date = parser.date(from: String(edited[range])) else { continue }
            edited.replaceSubrange(range, with: parser.string(from: date + days * 86_400))
        }
        return edited
    }

    static func configuration(weather: FixtureHTTPServer, alerts: FixtureHTTPServer, cities: String) -> String {
        """
        [Location]
        Authorization=denied
        Fallback=\(phoenix)
        [Throttle]
        MinInterval=1s
        [Weather]
        URL=\(weather.baseURL)
        [Places]
        Cities=\(cities)
        OnlineGeocoding=no
        [Alerts]
        NWSURL=\(alerts.baseURL)
        """
    }

    /// The source is down at first: `alerts` says `unavailable` with the error while the
    /// weather is fresh, and the bars show `alerts-unavailable`; once it answers (after the
    /// test's 1 s back-off) the recorded warning is in the state, `wundercastctl alerts`, the
    /// bars (class, i3blocks' 33) and the journal.
    @Test func aRecordedWarningReachesEveryReaderAndAFailingSourceIsVisible() async throws {
        let cities = try await RealCityTable.image().path
        let weather = try await FixtureHTTPServer()
        defer { weather.stop() }
        let alerts = try await FixtureHTTPServer()
        defer { alerts.stop() }
        try alerts.respond(status: 503, body: #"{"title":"Service Unavailable","status":503}"#)
        let daemon = try await DaemonProcess(
            configuration: Self.configuration(weather: weather, alerts: alerts, cities: cities),
            environment: ["WUNDERCAST_TEST_ALERTS_BACKOFF": "1"])
        // Before its first answer the source is `unavailable` with "not asked yet"; the wait is
        // for the answer (the 503), which a loaded machine may give after the weather is fresh.
        let down = try await daemon.waitForState(timeout: .seconds(30), "alerts unavailable (503), weather fresh") {
            let alerts = $0["alerts"] as? [String: Any]
            let message = (alerts?["error"] as? [String: Any])?["message"] as? String
            return alerts?["status"] as? String == "unavailable" && message?.contains("503") == true
                && $0["status"] as? String == "fresh"
        }
        let error = try #require((down["alerts"] as? [String: Any])?["error"] as? [String: Any])
        #expect(error["code"] as? String == "alerts-unavailable")
        #expect((error["message"] as? String)?.contains("503") == true, "\(error)")
        #expect(down["error"] == nil, "the top-level error stays the weather's")
        let waybarDown = try await daemon.ctl("now", "--format", "waybar")
        #expect(waybarDown.stdout.contains("alerts-unavailable"), "\(waybarDown.stdout)")

        try alerts.respond(body: try Self.phoenixToday())
        let up = try await daemon.waitForState(timeout: .seconds(30), "the recorded warnings") {
            ($0["alerts"] as? [String: Any])?["status"] as? String == "ok"
        }
        let items = try #require((up["alerts"] as? [String: Any])?["items"] as? [[String: Any]])
        #expect(items.map { $0["event"] as? String } == ["Excessive Heat Warning", "Air Quality Alert"])
        #expect(items.first?["severity"] as? String == "Severe")
        #expect((up["alerts"] as? [String: Any])?["source"] as? String == "nws")
        let request = try #require(try alerts.requests().last)
        #expect(request.path == "/alerts/active")
        #expect(request.query["point"] == "33.45,-112.07", "the position at [Weather] Precision=")

        let text = try await daemon.ctl("alerts")
        #expect(text.status == 0)
        #expect(text.stdout.contains("2 alerts in force"), "\(text.stdout)")
        #expect(text.stdout.contains("⚠ Excessive Heat Warning [Severe] — NWS Phoenix AZ"), "\(text.stdout)")
        #expect(text.stdout.contains("Area: Northwest Valley; Buckeye/Avondale"), "\(text.stdout)")
        let json = try await daemon.ctl("alerts", "--json")
        #expect(json.stdout.hasPrefix(#"{"fetchedAt":"#), "\(json.stdout)")
        let waybar = try await daemon.ctl("now", "--format", "waybar")
        #expect(waybar.stdout.contains(#""alert","alert-severe""#), "\(waybar.stdout)")
        #expect(!waybar.stdout.contains("alerts-unavailable"), "\(waybar.stdout)")
        let i3blocks = try await daemon.ctl("now", "--format", "i3blocks")
        #expect(i3blocks.status == 33, "urgent for an official Severe warning")
        try await daemon.output.waitFor(containing: "alert issued: Severe Excessive Heat Warning (NWS Phoenix AZ)")
        #expect(await daemon.stop() == 0)
    }

    /// A position no source covers (Paris): `uncovered`, and no alert source is asked.
    @Test func aPositionNoSourceCoversIsUncovered() async throws {
        let cities = try await RealCityTable.image().path
        let weather = try await FixtureHTTPServer()
        defer { weather.stop() }
        let alerts = try await FixtureHTTPServer()
        defer { alerts.stop() }
        let daemon = try await DaemonProcess(
            configuration: Self.configuration(weather: weather, alerts: alerts, cities: cities)
                .replacingOccurrences(of: "Fallback=\(Self.phoenix)", with: "Fallback=48.86,2.35"))
        _ = try await daemon.waitForState(timeout: .seconds(30), "uncovered") {
            ($0["alerts"] as? [String: Any])?["status"] as? String == "uncovered" && $0["status"] as? String == "fresh"
        }
        let text = try await daemon.ctl("alerts")
        #expect(text.stdout.hasPrefix("No alert source covers this position"), "\(text.stdout)")
        #expect(try alerts.requests().isEmpty)
        #expect(await daemon.stop() == 0)
    }
}

/// The journal's weather entries (and `STATUS=`) follow the weather, not the alerts' fetch time:
/// the alerts have entries of their own.
@Suite struct PublisherJournalChangeTests {
    @Test func anAlertAnswerAloneIsNoWeatherChange() {
        var before = SampleStates.weather()
        before.alerts = AlertsState(source: .nws, status: .ok, items: [], fetchedAt: Date(timeIntervalSince1970: 1))
        var after = before
        after.alerts?.fetchedAt = Date(timeIntervalSince1970: 601)
        #expect(!Publisher.isJournalChange(from: before, to: after))
        after.status = .stale
        #expect(Publisher.isJournalChange(from: before, to: after))
    }

    /// The journal tells no Moon: a new day's Moon alone is no weather change.
    @Test func aNewMoonAloneIsNoWeatherChange() {
        let before = SampleStates.weather()
        var after = before
        after.moon = MoonDay(date: "2027-01-16", phase: MoonPhase(elongationFrom: 10, to: 20), illumination: 0.05)
        #expect(!Publisher.isJournalChange(from: before, to: after))
    }
}
