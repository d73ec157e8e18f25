#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WundercastSupport
import WundercastModel

/// Current weather and its forecast from MET Norway's locationforecast 2.0, compact product
/// (`GET /weatherapi/locationforecast/2.0/compact?lat=…&lon=…`), no key needed.
///
/// MET Norway's terms, kept here (PITFALLS): an identifying User-Agent with a contact
/// (``userAgent(contact:)``; generic agents are banned with 403), at most 4 decimals in
/// coordinates, no request before `Expires`, `If-Modified-Since` with the stored
/// `Last-Modified` (both by the ``ConditionalHTTPClient`` this provider wraps its client in;
/// 304 gives the stored answer again, 203 is a success with one warning).
///
/// ``Weather`` members and their source (units from `properties.meta.units`, converted to
/// `Units=` by ``MetNorwayUnits``), all from the **first** step of `properties.timeseries`:
/// - `temperature` ← `instant.details.air_temperature` (celsius → °C or °F)
/// - `relativeHumidity` ← `relative_humidity` (%); `windDirection` ← `wind_from_direction` (°)
/// - `windSpeed` ← `wind_speed` (m/s → km/h or mph)
/// - `symbolCode` ← `summary.symbol_code` of `next_1_hours`, else `next_6_hours`, else
///   `next_12_hours`; `condition` and `icon` from it (``MetNorwaySymbol``)
/// - `isDay` ← the symbol's `_day`/`_night`/`_polartwilight` suffix, else **computed** (``Sun``)
/// - `time` ← the step's `time`; `apparentTemperature` and `weatherCode`: none (left out)
/// - `forecast`: `windGusts` ← `wind_speed_of_gust` (when present); `seaLevelPressure` ←
///   `air_pressure_at_sea_level` (hPa); `hours` ← the steps in the 12 hours after the first
///   (temperature, condition, precipitation of the hour before from the previous step's
///   `next_1_hours.details.precipitation_amount`, `probability_of_precipitation` only when sent);
///   `days`: the series **aggregated** per local day of the place's time zone
///   (``UTCOffsetLookup``; without one the nautical zone of the longitude) and **computed**
///   sunrise and sunset (``MetNorwayBody/addDays(to:observed:at:_:utcOffset:count:)``).
public struct MetNorwayProvider: WeatherProvider {
    /// The clock of a place: its offset from UTC in seconds at an instant (the nearest city's
    /// time zone read from `/usr/share/zoneinfo`), or `nil` when the place's time zone is
    /// unknown. Asked once per request.
    public typealias UTCOffsetLookup = @Sendable (Coordinate) -> (@Sendable (Date) -> Int?)?

    /// `"metno"`, as `[Weather] Provider=`.
    public var name: String { "metno" }
    /// None: the API takes no key (the contact is not secret; MET Norway asks for it).
    public var secrets: Secrets { .none }
    /// `https://api.met.no`.
    public static let defaultBaseURL = "https://api.met.no"
    /// The compact product's path below the base URL.
    public static let path = "/weatherapi/locationforecast/2.0/compact"
    /// MET Norway refuses more decimals in coordinates ("at most 4"), whatever `Precision=` says.
    public static let maxCoordinateDecimals = 4

    /// Base URL without a trailing slash, e.g. `https://api.met.no`.
    public let baseURL: String
    /// Sent as `User-Agent` with every request: ``userAgent(contact:)``.
    public let userAgent: String
    /// The units asked for (met.no answers in SI units; they are converted).
    public let units: UnitSystem
    private let http: any HTTPClient
    /// Forgets the stored answer of a URL (``ConditionalHTTPClient/forget(_:)``).
    private let forget: @Sendable (String) -> Void
    private let utcOffset: UTCOffsetLookup
    /// How many local days to publish at most (`[Weather] Days=`).
    public let days: Int

    /// - Parameters:
    ///   - contact: an e-mail address or URL (`[Weather] Contact=`), put in the User-Agent.
    ///   - http: the client that makes the requests; wrapped in a ``ConditionalHTTPClient`` on
    ///     `clock` (monotonic, for `Expires`) and `wallClock`, which logs the 203 warning to `logger`.
    ///   - utcOffset: the place's offset from UTC (for the days); by default unknown.
    ///   - days: `[Weather] Days=`.
    public init<C: Clock>(
        baseURL: String = MetNorwayProvider.defaultBaseURL, contact: String, units: UnitSystem, http: any HTTPClient,
        clock: C, wallClock: @escaping @Sendable () -> Date = { Date() }, logger: Logger = .discard,
        utcOffset: @escaping UTCOffsetLookup = { _ in nil }, days: Int = Forecast.defaultDays
    ) where C.Duration == Swift.Duration {
        var base = baseURL
        while base.hasSuffix("/") { base.removeLast() }
        self.baseURL = base
        self.userAgent = Self.userAgent(contact: contact)
        self.units = units
        let conditional = ConditionalHTTPClient(http: http, clock: clock, wallClock: wallClock, logger: logger)
        self.http = conditional
        self.forget = { conditional.forget($0) }
        self.utcOffset = utcOffset
        self.days = Forecast.dayCount(days)
    }

    /// `wundercast/<version> (+<project URL>; <contact>)`, e.g.
    /// `wundercast/0.1.0 (+https://github.com/wundercast/wundercast; ops@example.org)`.
    public static func userAgent(contact: String) -> String {
        "wundercast/\(Wundercast.version) (+\(Wundercast.projectURL); \(contact))"
    }

    /// `<base>/weatherapi/locationforecast/2.0/compact?lat=40.7&lon=-74`: the coordinate rounded
    /// to at most 4 decimals, printed without trailing zeros.
    public func requestURL(for coordinate: Coordinate) -> String {
        let latitude = Coordinate.text(coordinate.latitude, decimals: Self.maxCoordinateDecimals)
        let longitude = Coordinate.text(coordinate.longitude, decimals: Self.maxCoordinateDecimals)
        return baseURL + Self.path + "?lat=\(latitude)&lon=\(longitude)"
    }

    /// GETs ``requestURL(for:)`` (or takes the stored answer before its `Expires`) with the
    /// User-Agent and decodes it with ``decode(status:body:at:requested:contentType:utcOffset:)``.
    /// A non-2xx status throws ``WeatherError/http(status:reason:retryAfter:)`` with
    /// `Retry-After` in seconds when sent (403: a banned User-Agent; 429: too many requests).
    public func currentWeather(at coordinate: Coordinate) async throws(WeatherError) -> Weather {
        if Task.isCancelled { throw .cancelled }
        let place = coordinate.rounded(toDecimals: Self.maxCoordinateDecimals)
        let url = requestURL(for: place)
        let response = try await http.get(url, headers: ["Accept": "application/json", "User-Agent": userAgent])
        let retryAfter =
            response.retryAfter
            ?? response.headers["retry-after"].flatMap { RetryAfter.seconds($0, now: 0, httpDate: { _ in nil }) }
        guard (200..<300).contains(response.status) else {
            throw .http(status: response.status, reason: nil, retryAfter: retryAfter)
        }
        let clock = utcOffset(place)
        do throws(WeatherError) {
            return try Self.decode(
                status: response.status, body: response.body, at: place, requested: units,
                contentType: response.headers["content-type"], utcOffset: { clock?($0) }, days: days)
        } catch {
            forget(url)  // an answer that does not decode is not kept until its Expires
            throw error
        }
    }

    /// Decodes a locationforecast 2.0 answer (compact or complete) for the place `coordinate`.
    ///
    /// - A status outside 200–299 throws ``WeatherError/http(status:reason:retryAfter:)``
    ///   (`retryAfter` `nil`); 203 is a success.
    /// - A body that is not JSON throws ``WeatherError/notJSON(status:bytes:contentType:)``.
    /// - Missing `properties` or `timeseries`, a series without steps, a member of the wrong
    ///   type or an unreadable `time` throws ``WeatherError/decoding(message:)`` naming it.
    /// - `null` and missing values are left out; unknown symbol codes give an unknown condition.
    public static func decode(
        status: Int, body: [UInt8], at coordinate: Coordinate, requested: UnitSystem = .metric,
        contentType: String? = nil, utcOffset: (Date) -> Int? = { _ in nil }, days: Int = Forecast.defaultDays
    ) throws(WeatherError) -> Weather {
        guard (200..<300).contains(status) else { throw .http(status: status, reason: nil, retryAfter: nil) }
        let document = try MetNorwayBody.parse(body, status: status, contentType: contentType)
        return try document.weather(at: coordinate, requested: requested, utcOffset: utcOffset, days: days)
    }
}
