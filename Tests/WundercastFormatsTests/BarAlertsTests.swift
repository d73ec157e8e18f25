import Foundation
import Testing
import WundercastFormats
import WundercastModel
import WundercastTestSupport

/// Official alerts in the bars: the class, the urgency, i3blocks' exit status, `{alert}` and the
/// tooltip — and the derived "severe" (from the condition) never shown as an official alert.
@Suite struct BarAlertsTests {
    let now = SampleStates.now

    static func alert(_ severity: Alert.Severity, event: String = "Sturmböen") -> Alert {
        Alert(
            id: "dwd-\(severity.rawValue)", source: .brightSky, authority: "Deutscher Wetterdienst", event: event,
            severity: severity, expires: SampleStates.now + 3600)
    }

    static func state(code: Int = 3, alerts: AlertsState?) -> WeatherState {
        var state = SampleStates.weather(code: code)
        state.alerts = alerts
        return state
    }

    @Test(arguments: [
        (Alert.Severity.extreme, ["alert", "alert-extreme"], Int32(33)),
        (.severe, ["alert", "alert-severe"], 33),
        (.moderate, ["alert", "alert-moderate"], 0),
        (.minor, ["alert"], 0),
        (.unknown, ["alert"], 0),
    ])
    func anOfficialAlertGivesItsClassesAndSevereOnesAreUrgent(
        severity: Alert.Severity, classes: [String], exit: Int32
    ) {
        let state = Self.state(alerts: AlertsState(source: .brightSky, status: .ok, items: [Self.alert(severity)]))
        let item = BarItem(state: state, now: now)
        #expect(Array(item.classes.suffix(classes.count)) == classes, "\(item.classes)")
        #expect(!item.classes.contains("severe"), "overcast is not severe weather")
        #expect(I3blocksFormat.exitStatus(item) == exit)
        #expect(item.urgency == (exit == 33 ? .critical : .warning))
        #expect(
            item.tooltip.first?.hasPrefix("⚠ \(severity.rawValue): Sturmböen (Deutscher Wetterdienst) until ") == true)
        let template = try! Template("{temperature}{unit} {alert}")
        #expect(BarItem(state: state, now: now, template: template).text == "-5°C Sturmböen")
    }

    /// A thunderstorm is severe by its WMO code, which no authority issued: class `severe` and
    /// i3blocks' 33 as before, but no `alert` class, no alert line, an empty `{alert}`.
    @Test func derivedSevereWeatherIsNeverAnOfficialAlert() throws {
        let state = Self.state(code: 95, alerts: AlertsState(source: .brightSky, status: .ok, items: []))
        let item = BarItem(state: state, now: now, template: try Template("{alert}|{condition}"))
        #expect(item.classes.contains("severe"))
        #expect(!item.classes.contains { $0.hasPrefix("alert") }, "\(item.classes)")
        #expect(!item.tooltip.contains { $0.hasPrefix("⚠") }, "\(item.tooltip)")
        #expect(item.text.hasPrefix("|"), "no alert: \(item.text)")
        #expect(I3blocksFormat.exitStatus(item) == 33)
    }

    /// A source that does not answer is visible: its class and a tooltip line; the alerts known
    /// before stay shown.
    @Test func anUnavailableSourceIsVisible() {
        let unavailable = AlertsState(
            source: .nws, status: .unavailable, items: [Self.alert(.moderate, event: "Wind Advisory")],
            error: .init(code: "alerts-unavailable", message: "nws: HTTP 503"))
        let item = BarItem(state: Self.state(alerts: unavailable), now: now)
        #expect(item.classes.contains("alerts-unavailable"))
        #expect(item.classes.contains("alert-moderate"))
        #expect(
            item.tooltip.contains("Alerts unavailable: no usable answer from the alert source (nws)"), "\(item.tooltip)"
        )
        let none = BarItem(
            state: Self.state(
                alerts: AlertsState(
                    source: .nws, status: .unavailable,
                    error: .init(code: "alerts-unavailable", message: "nws: timeout"))),
            now: now)
        #expect(none.classes.contains("alerts-unavailable") && !none.classes.contains("alert"))
        #expect(none.urgency == .idle, "weather fresh, no alert known")
    }

    @Test func theTooltipListsThreeAlertsThenCountsTheRest() {
        let items = (1...5).map { Self.alert(.minor, event: "Frost \($0)") }
        let item = BarItem(
            state: Self.state(alerts: AlertsState(source: .brightSky, status: .ok, items: items)), now: now)
        #expect(item.tooltip.filter { $0.hasPrefix("⚠") }.count == 3)
        #expect(item.tooltip.contains("+ 2 more alerts"))
    }
}

/// Error reasons in human text are short sentences chosen by the code; the raw detail (libcurl's
/// text, a provider's) stays in --json, status and the journal.
@Suite struct HumanErrorTests {
    @Test func aKnownCodeIsASentenceAndTheRawTextStaysOut() {
        let raw = WeatherState.ErrorInfo(
            code: "dns", message: "Could not resolve host: api.open-meteo.com (curl 6: Couldn't resolve host name)")
        #expect(HumanError.text(raw) == "cannot find the weather provider (name lookup failed)")
        #expect(HumanError.text(.init(code: "http-503", message: "HTTP 503 Service Unavailable")).contains("HTTP 503"))
        #expect(
            HumanError.text(.init(code: "timeout", message: "Operation timed out after 10001 ms"))
                == "the weather provider did not answer in time")
    }

    @Test func anUnknownCodeIsCutAtAWordBoundary() {
        let long = String(repeating: "weather provider answer ", count: 20)
        let text = HumanError.text(.init(code: "something-new", message: long))
        #expect(text.count <= HumanError.limit)
        #expect(text.hasSuffix("answer…") || text.hasSuffix("provider…") || text.hasSuffix("weather…"), "\(text)")
        #expect(HumanError.cut("short", to: 80) == "short")
    }
}
