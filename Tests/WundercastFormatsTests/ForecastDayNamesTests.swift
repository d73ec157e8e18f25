import Foundation
import Testing
import WundercastSupport
import WundercastModel
import WundercastFormats
import WundercastTestSupport

/// The tooltip's days and hours as seen on the reader's clock: a day is named by its date, days
/// and hours already over are left out; a day covered only in part says which part.
@Suite struct ForecastDayNamesTests {
    /// The New York recording (observed 2026-02-06 16:30 local, UTC−5), fetched then.
    static func newYork() throws -> WeatherState { try ForecastFacesTests.state(OpenMeteoRecordings.newYork) }

    static func section(_ heading: String, _ item: BarItem) -> [String]? {
        item.tooltipSections.first { $0.heading == heading }?.lines
    }

    /// A state whose days start yesterday, read a day after its observation: today is the
    /// recording's second day, yesterday is gone, and every hour has ended.
    @Test func staleWeatherNamesDaysByTheirDate() throws {
        let state = try Self.newYork()
        let now = try #require(state.weather?.time).addingTimeInterval(24 * 3600)  // 16:30 on the 7th
        let item = BarItem(state: state, now: now)
        let days = try #require(Self.section("Next days", item))
        #expect(days.first == "Today 🌨️ -5°C / -18°C Slight snow fall (0.4 mm)")
        #expect(days.count == 6 && days[1].hasPrefix("Tomorrow ☁️ -9°C / -22°C"))
        #expect(!days.contains { $0.contains("0°C / -9°C") }, "yesterday shown: \(days)")
        #expect(Self.section("Next hours", item) == nil)
        let values = Placeholder.values(state, now: now, icons: .emoji)
        #expect(values[.high] == "-5" && values[.low] == "-18")
        // Once the days have all passed, none is today's: no high, no day lines.
        let later = BarItem(state: state, now: now.addingTimeInterval(7 * 86_400))
        #expect(Self.section("Next days", later) == nil)
        #expect(Placeholder.values(state, now: now.addingTimeInterval(7 * 86_400), icons: .emoji)[.high] == nil)
    }

    /// Read at 19:00 local: the hours of 17:00 and 18:00 have ended, that of 19:00 has not.
    @Test func hoursThatEndedAreLeftOut() throws {
        let state = try Self.newYork()
        let now = try #require(state.weather?.time).addingTimeInterval(2.5 * 3600)
        let item = BarItem(state: state, now: now)
        let hours = try #require(Self.section("Next hours", item))
        #expect(hours.count == BarItem.tooltipHours && hours.first?.hasPrefix("19:00 ") == true, "\(hours)")
        #expect(Self.section("Next days", item)?.first == "Today ☁️ 0°C / -9°C Overcast")
    }

    /// `{precipitationProbability}` is of the first hour not ended: none once all have.
    @Test func theNextHoursChanceIsOfAnHourNotEnded() throws {
        let body = try Fixtures.edited(OpenMeteoRecordings.newYork) { json in
            var hourly = json["hourly"] as! [String: Any]
            hourly["precipitation_probability"] = ((hourly["time"] as! [Any]).indices).map { $0 }
            json["hourly"] = hourly
        }
        let state = try ForecastFacesTests.state("", body: body)
        let observed = try #require(state.weather?.time)  // 16:30 local: the first hour is 17:00, index 17
        #expect(Placeholder.values(state, now: observed, icons: .emoji)[.precipitationProbability] == "17%")
        let later = Placeholder.values(state, now: observed.addingTimeInterval(2.5 * 3600), icons: .emoji)
        #expect(later[.precipitationProbability] == "19%")
        let past = Placeholder.values(state, now: observed.addingTimeInterval(86_400), icons: .emoji)
        #expect(past[.precipitationProbability] == nil)
    }

    /// A state with one forecast day `day` of the place (UTC), read at noon of 2026-10-05.
    static func item(_ day: Forecast.Day) -> BarItem {
        let now = Date(timeIntervalSince1970: 1_791_201_600)  // 2026-10-05T12:00:00Z
        var state = SampleStates.weather(now: now)
        state.weather?.forecast = Forecast(days: [day], utcOffsetSeconds: 0, units: .init(temperature: "°C"))
        return BarItem(state: state, now: now)
    }

    @Test func aDayCoveredUntilEveningSaysUntilWhen() throws {
        let end = Date(timeIntervalSince1970: 1_791_223_200)  // 2026-10-05T18:00:00Z
        let line = Self.section(
            "Next days", Self.item(.init(date: "2026-10-05", high: 9, partial: true, coveredUntil: end)))
        #expect(line == ["Today (until 18:00) 9°C"])
        let rest = Self.section("Next days", Self.item(.init(date: "2026-10-05", high: 9, partial: true)))
        #expect(rest == ["Today (rest of day) 9°C"])
    }

    /// A low alone is labelled (never read as a high); a code the model does not know gets the
    /// generic icon, as on hour lines.
    @Test func aLowAloneIsLabelledAndAnUnknownCodeHasTheGenericIcon() throws {
        let low = Self.section("Next days", Self.item(.init(date: "2026-10-05", low: 5)))
        #expect(low == ["Today low 5°C"])
        let unknown = Self.section("Next days", Self.item(.init(date: "2026-10-05", high: 9, weatherCode: 123)))
        let icon = IconSet.emoji.icon(.unknown, isDay: true)
        #expect(!icon.isEmpty && unknown?.first?.hasPrefix("Today \(icon) 9°C") == true, "\(unknown ?? [])")
    }
}
