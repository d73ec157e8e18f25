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
    /// (`⚠ Severe: Winter Storm Warning (NWS Anchorage AK) until 2024-01-10 06:00 UTC`),
    /// `+ 2 more alerts`, and that the source failed (`Alerts unavailable: no usable answer from
    /// the alert source (nws)`). Nothing while the source answered with none, or no source
    /// covers the position. In `locale`'s words and clock; the alert's own texts as the source
    /// wrote them.
    static func alertLines(_ alerts: AlertsState?, _ locale: UserLocale) -> [String] {
        guard let alerts else { return [] }
        var lines: [String] = []
        let items = alerts.items ?? []
        for alert in items.prefix(tooltipAlerts) {
            let values: [String: String] = [
                "severity": severityName(alert.severity, locale),
                "event": UntrustedText.sanitized(alert.event, limit: 60),
                "authority": UntrustedText.sanitized(alert.authority, limit: 60),
                "time": alert.expires.map { utcTime($0, locale) } ?? "",
            ]
            lines.append(
                "⚠ "
                    + (alert.expires == nil
                        ? locale.tr("{severity}: {event} ({authority})", values)
                        : locale.tr("{severity}: {event} ({authority}) until {time}", values)))
        }
        if items.count > tooltipAlerts {
            lines.append(
                "+ " + locale.trn("{n} more alert", "{n} more alerts", items.count - tooltipAlerts))
        }
        if alerts.status == .unavailable { lines.append(unavailableLine(alerts.source?.rawValue ?? "?", locale)) }
        return lines
    }

    /// `Alerts unavailable: no usable answer from the alert source (nws)`.
    static func unavailableLine(_ source: String, _ locale: UserLocale) -> String {
        locale.tr("Alerts unavailable: no usable answer from the alert source ({source})", ["source": source])
    }

    /// CAP severity in words (`Severe`; German `Schwer`).
    static func severityName(_ severity: Alert.Severity, _ locale: UserLocale) -> String {
        switch severity {
        case .extreme: locale.trp("alert severity", "Extreme")
        case .severe: locale.trp("alert severity", "Severe")
        case .moderate: locale.trp("alert severity", "Moderate")
        case .minor: locale.trp("alert severity", "Minor")
        case .unknown: locale.trp("alert severity", "Unknown")
        }
    }

    /// `2024-01-10 06:00 UTC` (`2024-01-10 6:00 AM UTC` on a 12-hour clock).
    static func utcTime(_ date: Date, _ locale: UserLocale) -> String {
        let text = date.formatted(.iso8601)  // 2024-01-10T06:00:00Z
        return String(text.prefix(10)) + " " + locale.clock.text(date, utcOffsetSeconds: 0) + " UTC"
    }
}
