import Foundation
import Testing
import WundercastModel
import WundercastTestSupport

/// The recorded alert answers (`Tests/Fixtures/alerts/`, origins in its README) and the edits the
/// tests make of them: every edited body is a recorded one with named members changed in code.
enum AlertRecordings {
    static let phoenix = "alerts/nws/active_point_phoenix_2024-07-18.json"
    static let portland = "alerts/nws/active_zone_portland_update_2019-12-20.json"
    static let problem = "alerts/nws/problem_500_unexpected_problem.json"
    static let muenster = "alerts/brightsky/alerts_muenster_wind_gusts.json"
    static let rain = "alerts/brightsky/alerts_weiherhammer_persistent_rain.json"
    static let heat = "alerts/brightsky/alerts_weiherhammer_strong_heat.json"
    static let none = "alerts/brightsky/alerts_weiherhammer_none.json"

    /// The recording `file` as JSON, changed by `edit`, serialised again.
    static func edited(_ file: String, _ edit: (inout [String: Any]) throws -> Void) throws -> [UInt8] {
        var json = try #require(try JSONSerialization.jsonObject(with: Data(Fixtures.bytes(file))) as? [String: Any])
        try edit(&json)
        return [UInt8](try JSONSerialization.data(withJSONObject: json))
    }

    /// The recording `file` with member `key` of its `list` entry `index` set to `value` (`nil`
    /// removes it); `member` names the object inside the entry that holds `key` (NWS:
    /// `properties`), `nil` for the entry itself (Bright Sky).
    static func entry(
        _ file: String, list: String, _ index: Int, member: String?, _ key: String, _ value: Any?
    ) throws -> [UInt8] {
        try edited(file) { json in
            var entries = try #require(json[list] as? [[String: Any]])
            if let member {
                var inner = try #require(entries[index][member] as? [String: Any])
                inner[key] = value
                entries[index][member] = inner
            } else {
                entries[index][key] = value
            }
            json[list] = entries
        }
    }

    /// An instant written in UTC, read by Foundation (not by the decoder under test).
    static func utc(_ text: String) throws -> Date {
        try Date(text, strategy: .iso8601)
    }

    /// The message of the ``WeatherError/decoding(message:)`` that `decode` throws; the error's
    /// description for any other error, `nil` when it succeeds.
    static func decodingError(_ decode: () throws(WeatherError) -> [Alert]) -> String? {
        do {
            _ = try decode()
            return nil
        } catch {
            if case .decoding(let message) = error { return message }
            return "\(error)"
        }
    }

    /// The error `decode` throws, `nil` when it succeeds.
    static func error(_ decode: () throws(WeatherError) -> [Alert]) -> WeatherError? {
        do {
            _ = try decode()
            return nil
        } catch {
            return error
        }
    }

    /// Text hostile to a terminal and a status bar: HTML with entities, a bell, an escape
    /// sequence, a NUL, a line and paragraph separator.
    static let hostile =
        "<p>Flash&nbsp;flood <b>warning</b> &amp; <script>x</script>\u{7}\u{1B}[31mred\u{0}\u{2028}end</p>"
}
