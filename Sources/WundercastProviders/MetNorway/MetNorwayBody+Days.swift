#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WundercastModel

/// MET Norway's local days: the series aggregated per day of the place's clock
/// (``DailyAggregation``); met.no has no daily values.
extension MetNorwayBody {
    /// Adds up to `count` days from `observed` on, on the clock `utcOffset` gives (the place's
    /// time zone); without one (`nil` at `observed`: no city near, as at sea) on the nautical
    /// time zone of the longitude, and then ``Forecast/nauticalTime`` is `true`. Each step gives
    /// its instant `air_temperature`, `wind_speed` and `wind_from_direction`, its symbol, and the
    /// `precipitation_amount` of the period block as long as the gap to the next step
    /// (`next_1_hours` before a step an hour later, `next_6_hours` before one 6 hours later);
    /// sunrise and sunset are computed (``Sun/day(at:on:utcOffset:horizon:)``).
    func addDays(
        to forecast: inout Forecast, observed: Date, at coordinate: Coordinate, _ converter: Converter,
        utcOffset: (Date) -> Int?, count: Int
    ) throws(WeatherError) {
        let nautical = utcOffset(observed) == nil
        let fixed = ZoneOffset.nauticalOffset(longitude: coordinate.longitude)
        func clock(_ instant: Date) -> Int { nautical ? fixed : utcOffset(instant) ?? fixed }
        forecast.utcOffsetSeconds = clock(observed)
        if nautical { forecast.nauticalTime = true }
        var steps: [DailyAggregation.Step] = []
        for (index, step) in self.steps.enumerated() {
            let next = index + 1 < self.steps.count ? self.steps[index + 1].time : nil
            let gap = next.map { $0.timeIntervalSince(step.time) }
            let block = gap == 3600 ? 0 : gap == 6 * 3600 ? 1 : nil
            let amount = try block.flatMap { block throws(WeatherError) in
                try ProviderDecoding.number(
                    step.periods[block]?.details["precipitation_amount"],
                    "\(step.path).data.\(Self.periodBlocks[block]).details.precipitation_amount")
            }
            let symbol = step.symbolCode
            steps.append(
                DailyAggregation.Step(
                    time: step.time,
                    temperature: try step.instant("air_temperature").map { converter.value($0, "air_temperature") },
                    windSpeed: try step.instant("wind_speed").map { converter.value($0, "wind_speed") },
                    windDirection: try step.instant("wind_from_direction"),
                    condition: symbol.map {
                        Forecast.Hour(
                            time: step.time, isDay: Self.isDay($0, at: coordinate, time: step.time), symbolCode: $0)
                    },
                    precipitation: amount.map { converter.value($0, "precipitation_amount") },
                    period: next.flatMap { step.time < $0 ? step.time..<$0 : nil }))
        }
        let labels = Forecast.Units(
            temperature: converter.label("air_temperature"), precipitation: converter.label("precipitation_amount"),
            windSpeed: converter.label("wind_speed"))
        forecast.days = DailyAggregation.days(
            steps, observed: observed, count: count, units: labels, utcOffset: clock
        ) {
            date, offset in
            let sun = Sun.day(at: coordinate, on: date, utcOffset: offset)
            return (sun.sunrise, sun.sunset)
        }
        let days = forecast.days ?? []
        if days.contains(where: { $0.high != nil }), forecast.units.temperature == nil {
            forecast.units.temperature = converter.label("air_temperature")
        }
        if days.contains(where: { $0.precipitation != nil }), forecast.units.precipitation == nil {
            forecast.units.precipitation = converter.label("precipitation_amount")
        }
        if days.contains(where: { $0.windSpeed != nil }) { forecast.units.windSpeed = converter.label("wind_speed") }
    }
}
