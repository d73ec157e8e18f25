#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Current weather from Open-Meteo's forecast API (`GET /v1/forecast?current=…`), no key needed.
///
/// ``Weather`` members and their source in the answer (units from `current_units`):
/// - `temperature` ← `current.temperature_2m`, °C or °F
/// - `apparentTemperature` ← `current.apparent_temperature`, °C or °F
/// - `relativeHumidity` ← `current.relative_humidity_2m`, %
/// - `windSpeed` ← `current.wind_speed_10m`, km/h or mph (`"mp/h"` in the answer)
/// - `windDirection` ← `current.wind_direction_10m`, ° (from which the wind blows)
/// - `weatherCode` ← `current.weather_code`, WMO code; `isDay` ← `current.is_day` (0/1)
/// - `time` ← `current.time` (unix seconds, or local time and `utc_offset_seconds`), UTC
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
    /// The units asked for; also the fallback when the response does not label a value.
    public let units: UnitSystem
    public let http: any HTTPClient

    /// The `current=` variables requested, in this order.
    public static let currentVariables = [
        "temperature_2m", "relative_humidity_2m", "apparent_temperature", "is_day",
        "weather_code", "wind_speed_10m", "wind_direction_10m",
    ]

    /// Decimal places printed for coordinates at most. The caller has already rounded them to
    /// the configured precision (0–4); this only guards against binary noise such as `44.440000001`.
    public static let maxCoordinateDecimals = 6

    public init(baseURL: String, units: UnitSystem, http: any HTTPClient) {
        var base = baseURL
        while base.hasSuffix("/") { base.removeLast() }
        self.baseURL = base
        self.units = units
        self.http = http
    }

    /// The request URL for `coordinate`, e.g.
    /// `<base>/v1/forecast?latitude=44.44&longitude=26.1&current=temperature_2m,…&timeformat=unixtime&temperature_unit=celsius&wind_speed_unit=kmh`.
    /// Coordinates are printed with no more decimals than they carry (never `44.440000`).
    public func requestURL(for coordinate: Coordinate) -> String {
        let latitude = Coordinate.text(coordinate.latitude, decimals: Self.maxCoordinateDecimals)
        let longitude = Coordinate.text(coordinate.longitude, decimals: Self.maxCoordinateDecimals)
        let unitParameters =
            switch units {
            case .metric: "temperature_unit=celsius&wind_speed_unit=kmh"
            case .imperial: "temperature_unit=fahrenheit&wind_speed_unit=mph"
            }
        return baseURL + "/v1/forecast?latitude=\(latitude)&longitude=\(longitude)"
            + "&current=" + Self.currentVariables.joined(separator: ",")
            + "&timeformat=unixtime&" + unitParameters
    }

    /// GETs ``requestURL(for:)`` and decodes the answer with ``decode(status:body:requested:)``.
    /// A non-2xx answer throws ``WeatherError/http(status:reason:retryAfter:)`` (or
    /// ``WeatherError/limited(status:window:reason:retryAfter:)``) carrying the `Retry-After`
    /// header in seconds when there is one (Open-Meteo sends none on 429): the client's
    /// ``HTTPResponse/retryAfter`` (both forms), else the delta-seconds form of the header.
    public func currentWeather(at coordinate: Coordinate) async throws(WeatherError) -> Weather {
        if Task.isCancelled { throw .cancelled }
        let response = try await http.get(requestURL(for: coordinate), headers: ["Accept": "application/json"])
        let retryAfter =
            response.retryAfter ?? response.headers["retry-after"].flatMap(Self.retryAfterSeconds)
        do {
            return try Self.decode(
                status: response.status, body: response.body, requested: units,
                contentType: response.headers["content-type"])
        } catch .http(let status, let reason, _) {
            throw .http(status: status, reason: reason, retryAfter: retryAfter)
        } catch .limited(let status, let window, let reason, _) {
            throw .limited(status: status, window: window, reason: reason, retryAfter: retryAfter)
        }
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
    /// - Units come from `current_units` (`"mp/h"` → `"mph"`); a missing or `"undefined"` unit
    ///   falls back to ``WeatherUnits/requested(_:)`` of `requested` (Open-Meteo's defaults are metric).
    /// - A success status with a body that is not JSON throws
    ///   ``WeatherError/notJSON(status:bytes:contentType:)`` (with `contentType`, the header).
    /// - Throws ``WeatherError/decoding(message:)`` naming the member when `current` is missing or a
    ///   member has the wrong type.
    public static func decode(
        status: Int, body: [UInt8], requested: UnitSystem = .metric, contentType: String? = nil
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
        return try document.weather(requested: requested)
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

    private static func parse(
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

    private static func describe(_ error: DecodingError) -> String {
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

// MARK: - Decoding

/// A JSON value as decoded by Foundation's `JSONDecoder`; the walk below checks types so that
/// errors can name the member path.
private enum JSONValue: Decodable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// `"a string"`, `"a number"`, … for error messages.
    var kind: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// The members of a `/v1/forecast` body that matter here. `hourly` and the rest are skipped
/// by the decoder without being materialised.
private struct OpenMeteoBody: Decodable {
    var error: JSONValue?
    var reason: JSONValue?
    var utcOffsetSeconds: JSONValue?
    var current: JSONValue?
    var currentUnits: JSONValue?

    private enum CodingKeys: String, CodingKey {
        case error, reason, current
        case utcOffsetSeconds = "utc_offset_seconds"
        case currentUnits = "current_units"
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        // `contains` + `decode` (not `decodeIfPresent`) keeps an explicit `null` apart from a missing member.
        func member(_ key: CodingKeys) throws -> JSONValue? {
            container.contains(key) ? try container.decode(JSONValue.self, forKey: key) : nil
        }
        error = try member(.error)
        reason = try member(.reason)
        utcOffsetSeconds = try member(.utcOffsetSeconds)
        current = try member(.current)
        currentUnits = try member(.currentUnits)
    }

    /// `{"error": true, …}` (Open-Meteo's documented error shape).
    var isError: Bool {
        if case .bool(true) = error { return true }
        return false
    }

    /// `reason` of `{"error":true,"reason":…}`, or of `{"reason":…}` without `error` (seen in
    /// a real limit answer); not when `error` is anything but `true`.
    var errorReason: String? {
        guard isError || error == nil, case .string(let text) = reason else { return nil }
        return text
    }

    func weather(requested: UnitSystem) throws(WeatherError) -> Weather {
        guard let current else { throw .decoding(message: "missing member 'current'") }
        guard case .object(let values) = current else {
            throw .decoding(message: "current is \(current.kind), expected an object")
        }
        let fallback = WeatherUnits.requested(requested)
        var units = fallback
        if let currentUnits {
            guard case .object(let labels) = currentUnits else {
                throw .decoding(message: "current_units is \(currentUnits.kind), expected an object")
            }
            func unit(_ key: String, _ fallback: String) throws(WeatherError) -> String {
                switch labels[key] {
                case nil, .null: return fallback
                case .string(let text):
                    let trimmed = text.trimmingASCIIWhitespace()
                    return trimmed.isEmpty || trimmed == "undefined" ? fallback : Self.normalisedUnit(trimmed)
                case let other?:
                    throw .decoding(message: "current_units.\(key) is \(other.kind), expected a string")
                }
            }
            units = WeatherUnits(
                temperature: try unit("temperature_2m", fallback.temperature),
                windSpeed: try unit("wind_speed_10m", fallback.windSpeed),
                windDirection: try unit("wind_direction_10m", fallback.windDirection),
                relativeHumidity: try unit("relative_humidity_2m", fallback.relativeHumidity))
        }

        func number(_ key: String) throws(WeatherError) -> Double? {
            switch values[key] {
            case nil, .null: return nil
            case .number(let value): return value
            case let other?: throw .decoding(message: "current.\(key) is \(other.kind), expected a number")
            }
        }

        var weatherCode: Int?
        if let code = try number("weather_code") {
            // Open-Meteo has been seen to send `3.0`; a fraction is not a WMO code.
            guard code.rounded() == code, abs(code) < 1_000_000 else {
                throw .decoding(message: "current.weather_code is \(code), expected an integer")
            }
            weatherCode = Int(code)
        }

        var isDay: Bool?
        switch values["is_day"] {
        case nil, .null: isDay = nil
        case .bool(let flag): isDay = flag
        case .number(1): isDay = true
        case .number(0): isDay = false
        case .number(let other): throw .decoding(message: "current.is_day is \(other), expected 0 or 1")
        case let other?: throw .decoding(message: "current.is_day is \(other.kind), expected 0 or 1")
        }

        return Weather(
            temperature: try number("temperature_2m"),
            apparentTemperature: try number("apparent_temperature"),
            relativeHumidity: try number("relative_humidity_2m"),
            windSpeed: try number("wind_speed_10m"),
            windDirection: try number("wind_direction_10m"),
            weatherCode: weatherCode,
            isDay: isDay,
            time: try time(values["time"]),
            units: units)
    }

    /// `current.time`: unix seconds, or local `yyyy-MM-ddTHH:mm[:ss]` minus `utc_offset_seconds`.
    private func time(_ value: JSONValue?) throws(WeatherError) -> Date? {
        switch value {
        case nil, .null: return nil
        case .number(let seconds): return Date(timeIntervalSince1970: seconds)
        case .string(let text):
            guard let local = Self.localTime(text) else {
                throw .decoding(message: "current.time is \"\(text)\", expected unix seconds or yyyy-MM-ddTHH:mm")
            }
            var offset = 0.0
            switch utcOffsetSeconds {
            // Without the member the API's default zone applies, which is GMT.
            case nil, .null: offset = 0
            case .number(let seconds): offset = seconds
            case let other?: throw .decoding(message: "utc_offset_seconds is \(other.kind), expected a number")
            }
            return Date(timeIntervalSince1970: local - offset)
        case let other?:
            throw .decoding(message: "current.time is \(other.kind), expected a number or a string")
        }
    }

    /// Seconds since 1970 of a wall-clock time read as if it were UTC, via a Gregorian
    /// calendar in GMT; `nil` unless `text` is `yyyy-MM-ddTHH:mm` or `yyyy-MM-ddTHH:mm:ss`.
    static func localTime(_ text: String) -> Double? {
        let parts = text.split(separator: "T", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        let day = parts[0].split(separator: "-", omittingEmptySubsequences: false)
        let clock = parts[1].split(separator: ":", omittingEmptySubsequences: false)
        guard day.count == 3, clock.count == 2 || clock.count == 3,
            day[0].count == 4,
            (day + clock).allSatisfy({ $0.count >= 2 && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let year = Int(day[0]), let month = Int(day[1]), let dayOfMonth = Int(day[2]),
            let hour = Int(clock[0]), let minute = Int(clock[1]),
            (1...12).contains(month), (1...31).contains(dayOfMonth), (0...23).contains(hour), (0...59).contains(minute)
        else { return nil }
        var second = 0
        if clock.count == 3 {
            guard let s = Int(clock[2]), (0...60).contains(s) else { return nil }
            second = s
        }
        var calendar = Calendar(identifier: .gregorian)
        guard let gmt = TimeZone(secondsFromGMT: 0) else { return nil }
        calendar.timeZone = gmt
        let components = DateComponents(
            year: year, month: month, day: dayOfMonth, hour: hour, minute: minute, second: second)
        guard let date = calendar.date(from: components),
            calendar.component(.day, from: date) == dayOfMonth  // rejects 2026-02-30
        else { return nil }
        return date.timeIntervalSince1970
    }

    /// Open-Meteo spells miles per hour `"mp/h"`.
    static func normalisedUnit(_ unit: String) -> String {
        unit == "mp/h" ? "mph" : unit
    }
}

extension String {
    func trimmingASCIIWhitespace() -> String {
        guard let start = firstIndex(where: { !$0.isWhitespace }), let end = lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return String(self[start...end])
    }
}
