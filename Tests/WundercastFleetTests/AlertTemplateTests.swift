import Foundation
import Testing
import WundercastFleet
import WundercastModel
import WundercastSupport
import WundercastTestSupport

/// The alert entities' templates rendered by Jinja2 itself (Debian's python3-jinja2, the engine
/// Home Assistant renders them with) on the state messages of each case: on while an alert is in
/// force, off only when the source answered with none, unknown when nothing is known.
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), "needs python3-jinja2"))
struct AlertTemplateTests {
    static let warning = Alert(
        id: "w", source: .nws, authority: "NWS Phoenix AZ", event: "Excessive Heat Warning", severity: .severe)

    static let cases: [(String, AlertsState?, active: String, count: String)] = [
        ("in force", AlertsState(source: .nws, status: .ok, items: [warning, warning]), "ON", "2"),
        ("none in force", AlertsState(source: .nws, status: .ok, items: []), "OFF", "0"),
        (
            "source down, one known",
            AlertsState(
                source: .nws, status: .unavailable, items: [warning],
                error: .init(code: "alerts-unavailable", message: "x")),
            "ON", "None"
        ),
        (
            "source down, none known",
            AlertsState(
                source: .nws, status: .unavailable, error: .init(code: "alerts-unavailable", message: "x")),
            "None", "None"
        ),
        ("uncovered", .uncovered, "None", "None"),
        ("alerts off", nil, "None", "None"),
    ]

    @Test func jinjaRendersTheTruth() async throws {
        let payload = try JSONValue(payload: FleetSamples.discovery().message.payload)
        let components = try #require(payload["components"])
        let active = try #require(components["weather_alert"]?["value_template"]?.string)
        let count = try #require(components["alert_count"]?["value_template"]?.string)
        #expect(components["weather_alert"]?["platform"]?.string == "binary_sensor")
        #expect(components["weather_alert"]?["device_class"]?.string == "safety")
        var payloads: [String] = []
        for (_, alerts, _, _) in Self.cases {
            var state = FleetSamples.fullState()
            state.alerts = alerts
            payloads.append(String(decoding: try FleetSamples.topics().stateMessage(state).payload, as: UTF8.self))
        }
        let request = try JSONSerialization.data(withJSONObject: [
            "templates": ["active": active, "count": count], "payloads": payloads,
        ])
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("jinja-\(UUID().uuidString).json")
        try request.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try await runProcess(
            "/usr/bin/python3", [Fixtures.tools.appendingPathComponent("render_jinja.py").path, file.path])
        try #require(result.status == 0, "\(result.stderr)")
        let rendered = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: [String]])
        for (index, (name, _, expectedActive, expectedCount)) in Self.cases.enumerated() {
            #expect(rendered["active"]?[index] == expectedActive, "\(name): \(rendered["active"]?[index] ?? "-")")
            #expect(rendered["count"]?[index] == expectedCount, "\(name): \(rendered["count"]?[index] ?? "-")")
        }
    }
}
