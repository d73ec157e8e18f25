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
    /// - `today`, `tomorrow` (the place's local days, by `city.timezone`, else the current
    ///   answer's `timezone`; both left out when neither gives an offset): computed `high` and
    ///   `low`, the highest and lowest `main.temp` of the steps within the day (for today also
    ///   the current temperature; a day without a step has none); `sunrise`/`sunset` from the
    ///   current answer's `sys`, else the forecast's `city`, each on the day it falls on.
    /// - `windGusts`, `seaLevelPressure`, `utcOffsetSeconds`: from the current answer.
    /// - `pressureTendency`: none here; the daemon computes one from its own fetches
    ///   (``PressureHistory``), as OpenWeatherMap gives no past pressures.
    ///
    /// Without an observation time (`dt`) there are no hours and no days (the wall clock is never used).
    public static func weather(current: OpenWeatherMapCurrent, forecast: OpenWeatherMapForecastList?) -> Weather {
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
                let today = Forecast.localDay(of: observed, utcOffsetSeconds: offset)
                let instants = [
                    (current.clock.sunrise, true), (forecast?.clock.sunrise, true), (current.clock.sunset, false),
                    (forecast?.clock.sunset, false),
                ]
                func day(_ number: Int) -> Forecast.Day? {
                    let within = steps.filter { Forecast.localDay(of: $0.time, utcOffsetSeconds: offset) == number }
                    var temperatures = within.compactMap(\.temperature)
                    if number == today, !temperatures.isEmpty, let now = weather.temperature {
                        temperatures.append(now)
                    }
                    func first(rise: Bool) -> Date? {
                        instants.lazy.filter { $0.1 == rise }.compactMap(\.0)
                            .first { Forecast.localDay(of: $0, utcOffsetSeconds: offset) == number }
                    }
                    let day = Forecast.Day(
                        date: Forecast.dateText(day: number), high: temperatures.max(), low: temperatures.min(),
                        sunrise: first(rise: true), sunset: first(rise: false))
                    return day.isEmpty ? nil : day
                }
                result.today = day(today)
                result.tomorrow = day(today + 1)
            }
            let days = [result.today, result.tomorrow].compactMap { $0 }
            if next.contains(where: { $0.temperature != nil }) || days.contains(where: { $0.high != nil }) {
                result.units.temperature = weather.units.temperature
            }
            if next.contains(where: { $0.precipitation != nil }) { result.units.precipitation = "mm" }
            if next.contains(where: { $0.precipitationProbability != nil }) {
                result.units.precipitationProbability = "%"
            }
        }
        weather.forecast = result.isEmpty ? nil : result
        return weather
    }
}
