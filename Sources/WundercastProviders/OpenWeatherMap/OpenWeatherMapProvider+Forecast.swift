#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WundercastModel

extension OpenWeatherMapProvider {
    /// The current weather with its ``Forecast``, joined from the two answers:
    ///
    /// - `hours`: the forecast's steps after `current.weather.time` (``Forecast/nextHours(_:after:)``):
    ///   the 12 hours after it hold 4 steps, 3 hours apart.
    /// - `days` (up to `days` local days of the place, by `city.timezone`, else the current
    ///   answer's `timezone`; none when neither gives an offset): **aggregated** from the steps
    ///   and the current answer (``DailyAggregation``: high and low of `main.temp`, the sum of
    ///   `rain.3h` + `snow.3h`, the highest `pop`, the strongest `wind.speed` with its `wind.deg`,
    ///   the condition nearest noon); `sunrise`/`sunset` from the current answer's `sys`, else
    ///   the forecast's `city`, each on the day it falls on (so usually today's only).
    /// - `windGusts`, `seaLevelPressure`, `utcOffsetSeconds`: from the current answer.
    /// - `pressureTendency`: none here; the daemon computes one from its own fetches
    ///   (``PressureHistory``), as OpenWeatherMap gives no past pressures.
    ///
    /// Without an observation time (`dt`) there are no hours and no days (the wall clock is never used).
    public static func weather(
        current: OpenWeatherMapCurrent, forecast: OpenWeatherMapForecastList?, days: Int = Forecast.defaultDays
    ) -> Weather {
        var weather = current.weather
        let offset = forecast?.clock.utcOffsetSeconds ?? current.clock.utcOffsetSeconds
        var result = Forecast(
            windGusts: current.windGusts, seaLevelPressure: current.seaLevelPressure, utcOffsetSeconds: offset)
        if result.windGusts != nil { result.units.windGusts = weather.units.windSpeed }
        if result.seaLevelPressure != nil { result.units.seaLevelPressure = "hPa" }
        if let observed = weather.time {
            let steps = forecast?.steps ?? []
            let next = Forecast.nextHours(steps, after: observed)
            result.hours = next.isEmpty ? nil : next
            if let offset {
                let instants = [
                    (current.clock.sunrise, true), (forecast?.clock.sunrise, true), (current.clock.sunset, false),
                    (forecast?.clock.sunset, false),
                ]
                // The current answer is a step of today too (its temperature and wind, no condition).
                let now = DailyAggregation.Step(
                    time: observed, temperature: weather.temperature, windSpeed: weather.windSpeed,
                    windDirection: weather.windDirection)
                let labels = Forecast.Units(
                    temperature: weather.units.temperature, precipitation: "mm", windSpeed: weather.units.windSpeed)
                result.days = DailyAggregation.days(
                    [now] + (forecast?.dailySteps ?? []), observed: observed, count: days, units: labels,
                    utcOffset: { _ in offset }
                ) { date, offset in
                    func first(rise: Bool) -> Date? {
                        instants.lazy.filter { $0.1 == rise }.compactMap(\.0)
                            .first { CivilDate($0, utcOffset: offset) == date }
                    }
                    return (first(rise: true), first(rise: false))
                }
            }
            let days = result.days ?? []
            if next.contains(where: { $0.temperature != nil }) || days.contains(where: { $0.high != nil }) {
                result.units.temperature = weather.units.temperature
            }
            if days.contains(where: { $0.windSpeed != nil }) { result.units.windSpeed = weather.units.windSpeed }
            if next.contains(where: { $0.precipitation != nil }) || days.contains(where: { $0.precipitation != nil }) {
                result.units.precipitation = "mm"
            }
            if next.contains(where: { $0.precipitationProbability != nil })
                || days.contains(where: { $0.precipitationProbability != nil })
            {
                result.units.precipitationProbability = "%"
            }
        }
        weather.forecast = result.isEmpty ? nil : result
        return weather
    }
}
