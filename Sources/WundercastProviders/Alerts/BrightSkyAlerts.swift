#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WundercastSupport
import WundercastModel

/// Deutscher Wetterdienst's warnings through Bright Sky (``AlertSourceID/brightSky``), a
/// third-party mirror of DWD's CAP feed: `GET /alerts?lat=…&lon=…` on
/// `https://api.brightsky.dev`, answered as `{"alerts": […], "location": {…}}`, `location` being
/// DWD's municipality warn cell the point lies in (`warn_cell_id`, `name`, `district`, `state`).
///
/// Each alert's texts come in English (`*_en`) and German (`*_de`): English is taken when
/// `event_en` is given (language `en`), else German (language `de`), and all its texts in that
/// language only (a missing one stays missing, never taken from the other language).
///
/// ``Alert`` members and their source, in `alerts[i]`:
/// - `id` ← `alert_id` (the CAP identifier `2.49.0.0.276.0.DWD.PVW.…`, not Bright Sky's own
///   integer `id`); `authority`: `Deutscher Wetterdienst` (the only issuer Bright Sky mirrors)
/// - `event` ← `event_en`/`event_de` (`wind gusts`, `WINDBÖEN`); `headline`, `description`,
///   `instruction` ← `headline_*`, `description_*`, `instruction_*`; `language` `en` or `de`
/// - `severity` ← `severity` (`minor` … `extreme`, ``Alert/Severity/unknown`` when missing or
///   other); `urgency` ← `urgency` (`immediate`, `future`); `certainty` ← `certainty`
/// - `onset` ← `onset`, else `effective`; `expires` ← `expires` (may be `null`); `sent`: none
///   (Bright Sky gives only `effective`); `messageType` `Alert`, `references` `[]` (Bright Sky
///   serves the alerts in force, not CAP's updates and cancellations)
/// - `areaDescription` ← `location.name`, the warn cell's name (the alert applies to it);
///   `level`, `link`: none
public enum BrightSkyAlerts {
    /// Decimals sent in `lat` and `lon` (as much as a warn cell needs, and as for NWS).
    public static let maxCoordinateDecimals = 4
    /// The issuer of every alert Bright Sky serves.
    static let authority = "Deutscher Wetterdienst"

    /// The request path and query for `point` (rounded by the caller), printed with at most
    /// ``maxCoordinateDecimals`` decimals and no trailing zeros: `/alerts?lat=52.52&lon=13.4`.
    public static func path(at point: Coordinate) -> String {
        let latitude = Coordinate.text(point.latitude, decimals: maxCoordinateDecimals)
        let longitude = Coordinate.text(point.longitude, decimals: maxCoordinateDecimals)
        return "/alerts?lat=\(latitude)&lon=\(longitude)"
    }

    /// Decodes an `/alerts` answer into its alerts, in the answer's order (`"alerts": []` is no
    /// alert at all: `[]`).
    ///
    /// - A status outside 200–299 throws ``WeatherError/http(status:reason:retryAfter:)`` with
    ///   Bright Sky's `detail` (else `description`) as the reason when the body has one,
    ///   sanitised (404 "Requested position is not covered by the DWD"); `retryAfter` `nil`.
    /// - A body that is not JSON throws ``WeatherError/notJSON(status:bytes:contentType:)``.
    /// - A body that is not an object, a missing `alerts` or one that is not an array, an alert
    ///   or `location` that is not an object, a member of the wrong type or a time that is not
    ///   ISO 8601 with an offset throws ``WeatherError/decoding(message:)`` naming the member
    ///   (e.g. `alerts[0].onset`).
    /// - An alert without `alert_id` or without an event in the chosen language is skipped, as
    ///   is one whose `status` is not `actual` (`test`): the others are still returned.
    public static func decode(status: Int, body: [UInt8], contentType: String?) throws(WeatherError) -> [Alert] {
        guard (200..<300).contains(status) else {
            let document = try? AlertDecoding.document(body, status: status, contentType: contentType)
            throw .http(status: status, reason: document.flatMap(errorReason), retryAfter: nil)
        }
        let document = try AlertDecoding.document(body, status: status, contentType: contentType)
        let root = try AlertDecoding.object(document, path: "body")
        var area: String?
        switch root["location"] {
        case nil, .null?: area = nil
        case let value?:
            let location = try AlertDecoding.object(value, path: "location")
            area = try AlertDecoding.text(location, "name", path: "location.", limit: Alert.Limit.areaDescription)
        }
        var alerts: [Alert] = []
        for (index, entry) in try AlertDecoding.array(root, "alerts", path: "").enumerated() {
            if let alert = try alert(entry, area: area, path: "alerts[\(index)]") { alerts.append(alert) }
        }
        return alerts
    }

    /// The `detail` (FastAPI) or `description` (older Bright Sky) of an error body, sanitised.
    static func errorReason(_ document: JSONValue) -> String? {
        guard case .object(let members) = document else { return nil }
        for key in ["detail", "description"] {
            if case .string(let text)? = members[key] {
                let reason = UntrustedText.sanitized(text)
                if !reason.isEmpty { return reason }
            }
        }
        return nil
    }

    /// One alert; `nil` when it is skipped (see ``decode(status:body:contentType:)``).
    static func alert(_ entry: JSONValue, area: String?, path: String) throws(WeatherError) -> Alert? {
        let members = try AlertDecoding.object(entry, path: path)
        let at = "\(path)."
        if let status = try AlertDecoding.string(members, "status", path: at), status.lowercased() != "actual" {
            return nil
        }
        let english = try AlertDecoding.text(members, "event_en", path: at, limit: Alert.Limit.event)
        let language = english == nil ? "de" : "en"
        func text(_ name: String, _ limit: Int) throws(WeatherError) -> String? {
            try AlertDecoding.text(members, "\(name)_\(language)", path: at, limit: limit)
        }
        var event = english
        if event == nil { event = try text("event", Alert.Limit.event) }
        guard let id = try AlertDecoding.text(members, "alert_id", path: at, limit: Alert.Limit.id), let event else {
            return nil
        }
        let severity = try AlertDecoding.string(members, "severity", path: at).flatMap(Alert.Severity.init(cap:))
        let urgency = try AlertDecoding.string(members, "urgency", path: at).flatMap(Alert.Urgency.init(cap:))
        let certainty = try AlertDecoding.string(members, "certainty", path: at).flatMap(Alert.Certainty.init(cap:))
        var onset = try AlertDecoding.date(members, "onset", path: at)
        if onset == nil { onset = try AlertDecoding.date(members, "effective", path: at) }
        return Alert(
            id: id, source: .brightSky, authority: Self.authority, event: event, severity: severity ?? .unknown,
            urgency: urgency, certainty: certainty, messageType: .alert, references: [], sent: nil,
            onset: onset, expires: try AlertDecoding.date(members, "expires", path: at),
            headline: try text("headline", Alert.Limit.headline),
            description: try text("description", Alert.Limit.description),
            instruction: try text("instruction", Alert.Limit.instruction), areaDescription: area,
            link: nil, language: language)
    }
}
