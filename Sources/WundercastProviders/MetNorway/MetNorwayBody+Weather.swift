#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WundercastModel

/// The current weather and its forecast from the steps of a locationforecast answer, counted
/// from the answer's own first step (never the wall clock, so that a recorded answer gives the
/// same weather whenever it is read).
extension MetNorwayBody {
    /// The first step as the current weather, the steps after it as ``Forecast``.
    ///
    /// - Parameters:
    ///   - coordinate: the place asked for; the sun's position there gives ``Weather/isDay`` when
    ///     the symbol has no `_day`/`_night`/`_polartwilight` suffix, and today's and tomorrow's
    ///     sunrise and sunset (computed: the compact product has none).
    ///   - requested: `Units=`; values are converted from `meta.units` (``MetNorwayUnits``).
    ///   - utcOffset: the place's offset from UTC at an instant (met.no sends none), or `nil`
    ///     when the place's time zone is unknown: then the days follow the nautical time zone of
    ///     the longitude (``addDays(to:observed:at:_:utcOffset:count:)``).
    ///   - days: how many local days to publish at most (`[Weather] Days=`).
    /// - Throws: ``WeatherError/decoding(message:)`` when the series has no step at all.
    func weather(
        at coordinate: Coordinate, requested: UnitSystem, utcOffset: (Date) -> Int?, days: Int = Forecast.defaultDays
    ) throws(WeatherError) -> Weather {
        guard let first = steps.first else {
            throw .decoding(message: "properties.timeseries has no steps: no forecast for this place")
        }
        let converter = try Converter(self, requested)
        let symbol = first.symbolCode
        var weather = Weather(
            temperature: try first.instant("air_temperature").map { converter.value($0, "air_temperature") },
            relativeHumidity: try first.instant("relative_humidity"),
            windSpeed: try first.instant("wind_speed").map { converter.value($0, "wind_speed") },
            windDirection: try first.instant("wind_from_direction"),
            isDay: Self.isDay(symbol, at: coordinate, time: first.time), time: first.time,
            units: WeatherUnits(
                temperature: converter.label("air_temperature"), windSpeed: converter.label("wind_speed"),
                windDirection: converter.label("wind_from_direction"),
                relativeHumidity: converter.label("relative_humidity")),
            symbolCode: symbol)

        var forecast = Forecast()
        if let gusts = try first.instant("wind_speed_of_gust") {
            // Compact answers name no unit for gusts: they are in the unit of wind_speed.
            let key = units["wind_speed_of_gust"] == nil ? "wind_speed" : "wind_speed_of_gust"
            forecast.windGusts = converter.value(gusts, key)
            forecast.units.windGusts = converter.label(key)
        }
        if let pressure = try first.instant("air_pressure_at_sea_level") {
            forecast.seaLevelPressure = pressure
            forecast.units.seaLevelPressure = converter.label("air_pressure_at_sea_level")
        }
        try addHours(to: &forecast, after: first.time, at: coordinate, converter)
        try addDays(to: &forecast, observed: first.time, at: coordinate, converter, utcOffset: utcOffset, count: days)
        weather.forecast = forecast.isEmpty ? nil : forecast
        return weather
    }

    /// The hours after `observed`; the sea-level pressure tendency from the series.
    private func addHours(
        to forecast: inout Forecast, after observed: Date, at coordinate: Coordinate, _ converter: Converter
    ) throws(WeatherError) {
        let byTime = Dictionary(steps.map { ($0.time, $0) }, uniquingKeysWith: { first, _ in first })
        let end = observed.addingTimeInterval(TimeInterval(Forecast.hoursAhead) * 3600)
        var hours: [Forecast.Hour] = []
        var samples: [PressureTendency.Sample] = []
        for step in steps {
            guard step.time > observed else {
                if let pressure = try step.instant("air_pressure_at_sea_level") {
                    samples.append(.init(time: step.time, pressure: pressure))
                }
                continue
            }
            guard step.time <= end else { break }
            // Amounts of the hour before `time`, as Open-Meteo's: `next_1_hours` of the step an hour earlier.
            let before = byTime[step.time.addingTimeInterval(-3600)]
            let symbol = step.symbolCode
            hours.append(
                Forecast.Hour(
                    time: step.time,
                    temperature: try step.instant("air_temperature").map { converter.value($0, "air_temperature") },
                    precipitationProbability: try before?.nextHour("probability_of_precipitation"),
                    precipitation: try before?.nextHour("precipitation_amount"),
                    isDay: Self.isDay(symbol, at: coordinate, time: step.time), symbolCode: symbol))
        }
        let next = Forecast.nextHours(hours, after: observed)
        forecast.hours = next.isEmpty ? nil : next
        if next.contains(where: { $0.temperature != nil }) {
            forecast.units.temperature = converter.label("air_temperature")
        }
        if next.contains(where: { $0.precipitation != nil }) {
            forecast.units.precipitation = converter.label("precipitation_amount")
        }
        if next.contains(where: { $0.precipitationProbability != nil }) {
            forecast.units.precipitationProbability = converter.label("probability_of_precipitation")
        }
        // The threshold is in hPa. The compact series starts at the observation, so this finds
        // no earlier value today; the daemon's own history then gives the tendency.
        if try unit("air_pressure_at_sea_level") == "hPa" {
            forecast.pressureTendency = PressureTendency.compute(samples, at: observed, source: .hourly)
        }
    }

    /// Day or night from the symbol's suffix (`_polartwilight` is night), else computed from the
    /// sun's position (``Sun/isDay(at:time:)``).
    static func isDay(_ symbol: String?, at coordinate: Coordinate, time: Date) -> Bool {
        MetNorwaySymbol(code: symbol).isDay ?? Sun.isDay(at: coordinate, time: time)
    }

    /// Reads each quantity's unit once and converts its values (``MetNorwayUnits/convert(_:from:to:)``).
    struct Converter {
        private var units: [String: String] = [:]
        private let system: UnitSystem

        init(_ body: MetNorwayBody, _ system: UnitSystem) throws(WeatherError) {
            self.system = system
            for key in MetNorwayUnits.documented.keys { units[key] = try body.unit(key) }
        }

        func value(_ value: Double, _ key: String) -> Double {
            MetNorwayUnits.convert(value, from: units[key] ?? "", to: system).value
        }

        func label(_ key: String) -> String {
            MetNorwayUnits.label(units[key] ?? "", system)
        }
    }
}
