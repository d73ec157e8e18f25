#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The place's local days computed from a provider's time steps (MET Norway's series,
/// OpenWeatherMap's 3-hourly list): what ``Forecast/days`` holds for providers without daily
/// values. Days are those of the **place's clock** (`utcOffset`, its time zone's offset at each
/// instant, so a day the clocks change lasts 23 or 25 hours), never UTC's.
///
/// Rules, one owner each:
/// - A day's `high`/`low` are the highest and lowest instant temperature of the steps at or
///   after its local midnight and before the next; `windSpeed` the strongest step wind, with
///   that step's `windDirection`; `precipitation` the sum of the amounts of the periods that
///   **start** in the day (absent when no period gives one); `precipitationProbability` their
///   highest; the condition is that of the step nearest local noon that has one.
/// - Coverage: the steps cover from the first step's time to the last period's end. A day is
///   published only when that reaches within ``endTolerance`` (6 h, met.no's longest step in
///   its first days) of the day's end, so the last days of a series, only partly covered, are
///   dropped. A published day whose coverage begins more than ``startTolerance`` (1 h) after
///   its midnight (the first day: the series starts at the observation), or ends before its
///   next midnight (the last, then with `coveredUntil`, the coverage's end), is marked
///   `partial`: its values are of the covered part only, never claimed for the whole day.
/// - Every day is marked `aggregated`.
public enum DailyAggregation {
    /// One time step.
    public struct Step: Sendable, Equatable {
        /// The instant of the step's instant values (temperature, wind).
        public var time: Date
        public var temperature: Double?
        public var windSpeed: Double?
        public var windDirection: Double?
        /// The step's condition (codes, texts, icon), as an hour of the forecast.
        public var condition: Forecast.Hour?
        /// Precipitation amount and chance of the period `period` (e.g. `next_6_hours`, or the
        /// 3 hours before an OpenWeatherMap step).
        public var precipitation: Double?
        public var precipitationProbability: Double?
        public var period: Range<Date>?

        public init(
            time: Date, temperature: Double? = nil, windSpeed: Double? = nil, windDirection: Double? = nil,
            condition: Forecast.Hour? = nil, precipitation: Double? = nil, precipitationProbability: Double? = nil,
            period: Range<Date>? = nil
        ) {
            self.time = time
            self.temperature = temperature
            self.windSpeed = windSpeed
            self.windDirection = windDirection
            self.condition = condition
            self.precipitation = precipitation
            self.precipitationProbability = precipitationProbability
            self.period = period
        }
    }

    /// How close to a day's end the steps must reach for the day to be published.
    public static let endTolerance: TimeInterval = 6 * 3600
    /// How late after a day's midnight the steps may begin for the day to count as whole.
    public static let startTolerance: TimeInterval = 3600

    /// Up to `count` consecutive local days from the local day of `observed`, from the steps at
    /// or after `observed`; `sun(date, utcOffset)` gives a day's sunrise and sunset (either may
    /// be `nil`) where the clocks are `utcOffset` east of UTC at the day's noon. `nil` when no day is covered.
    /// `units` labels the steps' values (temperature, precipitation, `windSpeed`): each value is
    /// judged possible (``Weather/withoutImpossibleValues()``'s table) before it is summed or
    /// compared, for a sum or a maximum would hide an impossible one; a day with a period whose
    /// amount was impossible has no precipitation sum (it would be short by an unknown amount).
    /// One step per instant: an answer that repeats a time has it counted once (the first).
    public static func days(
        _ steps: [Step], observed: Date, count: Int, units: Forecast.Units, utcOffset: (Date) -> Int,
        sun: (CivilDate, Int) -> (sunrise: Date?, sunset: Date?) = { _, _ in (nil, nil) }
    ) -> [Forecast.Day]? {
        var seen = Set<Date>()
        let given = steps.filter { $0.time >= observed }.sorted { $0.time < $1.time }.filter {
            seen.insert($0.time).inserted
        }
        let steps = given.map { $0.possible(in: units) }
        let amountsLeftOut = zip(given, steps).filter { $0.precipitation != nil && $1.precipitation == nil }
            .map { $1.period?.lowerBound ?? $1.time }
        guard let first = steps.first?.time else { return nil }
        let coverageEnd = steps.map { max($0.time, $0.period?.upperBound ?? $0.time) }.max() ?? first
        // A local day from its midnight to the next on the place's clock (23 or 25 hours when the clocks change).
        func span(_ date: CivilDate) -> Range<Date> {
            date.start(utcOffset: utcOffset)..<date.adding(days: 1).start(utcOffset: utcOffset)
        }
        var date = CivilDate(observed, utcOffset: utcOffset(observed))
        var out: [Forecast.Day?] = []
        for _ in 0..<count {
            let (start, end) = (span(date).lowerBound, span(date).upperBound)
            guard coverageEnd >= end.addingTimeInterval(-endTolerance) else { break }
            let endsEarly = coverageEnd < end
            let partial = first > start.addingTimeInterval(startTolerance) || endsEarly
            let noonOffset = utcOffset(start.addingTimeInterval(12 * 3600))
            var published = day(date, start..<end, noonOffset: noonOffset, steps, partial: partial, sun)
            if amountsLeftOut.contains(where: { (start..<end).contains($0) }) { published?.precipitation = nil }
            if endsEarly { published?.coveredUntil = coverageEnd }
            out.append(published)
            date = date.adding(days: 1)
        }
        return Forecast.consecutive(out, limit: count)
    }

    /// The day `date`, which lasts `span`, from `steps`.
    static func day(
        _ date: CivilDate, _ span: Range<Date>, noonOffset: Int, _ steps: [Step], partial: Bool,
        _ sun: (CivilDate, Int) -> (sunrise: Date?, sunset: Date?)
    ) -> Forecast.Day? {
        let within = steps.filter { span.contains($0.time) }
        let periods = steps.filter { span.contains($0.period?.lowerBound ?? $0.time) }
        let temperatures = within.compactMap(\.temperature)
        let windiest = within.filter { $0.windSpeed != nil }.max { $0.windSpeed! < $1.windSpeed! }
        let amounts = periods.compactMap(\.precipitation)
        let chances = periods.compactMap(\.precipitationProbability)
        let noon = span.lowerBound.addingTimeInterval(12 * 3600)
        let conditioned = within.filter { $0.condition?.condition != nil || $0.condition?.icon != nil }
        let nearestNoon = conditioned.min {
            abs($0.time.timeIntervalSince(noon)) < abs($1.time.timeIntervalSince(noon))
        }
        let (sunrise, sunset) = sun(date, noonOffset)
        var day = Forecast.Day(
            date: date.description, high: temperatures.max(), low: temperatures.min(),
            precipitation: amounts.isEmpty ? nil : (amounts.reduce(0, +) * 10_000).rounded() / 10_000,
            precipitationProbability: chances.max(),
            windSpeed: windiest?.windSpeed, windDirection: windiest?.windDirection, sunrise: sunrise, sunset: sunset,
            aggregated: true, partial: partial ? true : nil)
        if let hour = nearestNoon?.condition { day.takeCondition(of: hour) }
        return within.isEmpty && periods.isEmpty ? nil : day
    }
}
