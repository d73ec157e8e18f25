#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WundercastSupport
import WundercastModel

/// Active alerts of the US National Weather Service for a point: `GET /alerts/active?point=LAT,LON`
/// on `https://api.weather.gov` (``AlertSourceID/nws``), answered as GeoJSON
/// (`application/geo+json`): a `FeatureCollection` whose `features[].properties` carry the CAP
/// fields. Errors come as `application/problem+json` (`type`, `title`, `status`, `detail`).
///
/// ``Alert`` members and their source, all in `features[i].properties`:
/// - `id` ← `id` (the CAP identifier, `urn:oid:2.49.0.1.840.0.…` or the older
///   `NWS-IDP-PROD-…`); `authority` ← `senderName` (`NWS Phoenix AZ`), else
///   `National Weather Service`; `event` ← `event` (`Excessive Heat Warning`)
/// - `severity` ← `severity` (``Alert/Severity/unknown`` when missing or not a CAP value);
///   `urgency` ← `urgency`, `certainty` ← `certainty` (`nil` when missing or unknown)
/// - `messageType` ← `messageType` (`Alert` when missing); `references` ← `references[].identifier`
/// - `sent` ← `sent`; `onset` ← `onset`, else `effective`; `expires` ← `expires` (the message's,
///   not the event's `ends`, which may be later; NWS sends an update before a message expires)
/// - `headline`, `description`, `instruction`, `areaDescription` ← `headline`, `description`,
///   `instruction`, `areaDesc`, cleaned (``AlertText/clean(_:limit:)``, ``Alert/Limit``)
/// - `link` ← `web` when it is an `http(s)` URL; `language` ← `language` (`en-US`) when sent
///   (older answers have none: left out); `level`: none
public enum NWSAlerts {
    /// NWS answers more decimals in `point` with 301 ("limited to 4 decimal digits").
    public static let maxCoordinateDecimals = 4
    /// `https://api.weather.gov`: the only authority of this source when `senderName` is missing.
    static let authority = "National Weather Service"

    /// The request path and query for `point` (rounded by the caller), printed with at most
    /// ``maxCoordinateDecimals`` decimals and no trailing zeros:
    /// `/alerts/active?point=39.7456,-97.0892`.
    public static func path(at point: Coordinate) -> String {
        let latitude = Coordinate.text(point.latitude, decimals: maxCoordinateDecimals)
        let longitude = Coordinate.text(point.longitude, decimals: maxCoordinateDecimals)
        return "/alerts/active?point=\(latitude),\(longitude)"
    }

    /// Decodes an `/alerts/active` answer into its alerts, in the answer's order (an empty
    /// `features` array is no alert at all: `[]`).
    ///
    /// - A status outside 200–299 throws ``WeatherError/http(status:reason:retryAfter:)`` with
    ///   the problem's `detail` (else `title`) as the reason when the body is problem JSON,
    ///   sanitised; `retryAfter` is `nil` (the caller has the header).
    /// - A success status whose body is a problem (`title` and `status`, no `features`) throws
    ///   ``WeatherError/errorBody(status:providerCode:reason:)`` (`providerCode` its `type`).
    /// - A body that is not JSON throws ``WeatherError/notJSON(status:bytes:contentType:)``.
    /// - A body that is not an object, a missing `features` or one that is not an array, a
    ///   feature or `properties` that is not an object, a member of the wrong type or a time
    ///   that is not ISO 8601 with an offset throws ``WeatherError/decoding(message:)`` naming
    ///   the member (e.g. `features[1].properties.expires`).
    /// - A feature without `properties`, without `id` or without `event` is skipped, as is one
    ///   whose `status` is not `Actual` (`Test`, `Exercise`, …) or whose `messageType` is not
    ///   `Alert`, `Update` or `Cancel` (`Ack`, `Error`): the others are still returned.
    public static func decode(status: Int, body: [UInt8], contentType: String?) throws(WeatherError) -> [Alert] {
        guard (200..<300).contains(status) else {
            let document = try? AlertDecoding.document(body, status: status, contentType: contentType)
            throw .http(status: status, reason: document.flatMap(problemReason), retryAfter: nil)
        }
        let document = try AlertDecoding.document(body, status: status, contentType: contentType)
        let root = try AlertDecoding.object(document, path: "body")
        if root["features"] == nil, case .string? = root["title"], case .number? = root["status"] {
            var type: String?
            if case .string(let text)? = root["type"] { type = UntrustedText.sanitized(text, limit: 100) }
            throw .errorBody(status: status, providerCode: type, reason: problemReason(document))
        }
        var alerts: [Alert] = []
        for (index, feature) in try AlertDecoding.array(root, "features", path: "").enumerated() {
            if let alert = try alert(feature, path: "features[\(index)]") { alerts.append(alert) }
        }
        return alerts
    }

    /// The `detail` (else `title`) of a problem document, sanitised; `nil` for anything else.
    static func problemReason(_ document: JSONValue) -> String? {
        guard case .object(let members) = document else { return nil }
        for key in ["detail", "title"] {
            if case .string(let text)? = members[key] {
                let reason = UntrustedText.sanitized(text)
                if !reason.isEmpty { return reason }
            }
        }
        return nil
    }

    /// One feature as an alert; `nil` when it is skipped (see ``decode(status:body:contentType:)``).
    static func alert(_ feature: JSONValue, path: String) throws(WeatherError) -> Alert? {
        let members = try AlertDecoding.object(feature, path: path)
        let properties: [String: JSONValue]
        switch members["properties"] {
        case nil, .null?: return nil
        case let value?: properties = try AlertDecoding.object(value, path: "\(path).properties")
        }
        let at = "\(path).properties."
        if let status = try AlertDecoding.string(properties, "status", path: at), status.lowercased() != "actual" {
            return nil
        }
        var messageType = Alert.MessageType.alert
        if let text = try AlertDecoding.string(properties, "messageType", path: at) {
            guard let type = Alert.MessageType(cap: text) else { return nil }
            messageType = type
        }
        guard let id = try AlertDecoding.text(properties, "id", path: at, limit: Alert.Limit.id),
            let event = try AlertDecoding.text(properties, "event", path: at, limit: Alert.Limit.event)
        else { return nil }
        let authority =
            try AlertDecoding.text(properties, "senderName", path: at, limit: Alert.Limit.authority) ?? Self.authority
        let severity = try AlertDecoding.string(properties, "severity", path: at).flatMap(Alert.Severity.init(cap:))
        let urgency = try AlertDecoding.string(properties, "urgency", path: at).flatMap(Alert.Urgency.init(cap:))
        let certainty = try AlertDecoding.string(properties, "certainty", path: at).flatMap(Alert.Certainty.init(cap:))
        var onset = try AlertDecoding.date(properties, "onset", path: at)
        if onset == nil { onset = try AlertDecoding.date(properties, "effective", path: at) }
        return Alert(
            id: id, source: .nws, authority: authority, event: event, severity: severity ?? .unknown,
            urgency: urgency, certainty: certainty, messageType: messageType,
            references: try references(properties["references"], path: "\(at)references"),
            sent: try AlertDecoding.date(properties, "sent", path: at),
            onset: onset,
            expires: try AlertDecoding.date(properties, "expires", path: at),
            headline: try AlertDecoding.text(properties, "headline", path: at, limit: Alert.Limit.headline),
            description: try AlertDecoding.text(properties, "description", path: at, limit: Alert.Limit.description),
            instruction: try AlertDecoding.text(properties, "instruction", path: at, limit: Alert.Limit.instruction),
            areaDescription: try AlertDecoding.text(
                properties, "areaDesc", path: at, limit: Alert.Limit.areaDescription),
            link: try AlertDecoding.link(AlertDecoding.string(properties, "web", path: at)),
            language: try AlertDecoding.text(properties, "language", path: at, limit: Alert.Limit.language))
    }

    /// The `identifier` of each entry of `references` (an entry without one is left out);
    /// `[]` when missing or `null`.
    static func references(_ value: JSONValue?, path: String) throws(WeatherError) -> [String] {
        let entries: [JSONValue]
        switch value {
        case nil, .null?: return []
        case .array(let list)?: entries = list
        case let other?: throw .decoding(message: "\(path) is \(other.kind), expected an array")
        }
        var identifiers: [String] = []
        for (index, entry) in entries.enumerated() {
            let members = try AlertDecoding.object(entry, path: "\(path)[\(index)]")
            let identifier = try AlertDecoding.text(
                members, "identifier", path: "\(path)[\(index)].", limit: Alert.Limit.id)
            if let identifier { identifiers.append(identifier) }
        }
        return identifiers
    }
}
