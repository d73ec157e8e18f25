#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WundercastSupport
import WundercastModel

/// The placeholders of `--template` (`{icon} {temperature}{unit} {condition} {place}`), each
/// with the value it expands to. A value the state does not have expands to nothing. Numbers
/// are rounded by ``DisplayRounding`` (never `-0`).
public enum Placeholder: String, Sendable, CaseIterable {
    /// The condition's icon in the `--icons` set, by day or night.
    case icon
    /// Air temperature, rounded to whole degrees (`-5`). Source: `weather.temperature`.
    case temperature
    /// Apparent ("feels like") temperature, whole degrees. Source: `weather.apparentTemperature`.
    case apparent
    /// The temperature unit (`°C`, `°F`). Source: `weather.units.temperature`.
    case unit
    /// The condition (`Clear sky`) in the reader's language, from the provider's code
    /// (`weather.weatherCode`, `openWeatherMapID`, `symbolCode`); OpenWeatherMap's own
    /// `weather.condition` when the daemon's `Language=` chose its language.
    case condition
    /// Relative humidity in percent with its sign (`72%`). Source: `weather.relativeHumidity`.
    case humidity
    /// Wind speed, whole units, with the unit (`5 km/h`). Source: `weather.windSpeed`.
    case wind
    /// 8-point compass direction the wind blows from (`E`). Source: `weather.windDirection`.
    case windDirection
    /// Wind gusts, whole units, with the unit (`12 km/h`). Source: `weather.forecast.windGusts`.
    case gusts
    /// Sea-level pressure with the unit (`1035 hPa`, `30.56 inHg`). Source: `weather.forecast.seaLevelPressure`.
    case pressure
    /// Computed 3-hour pressure tendency with the change and its unit (`rising +1.3 hPa/3h`). Source:
    /// `weather.forecast.pressureTendency`.
    case pressureTendency
    /// Chance of precipitation in the next hour, whole percent (`20%`). Source:
    /// `precipitationProbability` of the first of `weather.forecast.hours` not ended on the
    /// reader's clock.
    case precipitationProbability
    /// Today's high and low at the place, whole degrees (`-0` never). Source: `high`, `low` of
    /// the day of `weather.forecast.days` dated the place's today on the reader's clock (none
    /// when the days have passed). A day marked `partial` (MET Norway's and OpenWeatherMap's
    /// today, built from the steps from the observation on) gives those of the rest of the day.
    case high
    case low
    /// Today's sunrise and sunset on the place's clock (`07:32`; with ` UTC` when the offset is
    /// unknown). Source: `sunrise`, `sunset` of that same day, `weather.forecast.utcOffsetSeconds`.
    case sunrise
    case sunset
    /// The place: the configured name, else `12 km NE of Regensburg` / `near Regensburg`.
    case place
    /// Distance from the nearest place in whole km (`12 km`). Source: `location.place.distance`.
    case distance
    /// Direction from the nearest place to the position (`NE`). Source: `location.place.bearing`.
    case bearing
    /// Degrees as published (rounded by the daemon). Source: `location.latitude`, `.longitude`.
    case latitude
    case longitude
    /// Speed over ground while moving, to 0.1, with the unit (`4.2 kn`); nothing at rest and for
    /// a public reader. Source: `location.motion.speed` and its unit.
    case speed
    /// Course over ground while moving, whole degrees true (`212°`); nothing at rest and for a
    /// public reader. Source: `location.motion.course`.
    case course
    /// Age of the weather (`just now`, `2 min ago`). Source: `fetchedAt`.
    case age
    /// The state's status (`fresh`, `stale`, `offline`, `error`, `fetching`, `noLocation`).
    case status
    /// The weather provider (`open-meteo`).
    case provider
    /// The most severe official alert in force: its event, at most 40 characters (`Winter Storm
    /// Warning`); nothing without one. Source: `alerts.items[0].event` (the daemon orders them).
    case alert
    /// Sea state (`Marine=`): significant wave height with its unit (`1.2 m`, `4.1 ft`); the
    /// mean wave period (`5 s`); the swell's height (`0.3 m`); the sea-surface temperature in
    /// whole degrees with its unit (`18°C`); the ocean current's speed (`0.6 kn`, `1.1 km/h`).
    /// Source: `weather.marine.waveHeight`, `.wavePeriod`, `.swellHeight`, `.seaTemperature`,
    /// `.currentVelocity` (see `Placeholder+Marine.swift`).
    case waves
    case wavePeriod
    case swell
    case seaTemperature
    case current

    /// A temperature that `{unit}` after it labels: `{temperature}`, `{apparent}`, `{high}`, `{low}`.
    /// A template's `{unit}` shows only when the last of these before it has a value
    /// (``Template/render(_:)``): a missing value leaves no bare `°C`.
    public var isTemperature: Bool {
        switch self {
        case .temperature, .apparent, .high, .low: true
        default: false
        }
    }

    /// One line per placeholder for `--help` and the README.
    public var summary: String {
        switch self {
        case .icon: "condition icon (--icons)"
        case .temperature: "temperature, whole degrees (-5)"
        case .apparent: "apparent temperature, whole degrees"
        case .unit: "temperature unit (°C)"
        case .condition: "condition text (Clear sky)"
        case .humidity: "relative humidity (72%)"
        case .wind: "wind speed with unit (5 km/h)"
        case .windDirection: "compass direction the wind comes from (E)"
        case .gusts: "wind gusts with unit (12 km/h)"
        case .pressure: "sea-level pressure (1035 hPa)"
        case .pressureTendency: "3-hour pressure tendency (rising +1.3 hPa/3h)"
        case .precipitationProbability: "chance of precipitation in the next hour (20%)"
        case .high: "today's high, whole degrees"
        case .low: "today's low, whole degrees"
        case .sunrise: "today's sunrise, local time (07:32)"
        case .sunset: "today's sunset, local time (17:22)"
        case .place: "place (12 km NE of Regensburg)"
        case .distance: "distance from the nearest place (12 km)"
        case .bearing: "direction from the nearest place (NE)"
        case .latitude: "latitude as published"
        case .longitude: "longitude as published"
        case .speed: "speed over ground while moving (4.2 kn)"
        case .course: "course over ground while moving (212°)"
        case .age: "age of the weather (2 min ago)"
        case .status: "fresh, stale, offline, error, fetching, noLocation"
        case .provider: "weather provider (open-meteo)"
        case .alert: "most severe official alert in force (Winter Storm Warning)"
        case .waves: "significant wave height at sea (1.2 m)"
        case .wavePeriod: "mean wave period at sea (5 s)"
        case .swell: "swell height at sea (0.3 m)"
        case .seaTemperature: "sea-surface temperature (18°C)"
        case .current: "ocean current speed (0.6 kn)"
        }
    }

    /// The value of every placeholder `state` has, as seen at wall-clock `now`, in `locale`'s
    /// words, clock and decimal separator (`{status}`, `{latitude}`, `{longitude}` and
    /// `{provider}` stay as the daemon wrote them); texts from the daemon are sanitized (no
    /// control characters, bounded).
    public static func values(
        _ state: WeatherState, now: Date, icons: IconSet, locale: UserLocale = .english
    ) -> [Placeholder: String] {
        let state = state.stamped(now: now)
        var values: [Placeholder: String] = [:]
        values[.status] = state.status.rawValue
        let provider = UntrustedText.sanitized(state.provider, limit: 40)
        if !provider.isEmpty { values[.provider] = provider }
        if let weather = state.weather {
            let condition = weather.conditionModel
            values[.icon] = icons.icon(condition.kind, isDay: weather.isDay ?? true)
            values[.temperature] = weather.temperature.map(DisplayRounding.temperature)
            values[.apparent] = weather.apparentTemperature.map(DisplayRounding.temperature)
            let unit = UntrustedText.sanitized(weather.units.temperature, limit: 8)
            // The unit goes with a temperature: without one, `{temperature}{unit}` is blank.
            if !unit.isEmpty, weather.temperature != nil || weather.apparentTemperature != nil {
                values[.unit] = unit
            }
            values[.condition] = conditionText(weather, locale)
            values[.humidity] = weather.relativeHumidity.flatMap {
                withUnit(DisplayRounding.percent($0), "%", separator: "")
            }
            values[.wind] = weather.windSpeed.flatMap {
                withUnit(DisplayRounding.windSpeed($0), weather.units.windSpeed)
            }
            values[.windDirection] = weather.windDirection.map { PlaceText.compass($0, locale) }
            if weather.windSpeed == 0 { values[.windDirection] = nil }
            if let forecast = weather.forecast { forecastValues(forecast, now: now, locale, into: &values) }
            if let marine = weather.marine { marineValues(marine, locale, into: &values) }
        }
        if let location = state.location {
            values[.place] = PlaceText.location(location, locale)
            values[.latitude] = Coordinate.text(location.latitude, decimals: 6)
            values[.longitude] = Coordinate.text(location.longitude, decimals: 6)
            if let distance = location.place?.distance { values[.distance] = "\(PlaceText.kilometres(distance)) km" }
            if let bearing = location.place?.bearing.map({ UntrustedText.sanitized($0, limit: 3) }), !bearing.isEmpty {
                values[.bearing] = PlaceText.point(bearing, locale)
            }
            motionValues(location.motion, locale, into: &values)
        }
        if let alert = state.alerts?.mostSevere { values[.alert] = UntrustedText.sanitized(alert.event, limit: 40) }
        if let age = state.ageSeconds { values[.age] = HumanFormat.ageText(age, locale) }
        if state.ageUnknown == true { values[.age] = HumanFormat.unknownAge(locale) }
        return values.filter { !$0.value.isEmpty }
    }

    /// The values of the forecast's placeholders; the day ones (`{high}`, `{low}`, `{sunrise}`,
    /// `{sunset}`) of the day whose date is the place's day of wall-clock `now`, none without it.
    static func forecastValues(
        _ forecast: Forecast, now: Date, _ locale: UserLocale, into values: inout [Placeholder: String]
    ) {
        let units = forecast.units
        values[.gusts] = forecast.windGusts.flatMap { withUnit(DisplayRounding.windSpeed($0), units.windGusts) }
        values[.pressure] = forecast.seaLevelPressure.flatMap {
            withUnit(locale.number(DisplayRounding.pressure($0, unit: units.seaLevelPressure)), units.seaLevelPressure)
        }
        values[.pressureTendency] = forecast.pressureTendency.map { tendencyText($0, locale) }
        values[.precipitationProbability] = forecast.hours(notEndedAt: now).first?.precipitationProbability.flatMap {
            withUnit(DisplayRounding.percent($0), "%", separator: "")
        }
        let today = forecast.day(at: now)
        values[.high] = today?.high.map(DisplayRounding.temperature)
        values[.low] = today?.low.map(DisplayRounding.temperature)
        values[.sunrise] = today?.sunrise.map { clockText($0, forecast, locale) }
        values[.sunset] = today?.sunset.map { clockText($0, forecast, locale) }
    }

    /// `rising +1.3 hPa/3h`, `steady 0.0 hPa/3h`, `falling -2.0 hPa/3h`, `rising +0.04 inHg/3h`:
    /// the change rounded by ``DisplayRounding/pressureChange(_:unit:)``, with `+` when it shows
    /// above zero, in the tendency's unit (sanitized; none shown when empty); in `locale`'s
    /// words and decimal separator.
    public static func tendencyText(_ tendency: PressureTendency, _ locale: UserLocale = .english) -> String {
        let trend =
            switch tendency.trend {
            case .rising: locale.tr("rising")
            case .steady: locale.tr("steady")
            case .falling: locale.tr("falling")
            }
        let change = DisplayRounding.pressureChange(tendency.change, unit: tendency.unit)
        guard !change.isEmpty else { return trend }
        let sign = change.contains(where: { $0 != "0" && $0 != "." }) && tendency.change > 0 ? "+" : ""
        let unit = UntrustedText.sanitized(tendency.unit, limit: 8)
        return "\(trend) \(sign)\(locale.number(change))" + (unit.isEmpty ? "" : " \(unit)/3h")
    }

    /// The time on the place's clock in `locale`'s style (`07:32`, `7:32 AM`), or in UTC
    /// (saying so) when the offset is unknown.
    static func clockText(_ instant: Date, _ forecast: Forecast, _ locale: UserLocale) -> String {
        locale.clock.text(instant, utcOffsetSeconds: forecast.utcOffsetSeconds ?? 0)
            + (forecast.utcOffsetSeconds == nil ? " UTC" : "")
    }

    /// `value unit` with the daemon's unit label sanitized and bounded; the value alone without
    /// one; `nil` without a value.
    static func withUnit(_ value: String, _ unit: String?, separator: String = " ") -> String? {
        guard !value.isEmpty else { return nil }
        let unit = UntrustedText.sanitized(unit ?? "", limit: 8)
        return unit.isEmpty ? value : value + separator + unit
    }

    /// The condition as people read it: the daemon's own text when it is in a language the
    /// administrator chose (``WundercastModel/Weather/conditionLanguage``: OpenWeatherMap with
    /// `Language=`), else the name of the provider's code (``WundercastModel/Weather/conditionName``)
    /// in `locale`'s language, else (no code, or one the model does not know) the daemon's
    /// text as sent. Sanitized.
    static func conditionText(_ weather: Weather, _ locale: UserLocale) -> String? {
        conditionText(
            own: weather.condition, name: weather.conditionName, chosen: weather.conditionLanguage != nil, locale)
    }

    /// As ``conditionText(_:_:)`` for a forecast hour of `weather` (whose language its texts share).
    static func conditionText(_ hour: Forecast.Hour, of weather: Weather?, _ locale: UserLocale) -> String? {
        conditionText(own: hour.condition, name: hour.conditionName, chosen: weather?.conditionLanguage != nil, locale)
    }

    /// As ``conditionText(_:_:)`` for a forecast day of `weather` (whose language its texts share).
    static func conditionText(_ day: Forecast.Day, of weather: Weather?, _ locale: UserLocale) -> String? {
        conditionText(own: day.condition, name: day.conditionName, chosen: weather?.conditionLanguage != nil, locale)
    }

    private static func conditionText(own: String?, name: String?, chosen: Bool, _ locale: UserLocale) -> String? {
        let own = own.map { UntrustedText.sanitized($0, limit: 60) }.flatMap { $0.isEmpty ? nil : $0 }
        if chosen, let own { return own }
        return name.map { locale.tr($0) } ?? own
    }
}
