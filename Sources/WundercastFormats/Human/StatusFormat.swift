#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WundercastSupport
import WundercastProtocol

/// `wundercastctl status` in plain text: several human lines from a `STATUS` object, e.g.
///
///     wundercastd 0.1.0 (protocol 1), up 2 h
///     weather: fresh from open-meteo
///     gpsd: 127.0.0.1:2947, connected, device /dev/ttyUSB0
///     fix: 3D, 4 s old
///     GPS authorization: always
///     saved decision /var/lib/wundercast/authorization cannot be read (the file is empty): counted as denied until `wundercastctl authorize` replaces it
///     last error: http-500: HTTP 500 (5 min ago)
///     mqtt: mqtts://broker.lan:8883, connected for 2 h, 412 messages sent
///     requests 12 (1 failed), lookups 3, clients 2 (1 watching)
public enum StatusFormat {
    /// The lines (each with its newline) for `status` as seen at wall-clock `now` (for the
    /// age of the last error).
    public static func text(_ status: SocketProtocol.StatusResponse, now: Date) -> String {
        func clean(_ text: String, _ limit: Int = 100) -> String { UntrustedText.sanitized(text, limit: limit) }
        var lines: [String] = []
        lines.append(
            "wundercastd \(clean(status.release, 40)) (protocol \(status.proto)), up \(HumanFormat.spanText(max(0, status.uptimeSeconds)))"
        )
        lines.append("weather: \(status.state.rawValue) from \(clean(status.provider, 40))")
        var gpsd = "gpsd: \(clean(status.gpsd.server)), " + (status.gpsd.connected ? "connected" : "not connected")
        if let device = status.gpsd.device { gpsd += ", device \(clean(device))" }
        lines.append(gpsd)
        if let fix = status.fix {
            let mode = fix.mode.map { $0 >= 3 ? "3D" : "\($0)D" } ?? "fix"
            lines.append("fix: \(mode), \(HumanFormat.spanText(max(0, fix.ageSeconds))) old")
        } else {
            lines.append("fix: none yet")
        }
        lines.append("GPS authorization: \(status.authorization.configName)")
        if let unreadable = status.unreadableDecision {
            lines.append(
                "saved decision \(clean(unreadable.path)) cannot be read (\(clean(unreadable.reason))): counted as denied until `wundercastctl authorize` replaces it"
            )
        }
        if let error = status.lastError {
            let age = max(0, Int(now.timeIntervalSince(error.at).rounded(.down)))
            let cleared = error.clearedAt.map {
                ", cleared \(HumanFormat.ageText(max(0, Int(now.timeIntervalSince($0).rounded(.down)))))"
            }
            lines.append(
                "last error: \(clean(error.code, 40)): \(clean(error.message, 200)) (\(HumanFormat.ageText(age))\(cleared ?? ""))"
            )
        }
        if let mqtt = status.mqtt {
            var line = "mqtt: \(clean(mqtt.broker)), " + (mqtt.connected ? "connected" : "not connected")
            if let since = mqtt.since {
                line += " for \(HumanFormat.spanText(max(0, Int(now.timeIntervalSince(since).rounded(.down)))))"
            }
            line += ", \(mqtt.messagesSent) messages sent"
            if let error = mqtt.lastError { line += "; last error: \(clean(error, 200))" }
            lines.append(line)
        }
        let c = status.counters
        lines.append(
            "requests \(c.requests) (\(c.failures) failed), lookups \(c.lookups), clients \(c.clients) (\(c.watchers) watching)"
        )
        return lines.map { $0 + "\n" }.joined()
    }
}
