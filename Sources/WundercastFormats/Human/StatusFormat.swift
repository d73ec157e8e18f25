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
///     mqtt: mqtt://broker.lan:8883, connected for 2 h, 412 messages sent
///     requests 12 (1 failed), lookups 3, clients 2 (1 watching)
///
/// in `locale`'s words; what the daemon reports as it is (addresses, paths, error codes and
/// their raw messages, the authorization's configuration word).
public enum StatusFormat {
    /// The lines (each with its newline) for `status` as seen at wall-clock `now` (for the
    /// age of the last error).
    public static func text(
        _ status: SocketProtocol.StatusResponse, now: Date, locale: UserLocale = .english
    ) -> String {
        func clean(_ text: String, _ limit: Int = 100) -> String { UntrustedText.sanitized(text, limit: limit) }
        func since(_ date: Date) -> Int { max(0, Int(now.timeIntervalSince(date).rounded(.down))) }
        var lines: [String] = []
        lines.append(
            locale.tr(
                "wundercastd {release} (protocol {protocol}), up {span}",
                [
                    "release": clean(status.release, 40), "protocol": String(status.proto),
                    "span": HumanFormat.spanText(max(0, status.uptimeSeconds), locale),
                ]))
        lines.append(
            locale.tr(
                "weather: {status} from {provider}",
                ["status": HumanFormat.statusName(status.state, locale), "provider": clean(status.provider, 40)]))
        var gpsd = [
            "gpsd: " + clean(status.gpsd.server),
            status.gpsd.connected ? locale.tr("connected") : locale.tr("not connected"),
        ]
        if let device = status.gpsd.device { gpsd.append(locale.tr("device {device}", ["device": clean(device)])) }
        lines.append(gpsd.joined(separator: ", "))
        if let fix = status.fix {
            let mode = fix.mode.map { $0 >= 3 ? "3D" : "\($0)D" } ?? locale.tr("fix")
            lines.append(
                locale.tr(
                    "fix: {mode}, {span} old",
                    ["mode": mode, "span": HumanFormat.spanText(max(0, fix.ageSeconds), locale)]))
        } else {
            lines.append(locale.tr("fix: none yet"))
        }
        lines.append(locale.tr("GPS authorization: {status}", ["status": status.authorization.configName]))
        if let unreadable = status.unreadableDecision {
            lines.append(
                locale.tr(
                    "saved decision {path} cannot be read ({reason}): counted as denied until `wundercastctl authorize` replaces it",
                    ["path": clean(unreadable.path), "reason": clean(unreadable.reason)]))
        }
        if let error = status.lastError {
            var values = [
                "code": clean(error.code, 40), "message": clean(error.message, 200),
                "age": HumanFormat.ageText(since(error.at), locale),
            ]
            if let cleared = error.clearedAt {
                values["cleared"] = HumanFormat.ageText(since(cleared), locale)
                lines.append(locale.tr("last error: {code}: {message} ({age}, cleared {cleared})", values))
            } else {
                lines.append(locale.tr("last error: {code}: {message} ({age})", values))
            }
        }
        if let mqtt = status.mqtt {
            var parts = ["mqtt: " + clean(mqtt.broker)]
            if !mqtt.connected {
                parts.append(locale.tr("not connected"))
            } else if let connected = mqtt.since {
                parts.append(
                    locale.tr("connected for {span}", ["span": HumanFormat.spanText(since(connected), locale)]))
            } else {
                parts.append(locale.tr("connected"))
            }
            parts.append(locale.trn("{n} message sent", "{n} messages sent", mqtt.messagesSent))
            var line = parts.joined(separator: ", ")
            if let error = mqtt.lastError {
                line += "; " + locale.tr("last error: {error}", ["error": clean(error, 200)])
            }
            lines.append(line)
        }
        let c = status.counters
        lines.append(
            locale.tr(
                "requests {requests} ({failures} failed), lookups {lookups}, clients {clients} ({watchers} watching)",
                [
                    "requests": String(c.requests), "failures": String(c.failures), "lookups": String(c.lookups),
                    "clients": String(c.clients), "watchers": String(c.watchers),
                ]))
        return lines.map { $0 + "\n" }.joined()
    }
}
