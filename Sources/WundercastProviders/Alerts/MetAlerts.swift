#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WundercastSupport
import WundercastModel

/// MET Norway's MetAlerts 2.0, GeoJSON form (`GET /weatherapi/metalerts/2.0/current.json`): the
/// alerts in force whose area covers a point. MET filters by the point; nothing is filtered here.
///
/// The answer is a `FeatureCollection`; each feature has `geometry`, `properties` and
/// `when.interval` `[start, end]`, and the collection has `lang` (`"no"` or `"en"`) and
/// `lastChange`. ``Alert`` members and their source (`properties.` unless said):
/// - `id` ← `id` (the CAP identifier, `2.49.0.1.578.0.20250604171130.040`)
/// - `event` ← `eventAwarenessName` (`Kuling`, `Gale`), else the event code `event` (`gale`)
/// - `authority` ← ``authority`` (the answer names no sender)
/// - `severity` ← `severity` (CAP: `Moderate`, `Severe`, `Extreme`; another word or none:
///   ``Alert/Severity/unknown``); `level` ← `awareness_level` as given (`2; yellow; Moderate`)
/// - `certainty` ← `certainty` (CAP; another word: ``Alert/Certainty/unknown``)
/// - `messageType` ← `type` (`Alert`, `Update`, `Cancel`; missing or another word: `alert`)
/// - `onset` ← `when.interval[0]`; `expires` ← `when.interval[1]`
/// - `headline` ← `title`; `description` ← `description`; `instruction` ← `instruction`;
///   `areaDescription` ← `area`; `link` ← `web` (only an `http(s)` URL)
/// - `language` ← the collection's `lang`, the language the texts are in
/// - none: `urgency`, `sent`, `references` (not in the GeoJSON form). Ignored: `consequences`,
///   `geographicDomain`, `riskMatrixColor`, `awareness_type`, `county`, `resources`, `contact`.
///
/// A feature without `id` or without both `eventAwarenessName` and `event`, or with
/// `status` `Test` (MET's dummy data), is skipped. Every text passes
/// ``AlertText/clean(_:limit:)`` with its ``Alert/Limit``.
///
/// MET's terms (kept in the provider that fetches, not here): an identifying `User-Agent` with a
/// contact, `If-Modified-Since`, no polling faster than needed; the GeoJSON form is a beta that
/// MET calls "not suitable for high volume production".
public enum MetAlerts {
    /// Who issues MetAlerts (CAP `senderName` of MET's CAP files).
    public static let authority = "Meteorologisk institutt"
    /// The path below the base URL.
    public static let basePath = "/weatherapi/metalerts/2.0/current.json"
    /// MET refuses more decimals in coordinates.
    public static let maxCoordinateDecimals = 4

    /// `/weatherapi/metalerts/2.0/current.json?lat=…&lon=…&lang=en`: coordinates with at most
    /// 4 decimals, texts asked for in English (MET's default is Norwegian).
    public static func path(at point: Coordinate) -> String {
        let lat = Coordinate.text(point.latitude, decimals: maxCoordinateDecimals)
        let lon = Coordinate.text(point.longitude, decimals: maxCoordinateDecimals)
        return "\(basePath)?lat=\(lat)&lon=\(lon)&lang=en"
    }

    /// The alerts of one answer, in the answer's order.
    ///
    /// - Throws: ``WeatherError/http(status:reason:retryAfter:)`` for a status outside 200–299,
    ///   ``WeatherError/notJSON(status:bytes:contentType:)`` when the body is not JSON,
    ///   ``WeatherError/decoding(message:)`` naming the member (`features[2].properties.title`)
    ///   when the body is not an object with a `features` array, a feature is not an object, or
    ///   a member has the wrong type or an unreadable time.
    public static func decode(status: Int, body: [UInt8], contentType: String?) throws(WeatherError) -> [Alert] {
        let (root, features) = try AlertDecoding.featureCollection(status: status, body: body, contentType: contentType)
        let language = try AlertDecoding.text(root["lang"], path: "lang", limit: Alert.Limit.language)
        var alerts: [Alert] = []
        for (index, feature) in features.enumerated() {
            if let alert = try alert(feature, path: "features[\(index)]", language: language) {
                alerts.append(alert)
            }
        }
        return alerts
    }

    static func alert(_ feature: JSONValue, path: String, language: String?) throws(WeatherError) -> Alert? {
        guard let members = try ProviderDecoding.object(feature, name: path) else {
            throw .decoding(message: "\(path) is null, expected an object")
        }
        let properties = try ProviderDecoding.object(members["properties"], name: "\(path).properties") ?? [:]
        let p = "\(path).properties"
        func text(_ key: String, _ limit: Int) throws(WeatherError) -> String? {
            try AlertDecoding.text(properties[key], path: "\(p).\(key)", limit: limit)
        }
        let name = try text("eventAwarenessName", Alert.Limit.event)
        let code = try text("event", Alert.Limit.event)
        guard let id = try text("id", Alert.Limit.id), let event = name ?? code else { return nil }
        if try text("status", 20)?.lowercased() == "test" { return nil }
        let (onset, expires) = try interval(members["when"], path: "\(path).when")
        return Alert(
            id: id, source: .metAlerts, authority: authority, event: event,
            severity: try text("severity", 20).flatMap(Alert.Severity.init(cap:)) ?? .unknown,
            level: try text("awareness_level", Alert.Limit.level),
            certainty: try text("certainty", 20).map { Alert.Certainty(cap: $0) ?? .unknown },
            messageType: try text("type", 20).flatMap(Alert.MessageType.init(cap:)) ?? .alert,
            onset: onset, expires: expires,
            headline: try text("title", Alert.Limit.headline),
            description: try text("description", Alert.Limit.description),
            instruction: try text("instruction", Alert.Limit.instruction),
            areaDescription: try text("area", Alert.Limit.areaDescription),
            link: AlertDecoding.link(try text("web", Alert.Limit.link)),
            language: language)
    }

    /// `when.interval`: `[start, end]`, either may be missing or `null`.
    static func interval(_ when: JSONValue?, path: String) throws(WeatherError) -> (Date?, Date?) {
        guard let members = try ProviderDecoding.object(when, name: path) else { return (nil, nil) }
        switch members["interval"] {
        case nil, .null?: return (nil, nil)
        case .array(let times)?:
            let start = try AlertDecoding.date(times.first, path: "\(path).interval[0]")
            let end = times.count > 1 ? try AlertDecoding.date(times[1], path: "\(path).interval[1]") : nil
            return (start, end)
        case let other?: throw .decoding(message: "\(path).interval is \(other.kind), expected an array")
        }
    }
}
