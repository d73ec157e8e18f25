#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WundercastSupport

/// The base of the units published. Config `[Weather] Units=`; each quantity can be overridden
/// (``UnitPreferences``).
public enum UnitSystem: String, Sendable, Codable, CaseIterable {
    /// °C, km/h, hPa, mm (and %, °).
    case metric
    /// °F, mph, inHg, in (and %, °).
    case imperial
}

/// Unit strings of each ``Weather`` value. After ``Weather/converted(to:)`` (which every
/// provider applies) they are the wanted units' labels (``PhysicalUnit/label``); a unit string
/// the daemon does not know stays as the provider labelled it (Open-Meteo `current_units`).
public struct WeatherUnits: Sendable, Equatable, Codable {
    /// `"°C"` or `"°F"` (`"K"` only when asked for in code).
    public var temperature: String
    /// `"km/h"`, `"m/s"`, `"mph"` or `"kn"`.
    public var windSpeed: String
    /// `"°"` (degrees from which the wind blows, clockwise from north).
    public var windDirection: String
    /// `"%"`.
    public var relativeHumidity: String

    public init(temperature: String, windSpeed: String, windDirection: String = "°", relativeHumidity: String = "%") {
        self.temperature = temperature
        self.windSpeed = windSpeed
        self.windDirection = windDirection
        self.relativeHumidity = relativeHumidity
    }

    /// The units a provider is asked for under `system`.
    public static func requested(_ system: UnitSystem) -> WeatherUnits {
        switch system {
        case .metric: WeatherUnits(temperature: "°C", windSpeed: "km/h")
        case .imperial: WeatherUnits(temperature: "°F", windSpeed: "mph")
        }
    }
}

/// Current weather at one place, as one provider reported it. Any value the provider
/// sent as `null` or left out is `nil`; `-0` is stored as `0`.
public struct Weather: Sendable, Equatable, Codable {
    /// Air temperature at 2 m, in ``units``.temperature. Source: Open-Meteo `current.temperature_2m`.
    public var temperature: Double?
    /// Apparent ("feels like") temperature, in ``units``.temperature. Source: Open-Meteo `current.apparent_temperature`.
    public var apparentTemperature: Double?
    /// Relative humidity at 2 m, percent. Source: Open-Meteo `current.relative_humidity_2m`.
    public var relativeHumidity: Double?
    /// Wind speed at 10 m, in ``units``.windSpeed. Source: Open-Meteo `current.wind_speed_10m`.
    public var windSpeed: Double?
    /// Wind direction at 10 m, degrees (from which it blows). Source: Open-Meteo `current.wind_direction_10m`.
    public var windDirection: Double?
    /// WMO weather interpretation code (WMO 4677 subset, 0–99). Source: Open-Meteo `current.weather_code`.
    public var weatherCode: Int?
    /// OpenWeatherMap condition id, e.g. `803`, when the provider is OpenWeatherMap
    /// (`weather[0].id`); ``weatherCode`` is then absent: an id is never turned into a WMO code.
    /// The condition model of any of the three: ``conditionModel``.
    public var openWeatherMapID: Int?
    /// MET Norway symbol code, e.g. `"partlycloudy_night"` (at most 64 characters, no control
    /// characters). Source: met.no `next_1_hours.summary.symbol_code` (else `next_6_hours`,
    /// `next_12_hours`). Absent for the other providers; never turned into a WMO code.
    public var symbolCode: String?
    /// Text for ``weatherCode`` in English, e.g. `"Overcast"` (see ``WMOWeatherCode``); with
    /// OpenWeatherMap its own text in `[Weather] Language=` (`weather[0].description`); for
    /// ``symbolCode`` the condition model's name (``WeatherCondition/Kind/name``).
    public var condition: String?
    /// The language of ``condition`` (and of each forecast hour's) when the administrator chose
    /// one: OpenWeatherMap with `[Weather] Language=` set (its code, `de`, `pt_br`). Absent
    /// otherwise — ``condition`` is then English and a reader names the condition from its code
    /// in the reader's own language (``conditionName``).
    public var conditionLanguage: String?
    /// `true` by day, `false` by night. Source: Open-Meteo `current.is_day`.
    public var isDay: Bool?
    /// Icon name from the freedesktop icon naming spec (`weather-clear-night`, …), for
    /// ``weatherCode`` or ``symbolCode``.
    public var icon: String?
    /// Observation time (UTC). Source: Open-Meteo `current.time`.
    public var time: Date?
    /// Units of the values above.
    public var units: WeatherUnits
    /// The hours and days after ``time``, as the same answer gave them; `nil` when it gave none
    /// (see ``Forecast``).
    public var forecast: Forecast?
    /// The sea state at the position (``SeaState``), from Open-Meteo's Marine API whatever the
    /// provider; absent with `Marine=no`, over land, and when the Marine API did not answer.
    public var marine: SeaState?

    public init(
        temperature: Double? = nil, apparentTemperature: Double? = nil, relativeHumidity: Double? = nil,
        windSpeed: Double? = nil, windDirection: Double? = nil, weatherCode: Int? = nil,
        isDay: Bool? = nil, time: Date? = nil, units: WeatherUnits, forecast: Forecast? = nil,
        symbolCode: String? = nil
    ) {
        self.temperature = temperature.map(Weather.noNegativeZero)
        self.apparentTemperature = apparentTemperature.map(Weather.noNegativeZero)
        self.relativeHumidity = relativeHumidity.map(Weather.noNegativeZero)
        self.windSpeed = windSpeed.map(Weather.noNegativeZero)
        self.windDirection = windDirection.map(Weather.noNegativeZero)
        self.weatherCode = weatherCode
        self.isDay = isDay
        self.time = time
        self.units = units
        self.forecast = forecast
        self.symbolCode = symbolCode
        (condition, icon) = WeatherCondition.texts(weatherCode: weatherCode, symbolCode: symbolCode, isDay: isDay)
    }

    package static func noNegativeZero(_ x: Double) -> Double { x == 0 ? 0 : x }
}

/// WMO weather interpretation codes (WW) as Open-Meteo documents them.
public enum WMOWeatherCode {
    /// English text for `code`, or `nil` for a code outside the table. Each is a message of
    /// wundercastctl's catalogue (``WundercastSupport/N_(_:)``): readers see it in their language.
    public static func description(of code: Int) -> String? {
        switch code {
        case 0: N_("Clear sky")
        case 1: N_("Mainly clear")
        case 2: N_("Partly cloudy")
        case 3: N_("Overcast")
        case 45: N_("Fog")
        case 48: N_("Depositing rime fog")
        case 51: N_("Light drizzle")
        case 53: N_("Moderate drizzle")
        case 55: N_("Dense drizzle")
        case 56: N_("Light freezing drizzle")
        case 57: N_("Dense freezing drizzle")
        case 61: N_("Slight rain")
        case 63: N_("Moderate rain")
        case 65: N_("Heavy rain")
        case 66: N_("Light freezing rain")
        case 67: N_("Heavy freezing rain")
        case 71: N_("Slight snow fall")
        case 73: N_("Moderate snow fall")
        case 75: N_("Heavy snow fall")
        case 77: N_("Snow grains")
        case 80: N_("Slight rain showers")
        case 81: N_("Moderate rain showers")
        case 82: N_("Violent rain showers")
        case 85: N_("Slight snow showers")
        case 86: N_("Heavy snow showers")
        case 95: N_("Thunderstorm")
        case 96: N_("Thunderstorm with slight hail")
        case 99: N_("Thunderstorm with heavy hail")
        default: nil
        }
    }

    /// freedesktop icon name for `code` (by day or night), or `nil` for an unknown code.
    public static func icon(of code: Int, isDay: Bool) -> String? {
        switch code {
        case 0, 1: isDay ? "weather-clear" : "weather-clear-night"
        case 2: isDay ? "weather-few-clouds" : "weather-few-clouds-night"
        case 3: "weather-overcast"
        case 45, 48: "weather-fog"
        case 51, 53, 55, 56, 57, 61, 80: "weather-showers-scattered"
        case 63, 65, 66, 67, 81, 82: "weather-showers"
        case 71, 73, 75, 77, 85, 86: "weather-snow"
        case 95, 96, 99: "weather-storm"
        default: nil
        }
    }
}
