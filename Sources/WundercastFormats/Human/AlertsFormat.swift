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
/// covers the position, alerts are off. Every text is sanitized (no control characters,
/// bounded).
public enum AlertsFormat {
    public static func text(_ alerts: AlertsState?, now: Date) -> String {
        guard let alerts else { return "Alerts are off ([Alerts] Sources=none).\n" }
        let source = alerts.source?.rawValue ?? "no source"
        var lines: [String] = []
        let answered =
            alerts.fetchedAt.map {
                " (\(source) answered \(HumanFormat.ageText(max(0, Int(now.timeIntervalSince($0))))))"
            } ?? ""
        let items = alerts.items.map(AlertsState.ordered) ?? []
        switch alerts.status {
        case .uncovered:
            return
                "No alert source covers this position (wundercast asks NWS, MET Norway, DWD through Bright Sky and ECCC, by the country of the nearest city).\n"
        case .ok where items.isEmpty:
            return "No alerts in force\(answered).\n"
        case .ok:
            lines.append("\(items.count) alert\(items.count == 1 ? "" : "s") in force\(answered):")
        case .unavailable:
            // In words, as every human text (the source's raw reason is in --json and status).
            lines.append("Alerts unavailable: no usable answer from the alert source (\(source)).")
            lines.append(
                items.isEmpty
                    ? "No alert is known for this position; there may be some."
                    : "Known before, still in force (the list may be incomplete)\(answered):")
        }
        for alert in items { lines += [""] + block(alert) }
        return lines.joined(separator: "\n") + "\n"
    }

    /// One alert's lines.
    static func block(_ alert: Alert) -> [String] {
        func clean(_ text: String, _ limit: Int) -> String { UntrustedText.sanitized(text, limit: limit) }
        var level = alert.severity.rawValue
        if let own = alert.level { level += ", \(clean(own, Alert.Limit.level))" }
        var lines = [
            "⚠ \(clean(alert.event, Alert.Limit.event)) [\(level)] — \(clean(alert.authority, Alert.Limit.authority))"
        ]
        var when: [String] = []
        if let onset = alert.onset { when.append("from \(BarItem.utcTime(onset))") }
        if let expires = alert.expires { when.append("until \(BarItem.utcTime(expires))") }
        if !when.isEmpty { lines.append("  " + when.joined(separator: " ")) }
        if let area = alert.areaDescription { lines.append("  Area: " + clean(area, Alert.Limit.areaDescription)) }
        if let headline = alert.headline { lines.append("  " + clean(headline, Alert.Limit.headline)) }
        if let description = alert.description { lines.append("  " + clean(description, Alert.Limit.description)) }
        if let instruction = alert.instruction {
            lines.append("  What to do: " + clean(instruction, Alert.Limit.instruction))
        }
        if let link = alert.link { lines.append("  More: " + clean(link, Alert.Limit.link)) }
        return lines
    }
}
