#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a provider forecasts after its observation time, published as `weather.forecast`
/// (docs/PROTOCOL.md). Every member is what the provider gave, left out when it gave nothing
/// (never `null`, never invented; `-0` is stored as `0`), except ``pressureTendency``, which
/// the daemon computes.
///
/// Times are instants (ISO 8601 UTC in JSON, like `weather.time`); ``utcOffsetSeconds`` is the
/// place's offset from UTC at the observation time, so that a reader can show local clock times.
public struct Forecast: Sendable, Equatable, Codable {
    /// One hour of the forecast. Source: Open-Meteo `hourly.*` at `hourly.time`.
    public struct Hour: Sendable, Equatable, Codable {
        /// Start of the hour (UTC). Source: Open-Meteo `hourly.time`.
        public var time: Date
        /// Air temperature at 2 m, in ``Units/temperature``. Source: Open-Meteo `hourly.temperature_2m`.
        public var temperature: Double?
        /// Chance of precipitation, percent (0–100). Source: Open-Meteo `hourly.precipitation_probability`.
        public var precipitationProbability: Double?
        /// Precipitation (rain, showers, snow) of the preceding hour, in ``Units/precipitation``.
        /// Source: Open-Meteo `hourly.precipitation`.
        public var precipitation: Double?
        /// WMO weather interpretation code. Source: Open-Meteo `hourly.weather_code`.
        public var weatherCode: Int?
        /// OpenWeatherMap condition id (`list[].weather[0].id`), as `weather.openWeatherMapID`.
        public var openWeatherMapID: Int?
        /// MET Norway symbol code of the hour starting at ``time`` (as `weather.symbolCode`).
        /// Source: met.no `next_1_hours.summary.symbol_code` (else 6 or 12 hours).
        public var symbolCode: String?
        /// Text for ``weatherCode`` or ``symbolCode`` in English (see ``WMOWeatherCode``), or
        /// OpenWeatherMap's own text, as `weather.condition`.
        public var condition: String?
        /// `true` by day. Source: Open-Meteo `hourly.is_day`.
        public var isDay: Bool?
        /// freedesktop icon name for ``weatherCode``, as `weather.icon`.
        public var icon: String?

        public init(
            time: Date, temperature: Double? = nil, precipitationProbability: Double? = nil,
            precipitation: Double? = nil, weatherCode: Int? = nil, isDay: Bool? = nil, symbolCode: String? = nil
        ) {
            self.time = time
            self.temperature = temperature.map(Weather.noNegativeZero)
            self.precipitationProbability = precipitationProbability.map(Weather.noNegativeZero)
            self.precipitation = precipitation.map(Weather.noNegativeZero)
            self.weatherCode = weatherCode
            self.isDay = isDay
            self.symbolCode = symbolCode
            (condition, icon) = WeatherCondition.texts(weatherCode: weatherCode, symbolCode: symbolCode, isDay: isDay)
        }
    }

    /// Unit strings as the provider labelled them, each present only when a value of its
    /// quantity is. `"mp/h"` is normalised to `"mph"`.
    public struct Units: Sendable, Equatable, Codable {
        /// e.g. `"°C"`; for ``Hour/temperature``, ``Day/high`` and ``Day/low``.
        public var temperature: String?
        /// e.g. `"mm"`, `"inch"`; for ``Hour/precipitation`` and ``Day/precipitation``.
        public var precipitation: String?
        /// `"%"`; for ``Hour/precipitationProbability`` and ``Day/precipitationProbability``.
        public var precipitationProbability: String?
        /// e.g. `"km/h"`; for ``Forecast/windGusts``.
        public var windGusts: String?
        /// `"hPa"`; for ``Forecast/seaLevelPressure``.
        public var seaLevelPressure: String?
        /// e.g. `"km/h"`; for ``Day/windSpeed`` (a day's strongest wind).
        public var windSpeed: String?

        public init(
            temperature: String? = nil, precipitation: String? = nil, precipitationProbability: String? = nil,
            windGusts: String? = nil, seaLevelPressure: String? = nil, windSpeed: String? = nil
        ) {
            self.temperature = temperature
            self.precipitation = precipitation
            self.precipitationProbability = precipitationProbability
            self.windGusts = windGusts
            self.seaLevelPressure = seaLevelPressure
            self.windSpeed = windSpeed
        }
    }

    /// At most ``hoursAhead`` hours after the observation time, oldest first; absent when the
    /// provider gave no hourly series (or no observation time to count from).
    public var hours: [Hour]?
    /// The place's local days (``Day``), consecutive, from the local day of the observation
    /// time on, at most `[Weather] Days=` of them; the list ends before the first day the
    /// provider gives nothing for (so it has no gaps). Absent when there is none.
    public var days: [Day]? {
        didSet { if days?.isEmpty == true { days = nil } }
    }
    /// The first of ``days`` (the local day of the observation time): derived, published as
    /// `today` for readers of the protocol before ``days``. Setting it sets the first day
    /// (`nil`: no days at all).
    public var today: Day? {
        get { days?.first }
        set {
            guard let newValue else { return days = nil }
            if days == nil { days = [newValue] } else { days?[0] = newValue }
        }
    }
    /// The second of ``days``, published as `tomorrow` (derived as ``today``). Setting it sets
    /// the second day when there is a first (`nil`: only the first).
    public var tomorrow: Day? {
        get { (days?.count ?? 0) > 1 ? days?[1] : nil }
        set {
            guard var list = days else { return }
            list = Array(list.prefix(1)) + (newValue.map { [$0] } ?? []) + list.dropFirst(2)
            days = newValue == nil ? Array(list.prefix(1)) : list
        }
    }
    /// The IANA name of the time zone whose clock ``days`` follow (`Europe/Amsterdam`, or
    /// Open-Meteo's `Etc/GMT+9` at sea), when known. Source: Open-Meteo `timezone`; absent for
    /// the other providers (MET Norway's days follow the nearest city's zone, which is not
    /// named here; OpenWeatherMap gives only an offset).
    public var timeZone: String?
    /// `true` when ``days`` follow the nautical time zone of the place's longitude (at sea, far
    /// from any city: ``ZoneOffset/nauticalOffset(longitude:)``, or Open-Meteo's `Etc/GMT±h`);
    /// absent otherwise.
    public var nauticalTime: Bool?
    /// Wind gusts at 10 m at the observation time, in ``Units/windGusts``. Source: Open-Meteo `current.wind_gusts_10m`.
    public var windGusts: Double?
    /// Air pressure reduced to mean sea level at the observation time, in ``Units/seaLevelPressure``
    /// (hPa). Source: Open-Meteo `current.pressure_msl`.
    public var seaLevelPressure: Double?
    /// Computed: the 3-hour change of sea-level pressure (see ``PressureTendency``).
    public var pressureTendency: PressureTendency?
    /// The place's offset from UTC in seconds at the observation time. Source: Open-Meteo
    /// `utc_offset_seconds` (with `timezone=auto`).
    public var utcOffsetSeconds: Int?
    public var units: Units

    /// Hours published after the observation time.
    public static let hoursAhead = 12
    /// `[Weather] Days=`: the fewest, default and most local days a forecast publishes.
    public static let dayRange = 1...7
    public static let defaultDays = 3
    /// `asked` days brought into ``dayRange`` (a provider built with any number asks for 1…7).
    public static func dayCount(_ asked: Int) -> Int { min(max(asked, dayRange.lowerBound), dayRange.upperBound) }

    public init(
        hours: [Hour]? = nil, days: [Day]? = nil, windGusts: Double? = nil,
        seaLevelPressure: Double? = nil, pressureTendency: PressureTendency? = nil, utcOffsetSeconds: Int? = nil,
        units: Units = Units()
    ) {
        self.hours = hours?.isEmpty == true ? nil : hours
        self.days = days?.isEmpty == true ? nil : days
        self.windGusts = windGusts.map(Weather.noNegativeZero)
        self.seaLevelPressure = seaLevelPressure.map(Weather.noNegativeZero)
        self.pressureTendency = pressureTendency
        self.utcOffsetSeconds = utcOffsetSeconds
        self.units = units
    }

    /// ``units`` with only the units of values the forecast holds: the temperature unit with an
    /// hour's temperature or a day's high or low, the precipitation and chance units with an
    /// hour's value, gusts and pressure units with those values. What the state publishes as
    /// `forecast.units` (docs/PROTOCOL.md): a unit whose values were never given, or were left
    /// out later (``withoutImpossibleValues()``), is not named.
    public var unitsOfPresentValues: Units {
        let hours = hours ?? []
        let days = days ?? []
        func kept(_ unit: String?, _ present: Bool) -> String? { present ? unit : nil }
        return Units(
            temperature: kept(
                units.temperature,
                hours.contains { $0.temperature != nil } || days.contains { $0.high != nil || $0.low != nil }),
            precipitation: kept(
                units.precipitation,
                hours.contains { $0.precipitation != nil } || days.contains { $0.precipitation != nil }),
            precipitationProbability: kept(
                units.precipitationProbability,
                hours.contains { $0.precipitationProbability != nil }
                    || days.contains { $0.precipitationProbability != nil }),
            windGusts: kept(units.windGusts, windGusts != nil),
            seaLevelPressure: kept(units.seaLevelPressure, seaLevelPressure != nil),
            windSpeed: kept(units.windSpeed, days.contains { $0.windSpeed != nil }))
    }

    /// Whether the forecast holds no value at all (then it is left out of the state).
    public var isEmpty: Bool {
        hours == nil && days == nil && windGusts == nil && seaLevelPressure == nil && pressureTendency == nil
    }
}
