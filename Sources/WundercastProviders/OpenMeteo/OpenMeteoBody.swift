#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WundercastSupport
import WundercastModel

/// The members of a `/v1/forecast` body that matter here; others (`minutely_15`, the legacy
/// `current_weather`, …) are skipped by the decoder without being materialised. The forecast
/// blocks are read in `OpenMeteoBody+Forecast.swift`.
struct OpenMeteoBody: Decodable {
    var error: JSONValue?
    var reason: JSONValue?
    var utcOffsetSeconds: JSONValue?
    var current: JSONValue?
    var currentUnits: JSONValue?
    var hourly: JSONValue?
    var hourlyUnits: JSONValue?
    var daily: JSONValue?
    var dailyUnits: JSONValue?
    /// The grid cell's position, which every answer carries (for the sun when `is_day` is missing).
    var latitude: JSONValue?
    var longitude: JSONValue?
    /// The IANA name of the place's time zone (`timezone=auto`), e.g. `Etc/GMT+9` at sea.
    var timezone: JSONValue?

    private enum CodingKeys: String, CodingKey {
        case error, reason, current, hourly, daily, latitude, longitude, timezone
        case utcOffsetSeconds = "utc_offset_seconds"
        case currentUnits = "current_units"
        case hourlyUnits = "hourly_units"
        case dailyUnits = "daily_units"
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
        hourly = try member(.hourly)
        hourlyUnits = try member(.hourlyUnits)
        daily = try member(.daily)
        dailyUnits = try member(.dailyUnits)
        latitude = try member(.latitude)
        longitude = try member(.longitude)
        timezone = try member(.timezone)
    }

    /// Day or night at `time` where `is_day` was not given: from the sun's altitude at the
    /// answer's `latitude`/`longitude` (computed, ``Sun/isDay(at:time:)``); nil without them.
    func sunIsUp(at time: Date?) -> Bool? {
        guard let time, case .number(let latitude)? = latitude, case .number(let longitude)? = longitude,
            abs(latitude) <= 90, abs(longitude) <= 180
        else { return nil }
        return Sun.isDay(at: Coordinate(latitude: latitude, longitude: longitude), time: time)
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

    /// The current weather, with its forecast (``forecast(observed:requested:)``) when the body has one.
    /// Values stay in the units the body labels them with (`requested`: what was asked, for values
    /// it does not label); the caller converts.
    func weather(requested: UnitPreferences) throws(WeatherError) -> Weather {
        guard let current else { throw .decoding(message: "missing member 'current'") }
        guard case .object(let values) = current else {
            throw .decoding(message: "current is \(current.kind), expected an object")
        }
        let fallback = WeatherUnits.wanted(requested)
        let labels = try ProviderDecoding.object(currentUnits, name: "current_units") ?? [:]
        func unit(_ key: String, _ fallback: String) throws(WeatherError) -> String {
            try ProviderDecoding.unit(labels, "current_units", key) ?? fallback
        }
        let units = WeatherUnits(
            temperature: try unit("temperature_2m", fallback.temperature),
            windSpeed: try unit("wind_speed_10m", fallback.windSpeed),
            windDirection: try unit("wind_direction_10m", fallback.windDirection),
            relativeHumidity: try unit("relative_humidity_2m", fallback.relativeHumidity))
        func number(_ key: String) throws(WeatherError) -> Double? {
            try ProviderDecoding.number(values[key], "current.\(key)")
        }
        let time = try instant(values["time"], "current.time")
        var weather = Weather(
            temperature: try number("temperature_2m"),
            apparentTemperature: try number("apparent_temperature"),
            relativeHumidity: try number("relative_humidity_2m"),
            windSpeed: try number("wind_speed_10m"),
            windDirection: try number("wind_direction_10m"),
            weatherCode: try Self.code(number("weather_code"), "current.weather_code"),
            isDay: try Self.flag(values["is_day"], "current.is_day") ?? sunIsUp(at: time),
            time: time,
            units: units)
        weather.forecast = try forecast(current: values, labels: labels, observed: time, requested: requested)
        return weather
    }

    // MARK: Typed members

    /// A WMO code: Open-Meteo has been seen to send `3.0`; a fraction is not a WMO code.
    static func code(_ value: Double?, _ path: String) throws(WeatherError) -> Int? {
        guard let value else { return nil }
        guard value.rounded() == value, abs(value) < 1_000_000 else {
            throw .decoding(message: "\(path) is \(value), expected an integer")
        }
        return Int(value)
    }

    /// `is_day`: 0 or 1 (or a boolean).
    static func flag(_ value: JSONValue?, _ path: String) throws(WeatherError) -> Bool? {
        switch value {
        case nil, .null: return nil
        case .bool(let flag): return flag
        case .number(1): return true
        case .number(0): return false
        case .number(let other): throw .decoding(message: "\(path) is \(other), expected 0 or 1")
        case let other?: throw .decoding(message: "\(path) is \(other.kind), expected 0 or 1")
        }
    }

    /// `utc_offset_seconds`; without the member the API's default zone applies, which is GMT.
    /// Offsets on Earth lie within ±18 h; a whole number of seconds in that range is accepted.
    func offsetSeconds() throws(WeatherError) -> Double {
        switch utcOffsetSeconds {
        case nil, .null: return 0
        case .number(let seconds):
            guard seconds.rounded() == seconds, abs(seconds) <= 18 * 3600 else {
                throw .decoding(message: "utc_offset_seconds is \(seconds), expected whole seconds within ±18 h")
            }
            return seconds
        case let other?: throw .decoding(message: "utc_offset_seconds is \(other.kind), expected a number")
        }
    }

    /// An instant at `path`: unix seconds, or local `yyyy-MM-ddTHH:mm[:ss]` minus `utc_offset_seconds`.
    func instant(_ value: JSONValue?, _ path: String) throws(WeatherError) -> Date? {
        switch value {
        case nil, .null: return nil
        case .number(let seconds):
            // ±10¹¹ s is about ±3,000 years: anything beyond is not a time of weather.
            guard abs(seconds) < 1e11 else { throw .decoding(message: "\(path) is \(seconds), expected unix seconds") }
            return Date(timeIntervalSince1970: seconds)
        case .string(let text):
            guard let local = ISO8601Time.localSeconds(Substring(text)).map(Double.init) else {
                throw .decoding(message: "\(path) is \"\(text)\", expected unix seconds or yyyy-MM-ddTHH:mm")
            }
            return Date(timeIntervalSince1970: local - (try offsetSeconds()))
        case let other?:
            throw .decoding(message: "\(path) is \(other.kind), expected a number or a string")
        }
    }
}
