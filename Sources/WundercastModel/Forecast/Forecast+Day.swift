#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Forecast {
    /// One local calendar day of the place (`weather.forecast.days[]`, docs/PROTOCOL.md). Sources:
    /// Open-Meteo `daily.*`; MET Norway and OpenWeatherMap **aggregated** from their time steps
    /// (``DailyAggregation``, then ``aggregated`` is `true`). A value not given is left out.
    public struct Day: Sendable, Equatable, Codable {
        /// The place's local date, `yyyy-MM-dd` (`daily.time`).
        public var date: String
        /// Highest air temperature at 2 m, in ``Units/temperature``. Source: `daily.temperature_2m_max`.
        public var high: Double?
        /// Lowest air temperature at 2 m, in ``Units/temperature``. Source: `daily.temperature_2m_min`.
        public var low: Double?
        /// Precipitation of the day, in ``Units/precipitation``. Source: `daily.precipitation_sum`.
        public var precipitation: Double?
        /// Highest chance of precipitation of the day, percent. Source: `daily.precipitation_probability_max`.
        public var precipitationProbability: Double?
        /// Strongest wind at 10 m, in ``Units/windSpeed``. Source: `daily.wind_speed_10m_max`.
        public var windSpeed: Double?
        /// Dominant wind direction, degrees (from which the wind blows). Source:
        /// `daily.wind_direction_10m_dominant` (aggregated days: the direction of the strongest wind).
        public var windDirection: Double?
        /// WMO weather code of the day (Open-Meteo: the most severe of the day). Source: `daily.weather_code`.
        public var weatherCode: Int?
        /// MET Norway symbol code of the step nearest the day's local noon.
        public var symbolCode: String?
        /// OpenWeatherMap condition id of the step nearest the day's local noon.
        public var openWeatherMapID: Int?
        /// English text of the day's condition (as ``Hour/condition``).
        public var condition: String?
        /// freedesktop icon name of the day's condition: the day variant (Open-Meteo), else the
        /// icon of the step whose condition the day takes.
        public var icon: String?
        /// Sunrise and sunset as instants (UTC). Source: `daily.sunrise`, `daily.sunset`;
        /// computed on the machine for MET Norway (``Sun``).
        public var sunrise: Date?
        public var sunset: Date?
        /// `true` when the day was computed from the provider's time steps (MET Norway,
        /// OpenWeatherMap), not given by it; absent otherwise.
        public var aggregated: Bool?
        /// `true` when the provider's steps cover only part of the day: its high, low, amounts
        /// and wind are of the covered part only (``DailyAggregation``). Absent for a whole day.
        public var partial: Bool?
        /// For a ``partial`` day whose steps end before the day does (the last of a series): the
        /// instant (UTC) they end, its values being of the day until then. Absent otherwise.
        public var coveredUntil: Date?

        public init(
            date: String, high: Double? = nil, low: Double? = nil, precipitation: Double? = nil,
            precipitationProbability: Double? = nil, windSpeed: Double? = nil, windDirection: Double? = nil,
            weatherCode: Int? = nil, symbolCode: String? = nil, sunrise: Date? = nil, sunset: Date? = nil,
            aggregated: Bool? = nil, partial: Bool? = nil, coveredUntil: Date? = nil
        ) {
            self.date = date
            self.high = high.map(Weather.noNegativeZero)
            self.low = low.map(Weather.noNegativeZero)
            self.precipitation = precipitation.map(Weather.noNegativeZero)
            self.precipitationProbability = precipitationProbability.map(Weather.noNegativeZero)
            self.windSpeed = windSpeed.map(Weather.noNegativeZero)
            self.windDirection = windDirection.map(Weather.noNegativeZero)
            self.weatherCode = weatherCode
            self.symbolCode = symbolCode
            self.sunrise = sunrise
            self.sunset = sunset
            self.aggregated = aggregated
            self.partial = partial
            self.coveredUntil = coveredUntil
            (condition, icon) = WeatherCondition.texts(weatherCode: weatherCode, symbolCode: symbolCode, isDay: true)
        }

        /// Whether the provider gave anything for the day besides its date.
        public var isEmpty: Bool {
            high == nil && low == nil && sunrise == nil && sunset == nil && precipitation == nil
                && precipitationProbability == nil && windSpeed == nil && windDirection == nil && weatherCode == nil
                && symbolCode == nil && openWeatherMapID == nil
        }

        /// The day's condition from an hour's (the codes, texts and the day icon of `hour`).
        public mutating func takeCondition(of hour: Forecast.Hour) {
            weatherCode = hour.weatherCode
            symbolCode = hour.symbolCode
            openWeatherMapID = hour.openWeatherMapID
            condition = hour.condition
            icon = hour.icon
        }
    }

    /// ``days`` from the first on, ending before the first empty one and after `limit` days.
    public static func consecutive(_ days: [Day?], limit: Int) -> [Day]? {
        var out: [Day] = []
        for day in days.prefix(limit) {
            guard let day, !day.isEmpty else { break }
            out.append(day)
        }
        return out.isEmpty ? nil : out
    }
}
