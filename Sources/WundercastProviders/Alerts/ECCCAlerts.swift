#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WundercastSupport
import WundercastModel

/// Environment and Climate Change Canada's alerts, OGC API collection `weather-alerts`
/// (`GET /collections/weather-alerts/items?f=json&bbox=…`): a GeoJSON `FeatureCollection` with
/// one feature per alert **and area** (`Polygon` or `MultiPolygon`, bilingual properties).
///
/// The bounding box only narrows the answer: a feature is kept when its geometry contains the
/// point (``GeoPolygon/contains(_:)``, edges included); features of one alert (one per area)
/// become one ``Alert``. ``Alert`` members and their source (`properties.` throughout):
/// - `id` ← `id` without its `_<feature_id>` suffix (the collection joins the alert's identifier
///   and the area's `feature_id` with `_`); else the feature's own `id`
/// - `event` ← `alert_name_en` (`wind warning`), else `alert_short_name_en`
/// - `authority` ← ``authority``; `severity` ← ``Alert/Severity/unknown`` (ECCC gives no CAP
///   severity); `level` ← `alert_type` as given (`warning`, `watch`, `advisory`, `statement`):
///   **ECCC's own level, not mapped** to CAP
/// - `messageType` ← `status_en`: `issued` → alert, `updated`/`continued` → update,
///   `ended`/`cancelled` → cancel, missing or another word → alert
/// - `sent` ← `publication_datetime`; `onset` ← `validity_datetime`; `expires` ←
///   `expiration_datetime` (`event_end_datetime`, the hazard's end, is not the message's)
/// - `description` ← `alert_text_en`; `areaDescription` ← the `feature_name_en` of the kept
///   features, distinct, joined with `; `; `language` ← `en`
/// - none: `urgency`, `certainty` (`confidence_en` is not CAP's), `headline`, `instruction`,
///   `link`, `references`. Ignored: `risk_colour_en`, `impact_en`, `province`, the `_fr` texts.
///
/// A feature without an id or without both names, or without an area containing the point
/// (`geometry` `null`, a `Point`, elsewhere), is skipped. Every text passes
/// ``AlertText/clean(_:limit:)`` with its ``Alert/Limit``.
public enum ECCCAlerts {
    /// Who issues the alerts.
    public static let authority = "Environment and Climate Change Canada"
    /// The items of the collection, below the base URL.
    public static let basePath = "/collections/weather-alerts/items"
    /// Half the side of the bounding box asked for, in degrees (about 1.1 km of latitude).
    public static let boxHalfSide = 0.01
    /// At most this many features per answer (the API's default page is smaller).
    public static let pageLimit = 100

    /// `/collections/weather-alerts/items?f=json&limit=100&bbox=minLon,minLat,maxLon,maxLat`:
    /// a box of ±``boxHalfSide``° around `point`, 4 decimals, clamped to ±90°/±180°.
    public static func path(around point: Coordinate) -> String {
        func text(_ value: Double, _ bound: Double) -> String {
            Coordinate.text(min(max(value, -bound), bound), decimals: 4)
        }
        let box = [
            text(point.longitude - boxHalfSide, 180), text(point.latitude - boxHalfSide, 90),
            text(point.longitude + boxHalfSide, 180), text(point.latitude + boxHalfSide, 90),
        ]
        return "\(basePath)?f=json&limit=\(pageLimit)&bbox=\(box.joined(separator: ","))"
    }

    /// The alerts whose area contains `point`, in the order their first feature comes.
    ///
    /// - Throws: ``WeatherError/http(status:reason:retryAfter:)`` for a status outside 200–299,
    ///   ``WeatherError/notJSON(status:bytes:contentType:)`` when the body is not JSON,
    ///   ``WeatherError/decoding(message:)`` naming the member (`features[1].geometry.coordinates[0]`)
    ///   when the body is not an object with a `features` array, a feature is not an object, or
    ///   a member has the wrong type or an unreadable time.
    public static func decode(
        status: Int, body: [UInt8], contentType: String?, at point: Coordinate
    ) throws(WeatherError) -> [Alert] {
        let (_, features) = try AlertDecoding.featureCollection(status: status, body: body, contentType: contentType)
        var alerts: [Alert] = []
        var areas: [[String]] = []
        for (index, feature) in features.enumerated() {
            guard let kept = try alert(feature, path: "features[\(index)]", at: point) else { continue }
            let (alert, area) = kept
            if let existing = alerts.firstIndex(where: { $0.id == alert.id }) {
                if let area, !areas[existing].contains(area) { areas[existing].append(area) }
            } else {
                alerts.append(alert)
                areas.append(area.map { [$0] } ?? [])
            }
        }
        for index in alerts.indices {
            let joined = areas[index].joined(separator: "; ")
            alerts[index].areaDescription = AlertText.clean(joined, limit: Alert.Limit.areaDescription)
        }
        return alerts
    }

    /// One feature as an alert and its area's name, or `nil` when skipped.
    static func alert(
        _ feature: JSONValue, path: String, at point: Coordinate
    ) throws(WeatherError) -> (Alert, String?)? {
        guard let members = try ProviderDecoding.object(feature, name: path) else {
            throw .decoding(message: "\(path) is null, expected an object")
        }
        let properties = try ProviderDecoding.object(members["properties"], name: "\(path).properties") ?? [:]
        let p = "\(path).properties"
        func text(_ key: String, _ limit: Int) throws(WeatherError) -> String? {
            try AlertDecoding.text(properties[key], path: "\(p).\(key)", limit: limit)
        }
        func instant(_ key: String) throws(WeatherError) -> Date? {
            try AlertDecoding.date(properties[key], path: "\(p).\(key)")
        }
        let name = try text("alert_name_en", Alert.Limit.event)
        let shortName = try text("alert_short_name_en", Alert.Limit.event)
        let ownID = try AlertDecoding.text(members["id"], path: "\(path).id", limit: Alert.Limit.id)
        guard let fullID = try text("id", Alert.Limit.id) ?? ownID, let event = name ?? shortName,
            let area = try area(members["geometry"], path: "\(path).geometry"), area.contains(point)
        else { return nil }
        let alert = Alert(
            id: alertID(fullID, featureID: try text("feature_id", Alert.Limit.id)), source: .eccc,
            authority: authority, event: event, severity: .unknown,
            level: try text("alert_type", Alert.Limit.level),
            messageType: messageType(try text("status_en", 20)),
            sent: try instant("publication_datetime"), onset: try instant("validity_datetime"),
            expires: try instant("expiration_datetime"),
            description: try text("alert_text_en", Alert.Limit.description), language: "en")
        return (alert, try text("feature_name_en", Alert.Limit.areaDescription))
    }

    /// `id` without the `_<featureID>` the collection appends to the alert's identifier.
    static func alertID(_ id: String, featureID: String?) -> String {
        guard let featureID, id.hasSuffix("_" + featureID), id.count > featureID.count + 1 else { return id }
        return String(id.dropLast(featureID.count + 1))
    }

    /// ECCC's `status_en` as a CAP message type (``Alert/MessageType/alert`` when unknown).
    static func messageType(_ status: String?) -> Alert.MessageType {
        switch status?.lowercased() {
        case "updated", "continued": .update
        case "ended", "cancelled", "canceled": .cancel
        default: .alert
        }
    }
}
