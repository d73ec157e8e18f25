#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WundercastSupport
import WundercastModel

/// The reads the alert decoders share (``NWSAlerts``, ``BrightSkyAlerts``): the body as a
/// ``JSONValue``, typed members that name their path in the ``WeatherError/decoding(message:)``
/// they throw, texts through ``AlertText/clean(_:limit:)``, and ISO 8601 instants with offsets.
enum AlertDecoding {
    /// `body` as JSON; ``WeatherError/notJSON(status:bytes:contentType:)`` when it is not JSON.
    static func document(_ body: [UInt8], status: Int, contentType: String?) throws(WeatherError) -> JSONValue {
        do {
            return try JSONDecoder().decode(JSONValue.self, from: Data(body))
        } catch {
            throw .notJSON(status: status, bytes: body.count, contentType: contentType)
        }
    }

    /// `value` as an object; `path` names it in the error.
    static func object(_ value: JSONValue, path: String) throws(WeatherError) -> [String: JSONValue] {
        guard case .object(let members) = value else {
            throw .decoding(message: "\(path) is \(value.kind), expected an object")
        }
        return members
    }

    /// The array `key` of `members`: missing or `null` throws, as does any other type.
    static func array(
        _ members: [String: JSONValue], _ key: String, path: String
    ) throws(WeatherError) -> [JSONValue] {
        switch members[key] {
        case .array(let entries)?: return entries
        case nil, .null?: throw .decoding(message: "missing member '\(path)\(key)'")
        case let other?: throw .decoding(message: "\(path)\(key) is \(other.kind), expected an array")
        }
    }

    /// `value` as a string; `nil` when missing or `null`; another type throws, naming `path`
    /// (the member's whole path, `features[2].properties.title`).
    static func string(_ value: JSONValue?, path: String) throws(WeatherError) -> String? {
        switch value {
        case nil, .null?: return nil
        case .string(let text)?: return text
        case let other?: throw .decoding(message: "\(path) is \(other.kind), expected a string")
        }
    }

    /// The string `key` of `members` as sent (``string(_:path:)``); `path` is the member's parent
    /// (`features[2].properties.`).
    static func string(
        _ members: [String: JSONValue], _ key: String, path: String
    ) throws(WeatherError) -> String? {
        try string(members[key], path: path + key)
    }

    /// `value` cleaned by ``AlertText/clean(_:limit:)`` (tags, entities and control characters
    /// removed, at most `limit` scalars); `nil` when missing, `null` or empty.
    static func text(_ value: JSONValue?, path: String, limit: Int) throws(WeatherError) -> String? {
        AlertText.clean(try string(value, path: path), limit: limit)
    }

    /// The string `key` of `members` cleaned (``text(_:path:limit:)``).
    static func text(
        _ members: [String: JSONValue], _ key: String, path: String, limit: Int
    ) throws(WeatherError) -> String? {
        try text(members[key], path: path + key, limit: limit)
    }

    /// `value` as an instant (``instant(_:)``); `nil` when missing, `null` or empty. Text that is
    /// not an ISO 8601 date-time with an offset throws, naming `path` and quoting at most 40
    /// characters of it.
    static func date(_ value: JSONValue?, path: String) throws(WeatherError) -> Date? {
        guard let text = try string(value, path: path), !text.isEmpty else { return nil }
        guard let date = instant(text) else {
            let shown = UntrustedText.sanitized(text, limit: 40)
            throw .decoding(message: "\(path) is \"\(shown)\", expected yyyy-MM-ddTHH:mm:ss±hh:mm")
        }
        return date
    }

    /// The instant `key` of `members` (``date(_:path:)``).
    static func date(
        _ members: [String: JSONValue], _ key: String, path: String
    ) throws(WeatherError) -> Date? {
        try date(members[key], path: path + key)
    }

    /// The features of a GeoJSON `FeatureCollection` answer (MetAlerts, ECCC):
    /// ``WeatherError/http(status:reason:retryAfter:)`` for a status outside 200–299,
    /// ``WeatherError/notJSON(status:bytes:contentType:)`` when the body is not JSON,
    /// ``WeatherError/decoding(message:)`` when it is not an object with a `features` array.
    static func featureCollection(
        status: Int, body: [UInt8], contentType: String?
    ) throws(WeatherError) -> (root: [String: JSONValue], features: [JSONValue]) {
        guard (200..<300).contains(status) else { throw .http(status: status, reason: nil, retryAfter: nil) }
        let document = try self.document(body, status: status, contentType: contentType)
        guard case .object(let root) = document else {
            throw .decoding(message: "body is \(document.kind), expected an object")
        }
        return (root, try array(root, "features", path: ""))
    }

    /// An ISO 8601 date-time with its offset: `2024-07-18T12:47:00-07:00`, `…+00:00`, `…Z`,
    /// also `±hhmm`, `z`, without seconds, or with a fraction of a second
    /// (``ISO8601Time/instant(_:variants:)`` with all its variants). `nil` for anything else
    /// (no offset, a 30 February, an hour 24, an offset beyond ±18 h).
    static func instant(_ text: String) -> Date? {
        ISO8601Time.instant(text, variants: .all)?.instant
    }

    /// `text` when it is an `http://` or `https://` URL without spaces, at most
    /// ``Alert/Limit/link`` scalars; else `nil`.
    static func link(_ text: String?) -> String? {
        guard let text, let clean = AlertText.clean(text, limit: Alert.Limit.link), clean == text,
            !clean.contains(" "),
            clean.lowercased().hasPrefix("https://") || clean.lowercased().hasPrefix("http://")
        else { return nil }
        return clean
    }
}
