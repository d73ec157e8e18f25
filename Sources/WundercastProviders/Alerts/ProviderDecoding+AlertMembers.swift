#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WundercastSupport
import WundercastModel

/// The reads the GeoJSON alert decoders (MetAlerts, ECCC) make of a ``JSONValue``: each names the
/// member's path in the ``WeatherError/decoding(message:)`` it throws.
extension ProviderDecoding {
    /// The features of a GeoJSON `FeatureCollection` answer: ``WeatherError/http(status:reason:retryAfter:)``
    /// for a status outside 200–299, ``WeatherError/notJSON(status:bytes:contentType:)`` when the
    /// body is not JSON, ``WeatherError/decoding(message:)`` when it is not an object with a
    /// `features` array.
    static func alertFeatures(
        status: Int, body: [UInt8], contentType: String?
    ) throws(WeatherError) -> (
        root: [String: JSONValue], features: [JSONValue]
    ) {
        guard (200..<300).contains(status) else { throw .http(status: status, reason: nil, retryAfter: nil) }
        let document = try AlertDecoding.document(body, status: status, contentType: contentType)
        guard case .object(let root) = document else {
            throw .decoding(message: "body is \(document.kind), expected an object")
        }
        switch root["features"] {
        case .array(let features)?: return (root, features)
        case nil, .null?: throw .decoding(message: "missing member 'features'")
        case let other?: throw .decoding(message: "features is \(other.kind), expected an array")
        }
    }

    /// The string at `path` through ``AlertText/clean(_:limit:)``; `nil` when missing, `null` or
    /// empty after cleaning; a non-string throws.
    static func alertText(_ value: JSONValue?, _ path: String, limit: Int) throws(WeatherError) -> String? {
        switch value {
        case nil, .null?: return nil
        case .string(let text)?: return AlertText.clean(text, limit: limit)
        case let other?: throw .decoding(message: "\(path) is \(other.kind), expected a string")
        }
    }

    /// The instant at `path` (``AlertDecoding/instant(_:)``); `nil` when missing, `null` or empty;
    /// another string or type throws, quoting at most 40 characters of it.
    static func alertInstant(_ value: JSONValue?, _ path: String) throws(WeatherError) -> Date? {
        switch value {
        case nil, .null?: return nil
        case .string(let text)?:
            if text.isEmpty { return nil }
            guard let instant = AlertDecoding.instant(text) else {
                let quoted = UntrustedText.sanitized(text, limit: 40)
                throw .decoding(message: "\(path) is \"\(quoted)\", expected an ISO 8601 time with an offset")
            }
            return instant
        case let other?: throw .decoding(message: "\(path) is \(other.kind), expected a string")
        }
    }
}
