#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Values no weather on Earth has, left out of an answer (never corrected, never invented): a
/// provider's bug or a hostile answer must not reach a bar as `humidity 250%` or `-5 km/h`.
///
/// | quantity | kept when (in base units) | beyond it (records for scale) |
/// |---|---|---|
/// | temperature, apparent temperature, hourly temperatures, highs and lows | −100 … +70 °C | −89.2 / +56.7 °C |
/// | relative humidity, chance of precipitation | 0 … 100 % | |
/// | wind speed, gusts (a Beaufort force: as the speed it came from) | 0 … 150 m/s (540 km/h) | 113 m/s gust |
/// | wind direction | 0 … 360°, and only with a possible speed when a speed is given | |
/// | sea-level pressure | 800 … 1100 hPa | 870 / 1084 hPa |
/// | precipitation amount | 0 … 1000 mm per step, 0 … 2000 mm a day | 305 mm in an hour, 1825 mm in a day |
/// | observation time, forecast hours, days' dates, sunrise and sunset | 2000-01-01 … 2100-01-01 UTC | |
///
/// A time outside that range is a provider's clock never set or a hostile answer (a year
/// −1199 cannot even be written back as ISO 8601 that readers parse): the observation time,
/// a sunrise or a sunset is left out, a forecast hour dropped.
/// A day whose high is below its low has neither: which of the two is wrong cannot be told.
/// Days built from time steps (``DailyAggregation``) are built from possible steps only: a sum
/// or a maximum would hide an impossible value.
/// A value whose unit label names no known unit is checked only where the unit does not matter
/// (percentages, directions, signs).
extension Weather {
    public func withoutImpossibleValues() -> Weather {
        var copy = self
        let temperatureUnit = TemperatureUnit(label: units.temperature)
        let windUnit = WindSpeedUnit(label: units.windSpeed)
        copy.temperature = temperature.flatMap { Self.temperature($0, temperatureUnit) }
        copy.apparentTemperature = apparentTemperature.flatMap { Self.temperature($0, temperatureUnit) }
        copy.relativeHumidity = relativeHumidity.flatMap(Self.percent)
        (copy.windSpeed, copy.windDirection) = Self.wind(windSpeed, windDirection, windUnit)
        copy.time = time.flatMap(Self.plausibleTime)
        copy.forecast = forecast?.withoutImpossibleValues()
        return copy
    }

    /// The times an answer may carry (see the table above): 2000-01-01 to 2100-01-01 UTC.
    public static let plausibleTimes =
        Date(timeIntervalSince1970: 946_684_800)...Date(timeIntervalSince1970: 4_102_444_800)

    /// `time` when it is in ``plausibleTimes``, else `nil`.
    public static func plausibleTime(_ time: Date) -> Date? { plausibleTimes.contains(time) ? time : nil }

    /// ``withoutImpossibleValues()``, refusing an answer with no measured value and no condition
    /// left (all impossible, or all missing): weather without a single value is not weather (a
    /// broken or hostile provider). The two checks in one: ``possibleValues()``, then
    /// ``checkedHasWeather()``.
    ///
    /// - Throws: ``WeatherError/decoding(message:)`` naming the values that were impossible.
    public func checkedForImpossibleValues() throws(WeatherError) -> Weather {
        try possibleValues().checkedHasWeather()
    }

    /// ``withoutImpossibleValues()``, refusing an answer that had measured values and has no
    /// value and no condition left (all impossible). Judged by the unit strings of ``units``:
    /// run it on an answer in the provider's own units, before any conversion (a conversion to
    /// Beaufort forces makes any wind look possible).
    ///
    /// - Throws: ``WeatherError/decoding(message:)`` saying every value was impossible.
    public func possibleValues() throws(WeatherError) -> Weather {
        let kept = withoutImpossibleValues()
        guard hasMeasuredValues, !kept.hasWeather else { return kept }
        throw .decoding(
            message: "every value of the answer is impossible (temperature, humidity, wind out of any weather's range)")
    }

    /// This weather, refusing it when it holds no measured value and no condition (in any
    /// units).
    ///
    /// - Throws: ``WeatherError/decoding(message:)`` saying the answer holds no weather value.
    public func checkedHasWeather() throws(WeatherError) -> Weather {
        guard !hasWeather else { return self }
        throw .decoding(
            message: "the answer holds no weather value (temperature, humidity, wind and condition all missing)")
    }

    /// Whether a measured value or a condition is given.
    var hasWeather: Bool { hasMeasuredValues || weatherCode != nil }

    /// Whether any measured quantity (temperature, apparent temperature, humidity, wind) is given.
    var hasMeasuredValues: Bool {
        temperature != nil || apparentTemperature != nil || relativeHumidity != nil || windSpeed != nil
            || windDirection != nil
    }

    static func percent(_ value: Double) -> Double? { (0...100).contains(value) ? value : nil }

    /// Whether `base` (a value in base units) is within `limits`, give or take 10⁻⁵ of the larger
    /// bound: a value kept at publication, converted and rounded to 4 decimals (150 m/s is
    /// 291.5767 kn, 150.000013 m/s again), is kept when the state is read back after a restart.
    static func within(_ base: Double, _ limits: ClosedRange<Double>) -> Bool {
        let slack = 1e-5 * max(abs(limits.lowerBound), abs(limits.upperBound))
        return base >= limits.lowerBound - slack && base <= limits.upperBound + slack
    }

    /// A direction (wind, waves, current), degrees: kept in 0…360.
    public static func direction(_ value: Double) -> Double? { (0...360).contains(value) ? value : nil }

    /// A precipitation amount in `unit`: kept in 0…`limit` mm, 1000 for a step, 2000 for a day's
    /// sum (an unknown unit keeps any amount that is not negative).
    static func amount(_ value: Double, _ unit: PrecipitationUnit?, limit: Double = 1000) -> Double? {
        guard value >= 0 else { return nil }
        guard let unit else { return value }
        return within(unit.toBase(value), 0...limit) ? value : nil
    }

    static func temperature(_ value: Double, _ unit: TemperatureUnit?) -> Double? {
        guard let unit else { return value }
        return within(unit.toBase(value), -100...70) ? value : nil
    }

    /// A wind's speed and direction: each kept when possible, and the direction goes with an
    /// impossible speed (it is that wind's).
    static func wind(
        _ speed: Double?, _ direction: Double?, _ unit: WindSpeedUnit?
    ) -> (speed: Double?, direction: Double?) {
        let kept = speed.flatMap { wind($0, unit) }
        return (kept, speed != nil && kept == nil ? nil : direction.flatMap(Self.direction))
    }

    static func wind(_ value: Double, _ unit: WindSpeedUnit?) -> Double? {
        guard value >= 0 else { return nil }
        // A force is no speed: judged as a speed before it became one (``possibleValues()``).
        guard let unit, unit.converts(to: .ms) else { return value }
        return within(unit.toBase(value), 0...150) ? value : nil
    }
}

extension Forecast {
    /// The forecast without impossible values (``Weather/withoutImpossibleValues()``); an
    /// impossible sea-level pressure takes its tendency with it.
    public func withoutImpossibleValues() -> Forecast {
        var copy = self
        let temperatureUnit = units.temperature.flatMap(TemperatureUnit.init(label:))
        let amountUnit = units.precipitation.flatMap(PrecipitationUnit.init(label:))
        func amount(_ value: Double) -> Double? { Weather.amount(value, amountUnit) }
        copy.hours = hours?.filter { Weather.plausibleTimes.contains($0.time) }.map { hour in
            var hour = hour
            hour.temperature = hour.temperature.flatMap { Weather.temperature($0, temperatureUnit) }
            hour.precipitationProbability = hour.precipitationProbability.flatMap(Weather.percent)
            hour.precipitation = hour.precipitation.flatMap(amount)
            return hour
        }
        copy.days = days?.filter(\.hasPlausibleDate).map { day in
            var day = day
            day.high = day.high.flatMap { Weather.temperature($0, temperatureUnit) }
            day.low = day.low.flatMap { Weather.temperature($0, temperatureUnit) }
            if let high = day.high, let low = day.low, high < low { (day.high, day.low) = (nil, nil) }
            day.sunrise = day.sunrise.flatMap(Weather.plausibleTime)
            day.sunset = day.sunset.flatMap(Weather.plausibleTime)
            day.precipitationProbability = day.precipitationProbability.flatMap(Weather.percent)
            day.precipitation = day.precipitation.flatMap { Weather.amount($0, amountUnit, limit: 2000) }
            (day.windSpeed, day.windDirection) = Weather.wind(
                day.windSpeed, day.windDirection, units.windSpeed.flatMap(WindSpeedUnit.init(label:)))
            return day
        }
        copy.windGusts = windGusts.flatMap { Weather.wind($0, units.windGusts.flatMap(WindSpeedUnit.init(label:))) }
        if let pressure = seaLevelPressure {
            let unit = units.seaLevelPressure.flatMap(PressureUnit.init(label:))
            let plausible = unit.map { Weather.within($0.toBase(pressure), 800...1100) } ?? (pressure > 0)
            if !plausible {
                copy.seaLevelPressure = nil
                copy.pressureTendency = nil
            }
        }
        return copy
    }
}

extension DailyAggregation.Step {
    /// The step without impossible values (the table of ``Weather/withoutImpossibleValues()``),
    /// judged in `units` (the labels of its temperature, precipitation and wind speed); an
    /// impossible wind speed takes its direction with it.
    public func possible(in units: Forecast.Units) -> DailyAggregation.Step {
        var step = self
        step.temperature = temperature.flatMap {
            Weather.temperature($0, units.temperature.flatMap(TemperatureUnit.init(label:)))
        }
        step.precipitation = precipitation.flatMap {
            Weather.amount($0, units.precipitation.flatMap(PrecipitationUnit.init(label:)))
        }
        step.precipitationProbability = precipitationProbability.flatMap(Weather.percent)
        (step.windSpeed, step.windDirection) = Weather.wind(
            windSpeed, windDirection, units.windSpeed.flatMap(WindSpeedUnit.init(label:)))
        return step
    }
}

extension Forecast.Day {
    /// Whether ``date`` is a `yyyy-MM-dd` from 2000-01-01 to 2099-12-31 (the table's times): a
    /// day dated 2200 or 1900 is a provider's clock never set, not a coming day.
    var hasPlausibleDate: Bool {
        guard let day = Forecast.day(ofDateText: date) else { return false }
        let start = Date(timeIntervalSince1970: Double(day) * 86_400)
        return start >= Weather.plausibleTimes.lowerBound && start < Weather.plausibleTimes.upperBound
    }
}
