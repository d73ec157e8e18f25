#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WundercastSupport
import WundercastModel
import WundercastProviders

/// Looks up place names online: something that finds places the city table lacks.
public protocol PlaceGeocoder: Sendable {
    /// Places named `query` (qualifiers after commas applied as in ``PlaceQuery``), best first,
    /// never empty. Throws ``PlaceError/noSuchPlace(name:)`` when there is none,
    /// ``PlaceError/geocodingUnavailable(name:reason:)`` when the service failed.
    func search(_ query: String) async throws(PlaceError) -> [City]
}

/// Place names through Open-Meteo's geocoding API (`GET /v1/search`), for names the city
/// table does not know (villages, places abroad under 15,000 people).
///
/// ``City`` members and their source in each of `results[]`: `name` ← `name`, `region` ←
/// `admin1`, `country` ← `country_code`, `countryName` ← `country`, `timeZone` ← `timezone`,
/// `coordinate` ← `latitude`/`longitude` (degrees), `population` ← `population` (0 when absent).
/// Every text is untrusted: sanitised and bounded (``UntrustedText/sanitized(_:limit:)``); a
/// result without a name or with coordinates out of range is skipped. An answer without
/// `results` means no such place (Open-Meteo omits the key).
public struct OpenMeteoGeocoder: PlaceGeocoder {
    /// Base URL without a trailing slash (`[Places] GeocodingURL=`, default `https://geocoding-api.open-meteo.com`).
    public let baseURL: String
    public let http: any HTTPClient
    /// Results asked for (`count=`).
    public static let resultCount = 10

    public init(baseURL: String, http: any HTTPClient) {
        var base = baseURL
        while base.hasSuffix("/") { base.removeLast() }
        self.baseURL = base
        self.http = http
    }

    /// `<base>/v1/search?name=<the name before any comma, percent-encoded>&count=10&language=en&format=json`.
    public func requestURL(for name: String) -> String {
        baseURL + "/v1/search?name=" + Self.percentEncoded(name) + "&count=\(Self.resultCount)&language=en&format=json"
    }

    public func search(_ query: String) async throws(PlaceError) -> [City] {
        let name = UntrustedText.sanitized(
            String(query.split(separator: ",", omittingEmptySubsequences: false).first ?? ""))
        guard !name.isEmpty else { throw .noSuchPlace(name: query) }
        let response: HTTPResponse
        do {
            response = try await http.get(requestURL(for: name), headers: ["Accept": "application/json"])
        } catch {
            throw .geocodingUnavailable(name: query, reason: error.message)
        }
        return try Self.decode(status: response.status, body: response.body, query: query)
    }

    /// Decodes a `/v1/search` answer and applies the query's qualifiers, keeping the service's
    /// order within each qualifier rank. Throws ``PlaceError/geocodingUnavailable(name:reason:)``
    /// for a status outside 200–299 (with the body's `reason`, sanitised) or a body that is not
    /// the expected JSON, ``PlaceError/noSuchPlace(name:)`` when no result is left.
    public static func decode(status: Int, body: [UInt8], query: String) throws(PlaceError) -> [City] {
        let document = try? JSONDecoder().decode(Body.self, from: Data(body))
        guard (200..<300).contains(status), document?.error != true else {
            let reason = WeatherError.http(status: status, reason: document?.reason, retryAfter: nil).message
            throw .geocodingUnavailable(name: query, reason: reason)
        }
        guard let document else {
            throw .geocodingUnavailable(
                name: query, reason: "bad response body: not the geocoding JSON (\(body.count) bytes)")
        }
        let placeQuery = PlaceQuery(query)
        let ranked = (document.results ?? []).compactMap { result -> (rank: UInt8, city: City)? in
            guard let city = result.city,
                let rank = placeQuery.qualifierRank(
                    region: city.region, countryCode: city.country, countryName: city.countryName)
            else { return nil }
            return (rank, city)
        }
        guard !ranked.isEmpty else { throw .noSuchPlace(name: query) }
        return ranked.enumerated().sorted { ($0.element.rank, $0.offset) < ($1.element.rank, $1.offset) }
            .map(\.element.city)
    }

    /// RFC 3986 percent-encoding of every byte but the unreserved ones (`A–Z a–z 0–9 - . _ ~`).
    static func percentEncoded(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        for byte in text.utf8 {
            switch byte {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                out.append(byte)
            default:
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    struct Body: Decodable {
        var results: [Result]?
        var error: Bool?
        var reason: String?
    }

    /// One of `results[]`; a member of the wrong type counts as absent.
    struct Result: Decodable {
        var name, admin1, countryCode, country, timezone: String?
        var latitude, longitude: Double?
        var population: Int?

        enum CodingKeys: String, CodingKey {
            case name, admin1, country, timezone, latitude, longitude, population
            case countryCode = "country_code"
        }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            func text(_ key: CodingKeys) -> String? {
                (try? c.decodeIfPresent(String.self, forKey: key)).flatMap { $0 }.map { UntrustedText.sanitized($0) }
                    .flatMap { $0.isEmpty ? nil : $0 }
            }
            name = text(.name)
            admin1 = text(.admin1)
            countryCode = text(.countryCode)
            country = text(.country)
            timezone = text(.timezone)
            latitude = (try? c.decodeIfPresent(Double.self, forKey: .latitude)).flatMap { $0 }
            longitude = (try? c.decodeIfPresent(Double.self, forKey: .longitude)).flatMap { $0 }
            population = (try? c.decodeIfPresent(Int.self, forKey: .population)).flatMap { $0 }
        }

        var city: City? {
            guard let name, let latitude, let longitude, latitude.isFinite, longitude.isFinite,
                abs(latitude) <= 90, abs(longitude) <= 180
            else { return nil }
            let code = countryCode.flatMap { code in
                code.utf8.count == 2 && code.utf8.allSatisfy { (65...90).contains($0) } ? code : nil
            }
            return City(
                name: name, region: admin1, country: code, countryName: country, timeZone: timezone,
                coordinate: Coordinate(latitude: latitude, longitude: longitude), population: max(0, population ?? 0))
        }
    }
}
