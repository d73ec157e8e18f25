#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WundercastSupport
import WundercastModel

/// Several positions in **one** request (`around`'s nine cells): Open-Meteo takes
/// comma-separated `latitude=a,b,c&longitude=x,y,z` and then answers a JSON array with one
/// object per location, in the order asked ("the JSON output changes to a list of structures",
/// Open-Meteo's API documentation). Open-Meteo counts each location of such a request as an
/// API call of its own: a batch saves HTTP requests and turns at the ``ProviderQueue``, not quota.
extension OpenMeteoProvider: BatchWeatherProvider {
    /// Locations per request at most (ours, to keep the URL short: 25 × 2 × 9 characters).
    public static let maxBatch = 25
    public var batchLimit: Int { Self.maxBatch }

    /// GETs ``requestURL(forEach:)`` and decodes the list with
    /// ``decodeBatch(status:body:count:requested:contentType:)``; failures of the request as a
    /// whole are thrown as in ``currentWeather(at:)`` (with `Retry-After`), and each location
    /// keeps at most ``days`` daily entries as there.
    public func currentWeather(
        atEach coordinates: [Coordinate]
    ) async throws(WeatherError) -> [Result<Weather, WeatherError>] {
        try await get(requestURL(forEach: coordinates)) { [units, days] (response) throws(WeatherError) in
            try Self.decodeBatch(
                status: response.status, body: response.body, count: coordinates.count, requested: units,
                contentType: response.headers["content-type"]
            ).map { $0.map { Self.keeping(days: days, of: $0) } }
        }
    }

    /// Decodes the answer to a request for `count` locations.
    ///
    /// - A body that is a JSON object is the answer for the request as a whole: an error
    ///   (``decode(status:body:requested:contentType:)`` throws it: HTTP status, named limit,
    ///   error body) or, when `count` is 1, that location's weather (Open-Meteo answers one
    ///   location with an object); for more locations an object is a ``WeatherError/decoding(message:)``.
    /// - A status outside 200–299 throws ``WeatherError/http(status:reason:retryAfter:)``.
    /// - An array must hold `count` elements, else ``WeatherError/decoding(message:)`` (the order
    ///   could not be trusted). Each element is decoded alone: `null`, a value that is not an
    ///   object, a member of the wrong type or `{"error":true,…}` fail that location only
    ///   (``WeatherError/decoding(message:)`` naming `location N`, or
    ///   ``WeatherError/errorBody(status:providerCode:reason:)``); the others are unaffected.
    public static func decodeBatch(
        status: Int, body: [UInt8], count: Int, requested: UnitPreferences = .metric, contentType: String? = nil
    ) throws(WeatherError) -> [Result<Weather, WeatherError>] {
        let opening = body.first { ![UInt8(ascii: " "), 0x0A, 0x0D, 0x09].contains($0) }
        guard opening == UInt8(ascii: "[") else {
            let weather = try decode(status: status, body: body, requested: requested, contentType: contentType)
            guard count == 1 else {
                throw .decoding(message: "one location in the answer, \(count) asked")
            }
            return [.success(weather)]
        }
        guard (200..<300).contains(status) else { throw .http(status: status, reason: nil, retryAfter: nil) }
        let cells: [Cell]
        do {
            cells = try JSONDecoder().decode([Cell].self, from: Data(body))
        } catch {
            throw .notJSON(status: status, bytes: body.count, contentType: contentType)
        }
        guard cells.count == count else {
            throw .decoding(message: "\(cells.count) locations in the answer, \(count) asked")
        }
        return cells.enumerated().map { index, cell in
            cell.weather(status: status, requested: requested).mapError { error in
                guard case .decoding(let message) = error else { return error }
                return .decoding(message: "location \(index + 1): \(message)")
            }
        }
    }

    /// One element of the list: its body, or why it could not be read (`null`, not an object,
    /// a member of the wrong type), without failing the list.
    private struct Cell: Decodable {
        let body: Result<OpenMeteoBody, WeatherError>

        init(from decoder: any Decoder) throws {
            if try decoder.singleValueContainer().decodeNil() {
                body = .failure(.decoding(message: "null instead of an object"))
                return
            }
            do {
                body = .success(try OpenMeteoBody(from: decoder))
            } catch DecodingError.typeMismatch(_, let context) where context.codingPath.count <= 1 {
                body = .failure(.decoding(message: "not an object"))
            } catch let error as DecodingError {
                body = .failure(.decoding(message: OpenMeteoProvider.describe(error)))
            }
        }

        func weather(status: Int, requested: UnitPreferences) -> Result<Weather, WeatherError> {
            let document: OpenMeteoBody
            switch body {
            case .failure(let error): return .failure(error)
            case .success(let decoded): document = decoded
            }
            if document.isError {
                return .failure(
                    .errorBody(
                        status: status, providerCode: nil,
                        reason: document.errorReason.map { UntrustedText.sanitized($0) }))
            }
            do throws(WeatherError) {
                return .success(
                    try document.weather(requested: OpenMeteoProvider.requestedUnits(requested))
                        .published(in: requested))
            } catch {
                return .failure(error)
            }
        }
    }
}
