import Foundation
import Testing
import WundercastModel

/// The local days computed from time steps (``DailyAggregation``), on the place's clock: a day
/// the clocks change lasts 23 or 25 hours, and the same instants are different days on either
/// side of the date line. Steps are hourly, their temperature the hours since the first step,
/// so a day's low and high name the first and last step inside it.
@Suite struct DailyAggregationTests {
    static let zones = ZoneInfoDatabase { path, limit in [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) }

    static func instant(_ text: String) -> Date { try! Date(text, strategy: .iso8601) }

    /// Hourly steps from `start`, `count` of them, temperature = hours since `start`, 0.1 mm each hour.
    static func hourly(from start: Date, count: Int) -> [DailyAggregation.Step] {
        (0..<count).map { hour in
            let time = start.addingTimeInterval(Double(hour) * 3600)
            return DailyAggregation.Step(
                time: time, temperature: Double(hour), windSpeed: Double(hour % 24), windDirection: 180,
                precipitation: 0.1, period: time..<time.addingTimeInterval(3600))
        }
    }

    /// The labels of the steps' values.
    static let units = Forecast.Units(temperature: "°C", precipitation: "mm", windSpeed: "km/h")

    static func clock(_ zone: String) throws -> (Date) -> Int {
        let info = try zones.zone(named: zone)
        return { info.offset(at: $0).utcOffset }
    }

    /// Europe/Berlin leaves summer time on the last Sunday of October: 2026-10-25 at 01:00 UTC.
    /// That local day runs from 2026-10-24T22:00Z to 2026-10-25T23:00Z, 25 hours.
    @Test func theDayTheClocksGoBackHas25Hours() throws {
        let start = Self.instant("2026-10-24T00:00:00Z")  // 02:00 local on the 24th
        let days = try #require(
            DailyAggregation.days(
                Self.hourly(from: start, count: 96), observed: start, count: 3, units: Self.units,
                utcOffset: try Self.clock("Europe/Berlin")))
        #expect(days.map(\.date) == ["2026-10-24", "2026-10-25", "2026-10-26"])
        // The 24th: from the first step (02:00 local, 2 h after midnight: partial) to 21:00Z.
        #expect(days[0].low == 0 && days[0].high == 21 && days[0].partial == true)
        // The 25th: steps 22 (22:00Z on the 24th) to 46 (22:00Z on the 25th): 25 hours.
        #expect(days[1].low == 22 && days[1].high == 46 && days[1].partial == nil)
        #expect(abs((days[1].precipitation ?? 0) - 2.5) < 1e-9, "25 hourly amounts of 0.1 mm")
        // The 26th (winter time, UTC+1): 23:00Z on the 25th to 22:00Z on the 26th.
        #expect(days[2].low == 47 && days[2].high == 70)
        #expect(days.allSatisfy { $0.aggregated == true })
    }

    /// In spring the day has 23 hours: 2026-03-29, Europe/Berlin, 2026-03-28T23:00Z–2026-03-29T22:00Z.
    @Test func theDayTheClocksGoForwardHas23Hours() throws {
        let start = Self.instant("2026-03-28T23:00:00Z")  // local midnight of the 29th
        let days = try #require(
            DailyAggregation.days(
                Self.hourly(from: start, count: 72), observed: start, count: 2, units: Self.units,
                utcOffset: try Self.clock("Europe/Berlin")))
        #expect(days[0].date == "2026-03-29" && days[0].low == 0 && days[0].high == 22 && days[0].partial == nil)
        #expect(days[1].date == "2026-03-30" && days[1].low == 23 && days[1].high == 46)
    }

    /// The same steps are other days on either side of the date line: at 2026-10-05T10:00Z it is
    /// midnight of the 6th at Kiritimati (UTC+14) and 23:00 of the 4th at Pago Pago (UTC−11).
    @Test func theDateLine() throws {
        let start = Self.instant("2026-10-05T10:00:00Z")
        let steps = Self.hourly(from: start, count: 80)
        let east = try #require(
            DailyAggregation.days(
                steps, observed: start, count: 3, units: Self.units, utcOffset: try Self.clock("Pacific/Kiritimati")))
        #expect(east.map(\.date) == ["2026-10-06", "2026-10-07", "2026-10-08"])
        #expect(east[0].low == 0 && east[0].high == 23 && east[0].partial == nil)
        let west = try #require(
            DailyAggregation.days(
                steps, observed: start, count: 3, units: Self.units, utcOffset: try Self.clock("Pacific/Pago_Pago")))
        #expect(west.map(\.date) == ["2026-10-04", "2026-10-05", "2026-10-06"])
        // The 4th holds one step (23:00 local), marked partial; the 5th starts at 11:00Z.
        #expect(west[0].low == 0 && west[0].high == 0 && west[0].partial == true)
        #expect(west[1].low == 1 && west[1].high == 24)
        #expect(east[0].date == west[2].date && east[0].high != west[2].high, "the same date, other instants")
    }

    /// A day the series does not reach to within 6 hours of its end is not published.
    @Test func aDayTheSeriesEndsInIsDropped() throws {
        let start = Self.instant("2026-10-05T00:00:00Z")
        let utc: (Date) -> Int = { _ in 0 }
        let full = DailyAggregation.days(
            Self.hourly(from: start, count: 42), observed: start, count: 3, units: Self.units, utcOffset: utc)
        // 42 steps reach 17:00 (+1 h period: 18:00) of the 6th: the 6th is kept, no 7th.
        #expect(full?.map(\.date) == ["2026-10-05", "2026-10-06"])
        // The 6th, covered until 18:00Z, is partial (its high is 18:00's, not the evening's);
        // the 5th, covered to its end, is whole.
        #expect(full?[0].partial == nil && full?[0].coveredUntil == nil)
        #expect(full?[1].partial == true && full?[1].coveredUntil == Self.instant("2026-10-06T18:00:00Z"))
        let short = DailyAggregation.days(
            Self.hourly(from: start, count: 41), observed: start, count: 3, units: Self.units, utcOffset: utc)
        #expect(short?.map(\.date) == ["2026-10-05"])
        #expect(DailyAggregation.days([], observed: start, count: 3, units: Self.units, utcOffset: utc) == nil)
    }

    /// Wind: the strongest step's speed with its direction; the condition of the step nearest noon.
    @Test func windAndCondition() throws {
        let start = Self.instant("2026-10-05T00:00:00Z")
        var steps = Self.hourly(from: start, count: 24)
        steps[15].windSpeed = 40
        steps[15].windDirection = 270
        steps[11].condition = Forecast.Hour(time: steps[11].time, isDay: true, symbolCode: "rain")
        steps[3].condition = Forecast.Hour(time: steps[3].time, isDay: false, symbolCode: "clearsky_night")
        let day = try #require(
            DailyAggregation.days(steps, observed: start, count: 1, units: Self.units, utcOffset: { _ in 0 })?.first)
        #expect(day.windSpeed == 40 && day.windDirection == 270)
        #expect(day.symbolCode == "rain" && day.condition == "Rain")
    }

    /// An answer that repeats each step (OpenWeatherMap's list served twice) counts each instant
    /// once: the sum is the day's, not twice it, and to 4 decimals (no `2.400000000000001`).
    @Test func aRepeatedStepCountsOnce() throws {
        let start = Self.instant("2026-10-05T00:00:00Z")
        let steps = Self.hourly(from: start, count: 24)
        let day = try #require(
            DailyAggregation.days(
                (steps + steps).shuffled(), observed: start, count: 1, units: Self.units, utcOffset: { _ in 0 })?.first)
        #expect(day.precipitation == 2.4)
        #expect(day.high == 23 && day.low == 0)
    }

    /// Impossible step values (a provider's bug, a hostile answer) are left out before they are
    /// summed or compared: a negative amount leaves the day without a sum (not one short by an
    /// unknown amount), a wind of 200 m/s (720 km/h) is not the day's strongest and its direction
    /// goes with it, a temperature of 300 °C does not hide the real high, and the unit of each is
    /// the step's own.
    @Test func impossibleStepsAreLeftOutBeforeTheyAreSummedOrCompared() throws {
        let start = Self.instant("2026-10-05T00:00:00Z")
        var steps = Self.hourly(from: start, count: 24)
        steps[5].precipitation = -0.5
        steps[6].precipitation = 3
        steps[15].windSpeed = 720
        steps[15].windDirection = 90
        steps[16].windSpeed = 40
        steps[16].windDirection = 270
        steps[17].temperature = 300
        steps[18].windDirection = 400
        let day = try #require(
            DailyAggregation.days(steps, observed: start, count: 1, units: Self.units, utcOffset: { _ in 0 })?.first)
        #expect(day.precipitation == nil, "\(String(describing: day.precipitation))")
        #expect(day.windSpeed == 40 && day.windDirection == 270)
        #expect(day.high == 23 && day.low == 0)
        // 150 is possible in °F (65.6 °C): judged in the steps' unit.
        let fahrenheit = Forecast.Units(temperature: "°F", precipitation: "mm", windSpeed: "km/h")
        steps[17].temperature = 150
        let hot = try #require(
            DailyAggregation.days(steps, observed: start, count: 1, units: fahrenheit, utcOffset: { _ in 0 })?.first)
        #expect(hot.high == 150)
    }
}

/// The JSON of the days: `days`, with `today` and `tomorrow` derived from it; a state saved
/// before `days` existed (only `today`/`tomorrow`) still reads.
@Suite struct ForecastDaysCodingTests {
    @Test func todayAndTomorrowAreTheFirstTwoDays() throws {
        var forecast = Forecast(
            days: [.init(date: "2026-10-05", high: 20), .init(date: "2026-10-06", low: 3), .init(date: "2026-10-07")])
        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(forecast)) as? [String: Any]
        #expect((json?["days"] as? [Any])?.count == 3)
        #expect((json?["today"] as? [String: Any])?["date"] as? String == "2026-10-05")
        #expect((json?["tomorrow"] as? [String: Any])?["low"] as? Double == 3)
        forecast.tomorrow = nil
        #expect(forecast.days?.map(\.date) == ["2026-10-05"])
    }

    @Test func aStateSavedBeforeDaysStillReads() throws {
        let old = #"{"today":{"date":"2026-01-16","high":-0.2},"tomorrow":{"date":"2026-01-17","low":-8.1},"units":{}}"#
        let forecast = try JSONDecoder().decode(Forecast.self, from: Data(old.utf8))
        #expect(forecast.days?.map(\.date) == ["2026-01-16", "2026-01-17"])
        #expect(forecast.today?.high == -0.2 && forecast.tomorrow?.low == -8.1)
    }
}
