import Foundation
import Testing
import WundercastModel
import WundercastProviders
import WundercastTestSupport

@Suite struct PressureTendencyTests {
    static let start = Date(timeIntervalSince1970: 1_768_590_000)

    static func sample(_ hours: Double, _ pressure: Double) -> PressureTendency.Sample {
        .init(time: start.addingTimeInterval(hours * 3600), pressure: pressure)
    }

    @Test(arguments: [
        (0.0, PressureTendency.Trend.steady), (0.94, .steady), (0.95, .rising), (1.0, .rising), (-0.94, .steady),
        (-0.96, .falling),
        (-1.0, .falling), (-6.2, .falling), (3.6, .rising),
    ])
    func steadyBelowOneHectopascalInThreeHours(change: Double, trend: PressureTendency.Trend) {
        #expect(PressureTendency(change: change, source: .hourly).trend == trend)
    }

    @Test func changeIsRoundedToATenthAndNeverNegativeZero() {
        let tiny = PressureTendency(change: -0.04, source: .history)
        #expect(tiny.change == 0 && tiny.change.sign == .plus && tiny.trend == .steady)
        #expect(PressureTendency(change: 1034.6 - 1033.3, source: .hourly).change == 1.3)
    }

    @Test func anHourlySeriesComparesTheHourOfTheObservationWithThreeHoursBefore() throws {
        let samples = [
            Self.sample(0, 1010), Self.sample(1, 1009), Self.sample(2, 1008.4), Self.sample(3, 1007.9),
            Self.sample(4, 1007.5),
        ]
        // Observed 3 h 20 min after the start: the later sample is 3 h, the earlier 0 h.
        let tendency = try #require(
            PressureTendency.compute(
                samples.shuffled(), at: Self.start.addingTimeInterval(3 * 3600 + 1200), source: .hourly))
        #expect(tendency.change == -2.1 && tendency.trend == .falling && tendency.source == .hourly)
    }

    @Test func irregularSamplesAreScaledToThreeHours() throws {
        // 2 h 30 min apart, +2.0 hPa: 2.4 hPa per 3 h.
        let samples = [Self.sample(0.5, 1000), Self.sample(3, 1002)]
        let tendency = try #require(
            PressureTendency.compute(samples, at: Self.start.addingTimeInterval(3 * 3600), source: .history))
        #expect(tendency.change == 2.4 && tendency.trend == .rising)
    }

    @Test func withoutSamplesFarEnoughApartOrRecentEnoughThereIsNone() {
        let observed = Self.start.addingTimeInterval(3 * 3600)
        // The earlier sample is 2 h before the later one: more than 30 min off 3 h.
        #expect(
            PressureTendency.compute([Self.sample(1, 1000), Self.sample(3, 1003)], at: observed, source: .hourly) == nil
        )
        // The later sample is 1 h 30 min before the observation.
        #expect(
            PressureTendency.compute([Self.sample(-1.5, 1000), Self.sample(1.5, 1003)], at: observed, source: .hourly)
                == nil)
        // Samples after the observation are not used.
        #expect(
            PressureTendency.compute([Self.sample(3.5, 1000), Self.sample(6.5, 1003)], at: observed, source: .hourly)
                == nil)
        #expect(
            PressureTendency.compute([Self.sample(0, .nan), Self.sample(3, 1003)], at: observed, source: .hourly) == nil
        )
        #expect(PressureTendency.compute([], at: observed, source: .hourly) == nil)
        for absurd in [1e300, 0, -1013] {
            #expect(
                PressureTendency.compute([Self.sample(0, absurd), Self.sample(3, 1003)], at: observed, source: .hourly)
                    == nil)
        }
    }

    @Test func historyOfFetchesGivesATendency() throws {
        var history = PressureHistory()
        // A fetch every 15 min for 4 h, pressure falling 0.25 hPa each time; one fetch repeated.
        for step in 0...16 {
            history.record(1015 - 0.25 * Double(step), at: Self.start.addingTimeInterval(Double(step) * 900))
        }
        history.record(1011, at: Self.start.addingTimeInterval(16 * 900))
        let tendency = try #require(history.tendency(at: Self.start.addingTimeInterval(16 * 900)))
        // 1011 (4 h) against 1014 (1 h): -3.0 hPa.
        #expect(tendency == PressureTendency(change: -3, source: .history))
        #expect(history.samples.count == 17)
        #expect(history.tendency(at: Self.start.addingTimeInterval(3600)) == nil)  // not 3 h of history yet
    }

    @Test func historyKeepsOnlyWhatATendencyCanUse() {
        var history = PressureHistory()
        history.record(.infinity, at: Self.start)
        history.record(1e300, at: Self.start)
        history.record(-1013, at: Self.start)
        #expect(history.samples.isEmpty)
        for step in 0..<400 { history.record(1000, at: Self.start.addingTimeInterval(Double(step) * 60)) }
        let newest = Self.start.addingTimeInterval(399 * 60)
        #expect(history.samples.count <= PressureHistory.capacity)
        #expect(history.samples.allSatisfy { newest.timeIntervalSince($0.time) <= PressureHistory.keep })
        #expect(history.samples.map(\.time) == history.samples.map(\.time).sorted())
        // An older sample arriving late is put in order.
        history.record(999, at: newest.addingTimeInterval(-90))
        #expect(history.samples.map(\.time) == history.samples.map(\.time).sorted())
    }

    /// The tendency on the recorded Bucharest series, computed here from the raw hourly values.
    @Test func recordedSeries() throws {
        let json =
            try JSONSerialization.jsonObject(
                with: Data(Fixtures.bytes(OpenMeteoRecordings.bucharest))) as! [String: Any]
        let hourly = json["hourly"] as! [String: Any]
        let times = hourly["time"] as! [String]
        let pressures = hourly["pressure_msl"] as! [Double]
        let later = pressures[times.firstIndex(of: "2026-01-16T22:00")!]
        let earlier = pressures[times.firstIndex(of: "2026-01-16T19:00")!]
        let weather = try OpenMeteoProvider.decode(
            status: 200, body: Fixtures.bytes(OpenMeteoRecordings.bucharest))
        #expect(weather.forecast?.pressureTendency == PressureTendency(change: later - earlier, source: .hourly))
    }
}

@Suite struct ForecastCalendarTests {
    @Test(arguments: [
        (0, "1970-01-01"), (-1, "1969-12-31"), (20_490, "2026-02-06"), (11_016, "2000-02-29"), (19_416, "2023-02-28"),
        (-719_468, "0000-03-01"),
    ])
    func dateText(day: Int, text: String) {
        #expect(Forecast.dateText(day: day) == text)
        #expect(Forecast.day(ofDateText: text) == day)
    }

    @Test func everyDayOfFourHundredYearsRoundTrips() {
        var previous: String?
        for day in stride(from: -200_000, through: 200_000, by: 7) {
            let text = Forecast.dateText(day: day)
            #expect(Forecast.day(ofDateText: text) == day)
            if let previous { #expect(previous < text) }
            previous = text
        }
    }

    @Test(arguments: [
        "2026-02-29", "2100-02-29", "2026-13-01", "2026-00-10", "2026-1-01", "26-01-01", "2026-01-01T", "",
    ])
    func invalidDates(text: String) {
        #expect(Forecast.day(ofDateText: text) == nil)
    }

    @Test func localDaysAndClockTimes() {
        let instant = Date(timeIntervalSince1970: 1_770_435_900)  // 2026-02-07 03:45 UTC
        #expect(Forecast.localDay(of: instant, utcOffsetSeconds: 0) == 20_491)
        #expect(Forecast.localDay(of: instant, utcOffsetSeconds: -18_000) == 20_490)  // 22:45 in New York
        #expect(Forecast.clockReading(instant, utcOffsetSeconds: -18_000) == (22, 45))
        #expect(Forecast.clockReading(instant, utcOffsetSeconds: 19_800) == (9, 15))  // India
        #expect(Forecast.clockReading(Date(timeIntervalSince1970: -60), utcOffsetSeconds: 0) == (23, 59))
        // A midnight an hour off a whole day (another offset on that day) still names its day.
        #expect(
            Forecast.localDay(startingAt: Date(timeIntervalSince1970: 1_770_418_800 - 3600), utcOffsetSeconds: 3600)
                == 20_491)
    }

    @Test func nextHoursAreAfterTheObservationAndWithinTwelveHours() {
        let observed = Date(timeIntervalSince1970: 1_000_000)
        let hours = (-5...30).map { Forecast.Hour(time: observed.addingTimeInterval(Double($0) * 1800)) }
        let next = Forecast.nextHours(hours.shuffled(), after: observed)
        #expect(next.count == 12)
        #expect(next.first?.time == observed.addingTimeInterval(1800))
        #expect(next.map(\.time) == next.map(\.time).sorted())
        #expect(next.allSatisfy { $0.time > observed && $0.time <= observed.addingTimeInterval(12 * 3600) })
    }
}
