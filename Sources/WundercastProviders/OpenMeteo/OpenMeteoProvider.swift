#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WundercastSupport
import WundercastModel

/// Current weather and its forecast from Open-Meteo's forecast API, no key needed: current,
/// hourly and daily values in **one** request (`GET /v1/forecast?current=…&hourly=…&daily=…`).
///
/// Units: the request asks for the wanted temperature, wind speed and precipitation units
/// (``requestedUnits(_:)``); pressure always comes in hPa. The answer is then checked and
/// converted to the wanted units by its own unit strings (``Weather/published(in:)``), so an
/// answer in other units than asked is still published right.
///
/// ``Weather`` members and their source in the answer (units from `current_units`):
/// - `temperature` ← `current.temperature_2m`, °C or °F
/// - `apparentTemperature` ← `current.apparent_temperature`, °C or °F
/// - `relativeHumidity` ← `current.relative_humidity_2m`, %
/// - `windSpeed` ← `current.wind_speed_10m`, km/h, m/s, mph (`"mp/h"` in the answer) or kn (m/s for Beaufort)
/// - `windDirection` ← `current.wind_direction_10m`, ° (from which the wind blows)
/// - `weatherCode` ← `current.weather_code`, WMO code; `isDay` ← `current.is_day` (0/1)
/// - `time` ← `current.time` (unix seconds, or local time and `utc_offset_seconds`), UTC
/// - `forecast` (``Forecast``): `windGusts` ← `current.wind_gusts_10m`; `seaLevelPressure` ←
///   `current.pressure_msl` (hPa); `hours` ← `hourly.*` (the 12 after `current.time`);
///   `days` ← `daily.*` (the place's local days, `timezone=auto`; `timeZone` ← `timezone`); `pressureTendency`
///   computed from `hourly.pressure_msl`; `utcOffsetSeconds` ← `utc_offset_seconds`
///
/// The free API serves one request at a time per IP (PITFALLS): the caller serialises fetches.
/// Cancellation is the HTTP client's: a cancelled task ends with ``WeatherError/cancelled``.
public struct OpenMeteoProvider: WeatherProvider {
    /// `"open-meteo"`.
    public var name: String { "open-meteo" }
    /// None: the free API takes no key.
    public var secrets: Secrets { .none }
    /// Base URL of the API without a trailing slash, e.g. `https://api.open-meteo.com`.
    public let baseURL: String
    /// The units wanted in the state (``requestedUnits(_:)`` of them are asked for; those are
    /// also the labels of values the response does not label).
    public let units: UnitPreferences
    /// Which grid cell answers for a coordinate (`cell_selection`).
    public let cell: CellSelection
    public let http: any HTTPClient

    /// The `current=` variables requested, in this order.
    public static let currentVariables = [
        "temperature_2m", "relative_humidity_2m", "apparent_temperature", "is_day",
        "weather_code", "wind_speed_10m", "wind_direction_10m", "wind_gusts_10m", "pressure_msl",
    ]
    /// The `hourly=` and `daily=` variables requested, in this order.
    public static var hourlyVariables: [String] { OpenMeteoBody.hourlyVariables }
    public static var dailyVariables: [String] { OpenMeteoBody.dailyVariables }
    /// How many local days the answer gives (`forecast_days`, `[Weather] Days=`).
    public let days: Int

    /// The span of the answer: `daily` for ``days`` local days from today (`forecast_days`),
    /// `hourly` from 4 hours before the current hour (for the 3-hour pressure tendency) to 13
    /// after it (the 12 hours after an observation within the current hour, and one to spare).
    public var spanParameters: String { "forecast_days=\(days)&past_hours=4&forecast_hours=14" }

    /// Decimal places printed for coordinates at most. The caller has already rounded them to
    /// the configured precision (0–4); this only guards against binary noise such as `44.440000001`.
    public static let maxCoordinateDecimals = 6

    public init(
        baseURL: String, units: UnitPreferences, cell: CellSelection = .land, http: any HTTPClient,
        days: Int = Forecast.defaultDays
    ) {
        self.days = Forecast.dayCount(days)
        var base = baseURL
        while base.hasSuffix("/") { base.removeLast() }
        self.baseURL = base
        self.units = units
        self.cell = cell
        self.http = http
    }

    /// The request URL for `coordinate`, e.g.
    /// `<base>/v1/forecast?latitude=44.44&longitude=26.1&current=temperature_2m,…&hourly=…&daily=…&timezone=auto&forecast_days=3&past_hours=4&forecast_hours=14&cell_selection=land&timeformat=unixtime&temperature_unit=celsius&wind_speed_unit=kmh&precipitation_unit=mm`
    /// (the units of ``requestedUnits(_:)``).
    /// Coordinates are printed with no more decimals than they carry (never `44.440000`).
    public func requestURL(for coordinate: Coordinate) -> String {
        requestURL(forEach: [coordinate])
    }

    /// The request URL for several coordinates at once (``currentWeather(atEach:)``): as
    /// ``requestURL(for:)`` with comma-separated lists, `latitude=a,b,c&longitude=x,y,z`.
    public func requestURL(forEach coordinates: [Coordinate]) -> String {
        let latitude = coordinates.map { Coordinate.text($0.latitude, decimals: Self.maxCoordinateDecimals) }
            .joined(separator: ",")
        let longitude = coordinates.map { Coordinate.text($0.longitude, decimals: Self.maxCoordinateDecimals) }
            .joined(separator: ",")
        let asked = Self.requestedUnits(units)
        let unitParameters =
            "temperature_unit=\(asked.temperature.rawValue)&wind_speed_unit=\(asked.windSpeed.rawValue)"
            + "&precipitation_unit=\(asked.precipitation.rawValue)"
        return baseURL + "/v1/forecast?latitude=\(latitude)&longitude=\(longitude)"
            + "&current=" + Self.currentVariables.joined(separator: ",")
            + "&hourly=" + Self.hourlyVariables.joined(separator: ",")
            + "&daily=" + Self.dailyVariables.joined(separator: ",")
            + "&timezone=auto&" + spanParameters + "&cell_selection=" + cell.rawValue
            + "&timeformat=unixtime&" + unitParameters
    }

    /// GETs ``requestURL(for:)`` and decodes the answer with ``decode(status:body:requested:)``,
    /// keeping at most ``days`` daily entries.
    /// A non-2xx answer throws ``WeatherError/http(status:reason:retryAfter:)`` (or
    /// ``WeatherError/limited(status:window:reason:retryAfter:)``) carrying the `Retry-After`
    /// header in seconds when there is one (Open-Meteo sends none on 429): the client's
    /// ``HTTPResponse/retryAfter`` (both forms), else the delta-seconds form of the header.
    public func currentWeather(at coordinate: Coordinate) async throws(WeatherError) -> Weather {
        try await get(requestURL(for: coordinate)) { [units, days] (response) throws(WeatherError) in
            let weather = try Self.decode(
                status: response.status, body: response.body, requested: units,
                contentType: response.headers["content-type"])
            return Self.keeping(days: days, of: weather)
        }
    }

    /// `weather` with at most `days` daily entries: `forecast_days` asked for `days`, and an
    /// answer that gives more publishes no more.
    static func keeping(days: Int, of weather: Weather) -> Weather {
        var weather = weather
        if let all = weather.forecast?.days { weather.forecast?.days = Array(all.prefix(max(0, days))) }
        return weather
    }

    /// GETs `url` and decodes the answer with `decode`; an HTTP error or a named limit it throws
    /// gets the answer's `Retry-After` (the client's ``HTTPResponse/retryAfter``, else the
    /// delta-seconds form of the header).
    func get<T>(
        _ url: String, decode: (HTTPResponse) throws(WeatherError) -> T
    ) async throws(WeatherError) -> T {
        if Task.isCancelled { throw .cancelled }
        let response = try await http.get(url, headers: ["Accept": "application/json"])
        let retryAfter =
            response.retryAfter ?? response.headers["retry-after"].flatMap(Self.retryAfterSeconds)
        do {
            return try decode(response)
        } catch .http(let status, let reason, _) {
            throw .http(status: status, reason: reason, retryAfter: retryAfter)
        } catch .limited(let status, let window, let reason, _) {
            throw .limited(status: status, window: window, reason: reason, retryAfter: retryAfter)
        }
    }

    /// The units Open-Meteo is asked for when `wanted` are wanted: the same, except what it has
    /// not (`temperature_unit` celsius or fahrenheit, `wind_speed_unit` kmh, ms, mph or kn,
    /// `precipitation_unit` mm or inch; no pressure unit): kelvin is asked as celsius, cm as mm,
    /// the Beaufort force as m/s (the table's unit), and pressure comes in hPa. The answer is
    /// converted from these.
    public static func requestedUnits(_ wanted: UnitPreferences) -> UnitPreferences {
        UnitPreferences(
            temperature: wanted.temperature == .kelvin ? .celsius : wanted.temperature,
            windSpeed: wanted.windSpeed == .bft ? .ms : wanted.windSpeed,
            pressure: .hPa, precipitation: wanted.precipitation == .cm ? .mm : wanted.precipitation)
    }

    /// Seconds from a `Retry-After` value in delta-seconds form (`"3"`, `"1.5"`); `nil` otherwise
    /// (the HTTP-date form needs a date parser: ``RetryAfter/seconds(_:now:httpDate:)``).
    static func retryAfterSeconds(_ value: String) -> Double? {
        RetryAfter.seconds(value, now: 0, httpDate: { _ in nil })
    }

    /// Decodes an Open-Meteo `/v1/forecast` answer.
    ///
    /// - `status` outside 200–299 throws ``WeatherError/http(status:reason:retryAfter:)`` with the
    ///   body's `reason` when the body is `{"error":true,"reason":…}` or `{"reason":…}` (seen
    ///   without `error`), sanitised (``UntrustedText/sanitized(_:limit:)``); `retryAfter` is `nil`.
    /// - A reason naming a request limit ("Daily API request limit exceeded. Please try again
    ///   tomorrow.", also Hourly and Minutely) throws
    ///   ``WeatherError/limited(status:window:reason:retryAfter:)`` instead, under any status.
    /// - A body with `"error": true` under a success status throws
    ///   ``WeatherError/errorBody(status:providerCode:reason:)``.
    /// - `current.time` may be unix seconds (`timeformat=unixtime`) or local time without an
    ///   offset (`"2026-01-16T22:15"`), which is turned into UTC with `utc_offset_seconds`.
    /// - `null` values become `nil`; `-0` becomes `0`; `weather_code` may be `3.0`.
    /// - Units come from `current_units`, `hourly_units`, `daily_units`; a missing or `"undefined"`
    ///   unit is taken to be what ``requestedUnits(_:)`` of `requested` asked for (hPa for
    ///   pressure). Values no weather has are left out in those units, then every value is
    ///   converted to `requested` by its unit (``Weather/published(in:)``; a unit string it does
    ///   not know is left as it is); an answer with no possible value left throws
    ///   ``WeatherError/decoding(message:)``.
    /// - `hourly`/`daily` give ``Weather/forecast`` (see `OpenMeteoBody+Forecast.swift`): missing
    ///   blocks and series are left out; the hours and days are counted from `current.time`.
    /// - A success status with a body that is not JSON throws
    ///   ``WeatherError/notJSON(status:bytes:contentType:)`` (with `contentType`, the header);
    ///   `"error":true` under a success status throws ``WeatherError/errorBody(status:providerCode:reason:)``.
    /// - Throws ``WeatherError/decoding(message:)`` naming the member when `current` is missing or a
    ///   member has the wrong type (also a series of `hourly`/`daily` whose length is not that of
    ///   its `time`).
    public static func decode(
        status: Int, body: [UInt8], requested: UnitPreferences = .metric, contentType: String? = nil
    ) throws(WeatherError) -> Weather {
        let parsed: Result<OpenMeteoBody, WeatherError> = parse(body, status: status, contentType: contentType)
        let reason = (try? parsed.get())?.errorReason.map { UntrustedText.sanitized($0) }
        if let reason, let window = limitWindow(reason) {
            throw .limited(status: status, window: window, reason: reason, retryAfter: nil)
        }
        guard (200..<300).contains(status) else {
            // Only the documented error shape gives a reason; anything else (an HTML page from a
            // proxy, garbage) still reports the status.
            throw .http(status: status, reason: reason, retryAfter: nil)
        }
        let document = try parsed.get()
        if document.isError {
            // Never trust the status line alone (PITFALLS): an error body under 200 is an error.
            throw .errorBody(status: status, providerCode: nil, reason: reason)
        }
        return try document.weather(requested: requestedUnits(requested)).published(in: requested)
    }

    /// The window of an Open-Meteo limit reason: "Daily API request limit exceeded. Please try
    /// again tomorrow." → `.day`; "Hourly …" → `.hour`; "Minutely …" → `.minute`; else `nil`.
    static func limitWindow(_ reason: String) -> LimitWindow? {
        let text = reason.lowercased()
        guard text.contains("limit exceeded") else { return nil }
        if text.hasPrefix("minutely") { return .minute }
        if text.hasPrefix("hourly") { return .hour }
        if text.hasPrefix("daily") { return .day }
        return nil
    }

    static func parse(
        _ body: [UInt8], status: Int, contentType: String?
    ) -> Result<OpenMeteoBody, WeatherError> {
        let notJSON = WeatherError.notJSON(status: status, bytes: body.count, contentType: contentType)
        do {
            return .success(try JSONDecoder().decode(OpenMeteoBody.self, from: Data(body)))
        } catch let error as WeatherError {
            return .failure(error)
        } catch DecodingError.typeMismatch(_, let context) where context.codingPath.isEmpty {
            return .failure(.decoding(message: "body is not a JSON object"))
        } catch DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty {
            return .failure(notJSON)
        } catch let error as DecodingError {
            return .failure(.decoding(message: Self.describe(error)))
        } catch {
            return .failure(notJSON)
        }
    }

    static func describe(_ error: DecodingError) -> String {
        let context: DecodingError.Context
        switch error {
        case .typeMismatch(_, let c), .valueNotFound(_, let c), .keyNotFound(_, let c), .dataCorrupted(let c):
            context = c
        @unknown default: return "body is not valid JSON"
        }
        let path = context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
        return path.isEmpty ? "body is not valid JSON" : "\(path) could not be read: \(context.debugDescription)"
    }
}

/// Open-Meteo's `cell_selection`: which cell of the model grid answers for a coordinate.
/// Config `[Weather] Cell=`.
public enum CellSelection: String, Sendable, Equatable, CaseIterable {
    /// A cell on land with an elevation like the coordinate's (Open-Meteo's default).
    case land
    /// A cell on the sea, for boats.
    case sea
    /// The nearest cell, whatever it is.
    case nearest
}
