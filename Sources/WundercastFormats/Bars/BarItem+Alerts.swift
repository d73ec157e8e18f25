#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WundercastSupport
import WundercastModel

extension BarItem {
    /// The most alerts the tooltip lists (`wundercastctl alerts` shows them all).
    static let tooltipAlerts = 3

    /// The tooltip's first lines: each official alert in force, most severe first
    /// (`⚠ Severe: Winter Storm Warning (NWS Anchorage AK) until 06:00 UTC`), `+ 2 more alerts`,
    /// and what the source said when it failed (`Alerts unavailable: nws: HTTP 503`). Nothing
    /// while the source answered with none, or no source covers the position.
    static func alertLines(_ alerts: AlertsState?) -> [String] {
        guard let alerts else { return [] }
        var lines: [String] = []
        let items = alerts.items ?? []
        for alert in items.prefix(tooltipAlerts) {
            var line = "⚠ \(alert.severity.rawValue): \(UntrustedText.sanitized(alert.event, limit: 60))"
            line += " (\(UntrustedText.sanitized(alert.authority, limit: 60)))"
            if let expires = alert.expires { line += " until \(Self.utcTime(expires))" }
            lines.append(line)
        }
        if items.count > tooltipAlerts { lines.append("+ \(items.count - tooltipAlerts) more alerts") }
        if alerts.status == .unavailable {
            lines.append(
                "Alerts unavailable: no usable answer from the alert source (\(alerts.source?.rawValue ?? "?"))")
        }
        return lines
    }

    /// `2024-01-10 06:00 UTC`.
    static func utcTime(_ date: Date) -> String {
        let text = date.formatted(.iso8601)  // 2024-01-10T06:00:00Z
        return String(text.prefix(10)) + " " + String(text.dropFirst(11).prefix(5)) + " UTC"
    }
}
