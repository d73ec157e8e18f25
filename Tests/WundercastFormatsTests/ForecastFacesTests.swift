import Foundation
import Testing
import WundercastSupport
import WundercastModel
import WundercastProviders
import WundercastFormats
import WundercastTestSupport

/// The forecast in `--template` placeholders and the waybar tooltip, from recorded answers.
@Suite struct ForecastFacesTests {
    /// The state with the weather decoded from the recording at `path` (or `edited`), fetched
    /// at its observation time.
    static func state(_ path: String, body: [UInt8]? = nil) throws -> WeatherState {
        var state = SampleStates.weather()
        state.weather = try OpenMeteoProvider.decode(status: 200, body: body ?? Fixtures.bytes(path))
        state.fetchedAt = state.weather?.time
        return state
    }

    /// The reader's clock: the observation time of `state`'s weather, when its recording was current.
    static func now(_ state: WeatherState) -> Date { state.weather?.time ?? SampleStates.now }

    static func values(_ state: WeatherState) -> [Placeholder: String] {
        Placeholder.values(state, now: now(state), icons: .emoji)
    }

    @Test func dailyPlaceholdersOnThePlacesClock() throws {
        let values = Self.values(try Self.state(OpenMeteoRecordings.newYork))
        #expect(values[.high] == "0")  // -0.2: never "-0"
        #expect(values[.low] == "-9")
        #expect(values[.sunrise] == "07:00")
        #expect(values[.sunset] == "17:19")
        #expect(values[.precipitationProbability] == nil && values[.gusts] == nil && values[.pressureTendency] == nil)
        let text = try Template("{icon} {temperature}{unit} ↑{high} ↓{low} {sunrise}–{sunset} {pressure}").render(
            values)
        #expect(text == "☁️ -1°C ↑0 ↓-9 07:00–17:19")
    }

    @Test func pressureGustsAndChanceOfPrecipitation() throws {
        let bucharest = Self.values(try Self.state(OpenMeteoRecordings.bucharest))
        #expect(bucharest[.gusts] == "12 km/h")
        #expect(bucharest[.pressure] == "1035 hPa")
        #expect(bucharest[.pressureTendency] == "rising +1.3 hPa/3h")
        let zagreb = Self.values(try Self.state(OpenMeteoRecordings.zagreb))
        #expect(zagreb[.precipitationProbability] == "0%")
        #expect(zagreb[.high] == "25" && zagreb[.low] == nil)
    }

    @Test(arguments: [
        (-2.04, "falling -2.0 hPa/3h"), (0.0, "steady 0.0 hPa/3h"), (-0.3, "steady -0.3 hPa/3h"),
        (6.25, "rising +6.3 hPa/3h"), (-0.04, "steady 0.0 hPa/3h"),
    ])
    func tendencyText(change: Double, text: String) {
        #expect(Placeholder.tendencyText(PressureTendency(change: change, source: .history)) == text)
    }

    @Test func sunTimesSayUTCWithoutAnOffset() throws {
        var state = try Self.state(OpenMeteoRecordings.newYork)
        state.weather?.forecast?.utcOffsetSeconds = nil
        #expect(Self.values(state)[.sunrise] == "12:00 UTC")
    }

    /// The tooltip in sections: now, next hours, next days, sun and moon, then the place; an
    /// icon on each hourly and daily line; days named Today, Tomorrow, then by weekday
    /// (2026-02-08 was a Sunday).
    @Test func waybarTooltipShowsTheForecastInSections() throws {
        let state = try Self.state(OpenMeteoRecordings.newYork)
        let item = BarItem(state: state, now: Self.now(state))
        #expect(
            item.tooltipSections.map(\.heading) == [nil, "Now", "Next hours", "Next days", "Sun and moon", nil]
                || item.tooltipSections.map(\.heading) == ["Now", "Next hours", "Next days", "Sun and moon", nil])
        let sections = Dictionary(
            item.tooltipSections.compactMap { section in section.heading.map { ($0, section.lines) } },
            uniquingKeysWith: { first, _ in first })
        #expect(sections["Now"]?.first == "Overcast")
        let hours = try #require(sections["Next hours"])
        #expect(hours.count == BarItem.tooltipHours)
        #expect(hours.first == "17:00 ☁️ -2°C Overcast")
        #expect(
            sections["Next days"] == [
                "Today ☁️ 0°C / -9°C Overcast", "Tomorrow 🌨️ -5°C / -18°C Slight snow fall (0.4 mm)",
                "Sunday ☁️ -9°C / -22°C Overcast", "Monday ☁️ -4°C / -18°C Overcast",
                "Tuesday ☁️ -1°C / -11°C Overcast", "Wednesday 🌨️ 2°C / -5°C Slight snow fall (2.6 mm)",
                "Thursday ☁️ 0°C / -5°C Overcast",
            ])
        #expect(sections["Sun and moon"] == ["Sunrise 07:00, sunset 17:19"])
        #expect(item.tooltipSections.last?.lines.first?.contains("Regensburg") == true)
        // waybar renders Pango: the headings bold, every text escaped.
        let line = WaybarFormat.line(item)
        #expect(line.contains("\\n<b>Next days</b>\\nToday ☁️ 0°C / -9°C Overcast\\n"))
        #expect(line.contains("\\n<b>Sun and moon</b>\\nSunrise 07:00, sunset 17:19\\n"))
        #expect(line.contains("\"tooltip\":\"<b>Now</b>\\nOvercast"))
        // Plain lines for the other bars: a heading is a line of its own.
        #expect(item.tooltip.contains("Next days") && !item.tooltip.contains { $0.contains("<b>") })
    }

    @Test func hourLinesShowChanceAndAmountOfPrecipitation() throws {
        let body = try Fixtures.edited(OpenMeteoRecordings.newYork) { json in
            var hourly = json["hourly"] as! [String: Any]
            let count = (hourly["time"] as! [Any]).count
            hourly["precipitation_probability"] = (0..<count).map { $0 % 2 == 0 ? 40 : 0 }
            hourly["precipitation"] = (0..<count).map { $0 % 2 == 0 ? 1.25 : 0 }
            json["hourly"] = hourly
        }
        let state = try Self.state("", body: body)
        let tooltip = BarItem(state: state, now: Self.now(state)).tooltip
        // 17:00 is the hour at index 17 (odd): no precipitation; 18:00 has 40% and 1.3 mm.
        #expect(tooltip.contains("17:00 ☁️ -2°C Overcast (0%)"))
        #expect(tooltip.contains("18:00 ☁️ -3°C Overcast (40%, 1.3 mm)"))
    }

    @Test func hostileUnitLabelsAreSanitized() throws {
        var state = try Self.state(OpenMeteoRecordings.bucharest)
        state.weather?.forecast?.units.windGusts = "\u{1B}[2Jkm/h\nEVIL" + String(repeating: "x", count: 1000)
        state.weather?.forecast?.units.temperature = "°C\r\n"
        let values = Self.values(state)
        let gusts = try #require(values[.gusts])
        #expect(!gusts.unicodeScalars.contains { UntrustedText.isControl($0) } && gusts.count < 20)
        let tooltip = BarItem(state: state, now: Self.now(state)).tooltip
        #expect(tooltip.allSatisfy { !$0.unicodeScalars.contains { UntrustedText.isControl($0) } })
    }

    @Test func aStateWithoutForecastHasNoForecastLines() {
        let tooltip = BarItem(state: SampleStates.weather(), now: SampleStates.now).tooltip
        #expect(!tooltip.contains { $0.hasPrefix("Today") || $0.hasPrefix("Gusts") || $0.hasPrefix("Sunrise") })
    }
}
