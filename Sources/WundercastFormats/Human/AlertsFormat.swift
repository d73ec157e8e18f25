#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WundercastSupport
import WundercastModel

/// `wundercastctl alerts`: every official alert in force at the daemon's position, in full
/// (headline, description, instruction, area, onset, expiry, link), most severe first; or why
/// there are none to show — the source answered with none, it did not answer, no source
/// covers the position, alerts are off. wundercast's words are `locale`'s; the alerts' own
/// texts are shown as the source wrote them. Every text is sanitized (no control characters,
/// bounded).
public enum AlertsFormat {
    public static func text(_ alerts: AlertsState?, now: Date, locale: UserLocale = .english) -> String {
        guard let alerts else { return locale.tr("Alerts are off ([Alerts] Sources=none).") + "\n" }
        let source = alerts.source?.rawValue ?? locale.tr("no source")
        var lines: [String] = []
        let answered =
            alerts.fetchedAt.map {
                " ("
                    + locale.tr(
                        "{source} answered {age}",
                        ["source": source, "age": HumanFormat.ageText(max(0, Int(now.timeIntervalSince($0))), locale)])
                    + ")"
            } ?? ""
        let items = alerts.items.map(AlertsState.ordered) ?? []
        switch alerts.status {
        case .uncovered:
            return locale.tr(
                "No alert source covers this position (wundercast asks NWS, MET Norway, DWD through Bright Sky and ECCC, by the country of the nearest city)."
            ) + "\n"
        case .ok where items.isEmpty:
            return locale.tr("No alerts in force") + answered + ".\n"
        case .ok:
            lines.append(locale.trn("{n} alert in force", "{n} alerts in force", items.count) + answered + ":")
        case .unavailable:
            // In words, as every human text (the source's raw reason is in --json and status).
            lines.append(BarItem.unavailableLine(source, locale) + ".")
            lines.append(
                items.isEmpty
                    ? locale.tr("No alert is known for this position; there may be some.")
                    : locale.tr("Known before, still in force (the list may be incomplete)") + answered + ":")
        }
        for alert in items { lines += [""] + block(alert, locale) }
        return lines.joined(separator: "\n") + "\n"
    }

    /// One alert's lines.
    static func block(_ alert: Alert, _ locale: UserLocale) -> [String] {
        func clean(_ text: String, _ limit: Int) -> String { UntrustedText.sanitized(text, limit: limit) }
        var level = BarItem.severityName(alert.severity, locale)
        if let own = alert.level { level += ", \(clean(own, Alert.Limit.level))" }
        var lines = [
            "⚠ \(clean(alert.event, Alert.Limit.event)) [\(level)] — \(clean(alert.authority, Alert.Limit.authority))"
        ]
        var when: [String] = []
        if let onset = alert.onset { when.append(locale.tr("from {time}", ["time": BarItem.utcTime(onset, locale)])) }
        if let expires = alert.expires {
            when.append(locale.tr("until {time}", ["time": BarItem.utcTime(expires, locale)]))
        }
        if !when.isEmpty { lines.append("  " + when.joined(separator: " ")) }
        if let area = alert.areaDescription {
            lines.append("  " + locale.tr("Area: {area}", ["area": clean(area, Alert.Limit.areaDescription)]))
        }
        if let headline = alert.headline { lines.append("  " + clean(headline, Alert.Limit.headline)) }
        if let description = alert.description { lines.append("  " + clean(description, Alert.Limit.description)) }
        if let instruction = alert.instruction {
            lines.append(
                "  "
                    + locale.tr(
                        "What to do: {instruction}", ["instruction": clean(instruction, Alert.Limit.instruction)]))
        }
        if let link = alert.link {
            lines.append("  " + locale.tr("More: {link}", ["link": clean(link, Alert.Limit.link)]))
        }
        return lines
    }
}
