#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WundercastModel

/// What one `/data/2.5/forecast` answer says: its 3-hourly steps (`list`), converted to the
/// units of `Units=`, and the place's offset, sunrise and sunset (`city`).
///
/// Sources for each step (a ``Forecast/Hour`` whose `time` is the step's):
/// - `time` ← `list[].dt`; `temperature` ← `list[].main.temp`;
/// - `precipitationProbability` ← `list[].pop` × 100 (0–1 in the answer; a value outside that
///   is left out); `precipitation` ← `list[].rain.3h` + `list[].snow.3h`, mm over the 3 hours
///   before `time` (left out when neither is given: `"rain":{}` gives nothing);
/// - `openWeatherMapID`, `condition`, `isDay` ← `list[].weather[0]` (its icon's `d`/`n`, else
///   `list[].sys.pod`, else the sun at the place);
/// - for the days only (``dailySteps``): `wind.speed` and `wind.deg`.
///
/// `clock`: `utcOffsetSeconds` ← `city.timezone`, `sunrise`/`sunset` ← `city.sunrise`/`city.sunset`
/// (recordings before about 2020 have none of the three).
public struct OpenWeatherMapForecastList: Sendable, Equatable {
    /// Every step of `list`, oldest first.
    public var steps: [Forecast.Hour]
    /// The same steps for the local days (``DailyAggregation``): also `wind.speed` (in the
    /// wanted unit) and `wind.deg`; `precipitation` and its chance for the 3 hours before `time`.
    public var dailySteps: [DailyAggregation.Step]
    /// `city.timezone`, `city.sunrise`, `city.sunset`.
    public var clock: OpenWeatherMapClock

    /// Decodes a `/data/2.5/forecast` answer; failures as
    /// ``OpenWeatherMapCurrent/init(_:asked:units:coordinate:)``. A step
    /// without `dt` is skipped.
    ///
    /// - Throws: ``WeatherError/decoding(message:)`` naming the member when `list` is missing or
    ///   a member has the wrong type.
    public init(
        _ response: HTTPResponse, asked: OpenWeatherMapUnits, units: UnitSystem, coordinate: Coordinate? = nil
    ) throws(WeatherError) {
        let root = try OpenWeatherMapBody.object(response)
        guard let list = try root.objects("list") else { throw .decoding(message: "missing member 'list'") }
        let city = try root.object("city")
        let cityPlace = try city?.object("coord")?.coordinate()
        let place = coordinate ?? cityPlace
        var steps: [Forecast.Hour] = []
        var dailySteps: [DailyAggregation.Step] = []
        for entry in list {
            guard let time = try entry.instant("dt") else { continue }
            let condition = try OpenWeatherMapCondition(entry)
            let probability = try entry.number("pop").flatMap { (0...1).contains($0) ? $0 * 100 : nil }
            var hour = Forecast.Hour(
                time: time,
                temperature: try entry.object("main")?.number("temp").map { asked.temperature($0, in: units) },
                precipitationProbability: probability.map(OpenWeatherMapUnits.thousandths),
                precipitation: try Self.amount(entry),
                isDay: condition.isDay(at: place, time: time, partOfDay: try entry.object("sys")?.string("pod")))
            condition.apply(to: &hour)
            steps.append(hour)
            let wind = try entry.object("wind")
            dailySteps.append(
                DailyAggregation.Step(
                    time: time, temperature: hour.temperature,
                    windSpeed: try wind?.number("speed").map { asked.windSpeed($0, in: units) },
                    windDirection: try wind?.number("deg"), condition: hour, precipitation: hour.precipitation,
                    precipitationProbability: hour.precipitationProbability,
                    period: time.addingTimeInterval(-3 * 3600)..<time))
        }
        self.steps = steps.sorted { $0.time < $1.time }
        self.dailySteps = dailySteps.sorted { $0.time < $1.time }
        clock = try OpenWeatherMapClock(offsetIn: city, sunIn: city)
    }

    /// `rain.3h` + `snow.3h` in mm; `nil` when neither is there.
    static func amount(_ entry: JSONObject) throws(WeatherError) -> Double? {
        let parts = [try entry.object("rain")?.number("3h"), try entry.object("snow")?.number("3h")].compactMap { $0 }
        // A negative part is impossible, and the sum would hide it.
        guard !parts.isEmpty, parts.allSatisfy({ $0 >= 0 }) else { return nil }
        return OpenWeatherMapUnits.thousandths(parts.reduce(0, +))
    }
}
