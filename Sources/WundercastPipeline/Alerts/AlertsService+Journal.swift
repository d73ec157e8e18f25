#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WundercastSupport
import WundercastModel

extension AlertsService {
    /// One journal entry per alert issued, updated and ended, with its own `MESSAGE_ID`
    /// (``MessageID/alertIssued``, ``MessageID/alertUpdated``, ``MessageID/alertEnded``) and
    /// the alert's fields: `WUNDERCAST_ALERT_ID`, `_SOURCE`, `_SEVERITY` (CAP), `_EVENT`,
    /// `_AUTHORITY`, `_ONSET` and `_EXPIRES` (ISO 8601, when given), `_LEVEL` (the authority's
    /// own, when given), and for an end `WUNDERCAST_ALERT_END` (`expired`, `cancelled`,
    /// `no-longer-listed`). Severe and Extreme alerts are issued at warning priority, the others
    /// at notice.
    func journal(_ events: [AlertBook.Event]) {
        for event in events {
            switch event {
            case .issued(let alert):
                logger.log(
                    alert.severity <= .severe ? .warning : .notice,
                    "alert issued: \(Self.summary(alert))",
                    fields: [("MESSAGE_ID", MessageID.alertIssued)] + Self.fields(alert))
            case .updated(let alert, let replacing):
                logger.log(
                    alert.severity <= .severe ? .warning : .notice,
                    "alert updated: \(Self.summary(alert))",
                    fields: [("MESSAGE_ID", MessageID.alertUpdated), ("WUNDERCAST_ALERT_REPLACES", replacing)]
                        + Self.fields(alert))
            case .ended(let alert, let reason):
                logger.log(
                    .notice, "alert ended (\(reason.rawValue)): \(Self.summary(alert))",
                    fields: [("MESSAGE_ID", MessageID.alertEnded), ("WUNDERCAST_ALERT_END", reason.rawValue)]
                        + Self.fields(alert))
            }
        }
    }

    /// `Severe Winter Storm Warning (NWS Anchorage AK) for Anchorage, until 2024-01-10T06:00:00Z`:
    /// the area makes alerts of one event for several areas entries of their own (the journal's
    /// repeat limit takes entries that differ only in numbers as one).
    static func summary(_ alert: Alert) -> String {
        var text = "\(alert.severity.rawValue) \(alert.event) (\(alert.authority))"
        if let area = alert.areaDescription { text += " for \(UntrustedText.sanitized(area, limit: 120))" }
        if let expires = alert.expires { text += ", until \(expires.formatted(.iso8601))" }
        return text
    }

    static func fields(_ alert: Alert) -> [(String, String)] {
        var fields = [
            ("WUNDERCAST_ALERT_ID", alert.id), ("WUNDERCAST_ALERT_SOURCE", alert.source.rawValue),
            ("WUNDERCAST_ALERT_SEVERITY", alert.severity.rawValue), ("WUNDERCAST_ALERT_EVENT", alert.event),
            ("WUNDERCAST_ALERT_AUTHORITY", alert.authority),
        ]
        if let onset = alert.onset { fields.append(("WUNDERCAST_ALERT_ONSET", onset.formatted(.iso8601))) }
        if let expires = alert.expires { fields.append(("WUNDERCAST_ALERT_EXPIRES", expires.formatted(.iso8601))) }
        if let level = alert.level { fields.append(("WUNDERCAST_ALERT_LEVEL", level)) }
        return fields
    }
}
