import Foundation
import Testing
import WundercastFormats
import WundercastModel
import WundercastTestSupport

/// The Moon of the state in words: the tooltip's "Sun and moon" section and the `now` line.
@Suite struct MoonTextTests {
    /// MoonDay's own example: Fredonia AZ, 2023-04-11 (UTC−7), USNO rise 00:19, set 09:35.
    static let moon = MoonDay(
        date: "2023-04-11", phase: .waningGibbous, illumination: 0.678,
        rise: ZonedTime(Date(timeIntervalSince1970: 1_681_197_540), utcOffset: -25_200),
        set: ZonedTime(Date(timeIntervalSince1970: 1_681_230_900), utcOffset: -25_200), timeZone: "America/Phoenix")

    static func state() -> WeatherState {
        var state = SampleStates.weather()
        state.moon = moon
        return state
    }

    @Test func phaseIlluminationRiseAndSet() {
        #expect(MoonText.details(Self.moon) == "waning gibbous, 68% lit, rises 00:19, sets 09:35")
        var polar = Self.moon
        (polar.rise, polar.set, polar.allDay) = (nil, nil, .up)
        #expect(MoonText.details(polar) == "waning gibbous, 68% lit, up all day")
    }

    @Test func inTheTooltipAndTheNowLine() {
        let item = BarItem(state: Self.state(), now: SampleStates.now)
        let section = item.tooltipSections.first { $0.heading == "Sun and moon" }
        #expect(section?.lines.last == "Moon: waning gibbous, 68% lit, rises 00:19, sets 09:35")
        let line = HumanFormat.line(Self.state(), now: SampleStates.now)
        #expect(line.contains(", moon waning gibbous, 68% lit, rises 00:19, sets 09:35, "), "\(line)")
        #expect(!HumanFormat.line(SampleStates.weather(), now: SampleStates.now).contains("moon"))
    }

    /// The phase's name goes through its context (`moon phase`), the rest through the catalogue.
    @Test func inTheReadersLanguage() {
        let texts = [
            "moon phase\u{4}waning gibbous": "abnehmender Mond",
            "{phase}, {illumination} lit": "{phase}, {illumination} beleuchtet",
            "rises {time}": "Aufgang {time}", "sets {time}": "Untergang {time}",
        ]
        let german = UserLocale(
            messages: .init(single: { texts[$0] ?? $0 }, plural: { $2 == 1 ? $0 : $1 }), clock: .twentyFourHour,
            decimalSeparator: ",")
        #expect(
            MoonText.details(Self.moon, german) == "abnehmender Mond, 68% beleuchtet, Aufgang 00:19, Untergang 09:35")
    }
}
