import Foundation
import Testing
import WundercastSupport
import WundercastModel
import WundercastProviders
import WundercastFormats
import WundercastTestSupport

/// The forecast in `--template` placeholders and the waybar tooltip, from recorded answers.
@Suite struct ForecastFacesTests {
    /// The state with the weather decoded from the recording at `path` (or `edited`).
    static func state(_ path: String, body: [UInt8]? = nil) throws -> WeatherState {
        var state = SampleStates.weather()
        state.weather = try OpenMeteoProvider.decode(status: 200, body: body ?? Fixtures.bytes(path))
        return state
    }

    static func values(_ state: WeatherState) -> [Placeholder: String] {
        Placeholder.values(state, now: SampleStates.now, icons: .emoji)
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

    @Test func waybarTooltipShowsTheForecast() throws {
        let state = try Self.state(OpenMeteoRecordings.newYork)
        let item = BarItem(state: state, now: SampleStates.now)
        let tooltip = item.tooltip
        #expect(tooltip.contains("Today: high 0°C, low -9°C"))
        #expect(tooltip.contains("Tomorrow: high -5°C, low -18°C"))
        #expect(tooltip.contains("Sunrise 07:00, sunset 17:19"))
        let hours = tooltip.filter { $0.count > 5 && $0.prefix(5).allSatisfy { $0.isNumber || $0 == ":" } }
        #expect(hours.count == BarItem.tooltipHours)
        #expect(hours.first == "17:00 -2°C Overcast")
        // The forecast comes after the current weather and before the place.
        let wind = try #require(tooltip.firstIndex { $0.hasPrefix("Wind") })
        let today = try #require(tooltip.firstIndex { $0.hasPrefix("Today") })
        let place = try #require(tooltip.firstIndex { $0.contains("Regensburg") })
        #expect(wind < today && today < place)
        let line = WaybarFormat.line(item)
        #expect(line.contains("Sunrise 07:00, sunset 17:19\\n17:00 -2°C Overcast"))
    }

    @Test func hourLinesShowChanceAndAmountOfPrecipitation() throws {
        let body = try Fixtures.edited(OpenMeteoRecordings.newYork) { json in
            var hourly = json["hourly"] as! [String: Any]
            let count = (hourly["time"] as! [Any]).count
            hourly["precipitation_probability"] = (0..<count).map { $0 % 2 == 0 ? 40 : 0 }
            hourly["precipitation"] = (0..<count).map { $0 % 2 == 0 ? 1.25 : 0 }
            json["hourly"] = hourly
        }
        let tooltip = BarItem(state: try Self.state("", body: body), now: SampleStates.now).tooltip
        // 17:00 is the hour at index 17 (odd): no precipitation; 18:00 has 40% and 1.3 mm.
        #expect(tooltip.contains("17:00 -2°C Overcast (0%)"))
        #expect(tooltip.contains("18:00 -3°C Overcast (40%, 1.3 mm)"))
    }

    @Test func hostileUnitLabelsAreSanitized() throws {
        var state = try Self.state(OpenMeteoRecordings.bucharest)
        state.weather?.forecast?.units.windGusts = "\u{1B}[2Jkm/h\nEVIL" + String(repeating: "x", count: 1000)
        state.weather?.forecast?.units.temperature = "°C\r\n"
        let values = Self.values(state)
        let gusts = try #require(values[.gusts])
        #expect(!gusts.unicodeScalars.contains { UntrustedText.isControl($0) } && gusts.count < 20)
        let tooltip = BarItem(state: state, now: SampleStates.now).tooltip
        #expect(tooltip.allSatisfy { !$0.unicodeScalars.contains { UntrustedText.isControl($0) } })
    }

    @Test func aStateWithoutForecastHasNoForecastLines() {
        let tooltip = BarItem(state: SampleStates.weather(), now: SampleStates.now).tooltip
        #expect(!tooltip.contains { $0.hasPrefix("Today") || $0.hasPrefix("Gusts") || $0.hasPrefix("Sunrise") })
    }
}
