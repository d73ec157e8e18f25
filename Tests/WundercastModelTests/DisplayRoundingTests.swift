import Foundation
import Testing
import WundercastModel
import WundercastProtocol
import WundercastFormats
import WundercastTestSupport

/// The one display rule (``DisplayRounding``): half away from zero, decimals per quantity and
/// unit, never `-0`; and every display path (human line, placeholders and templates, each bar
/// format and tooltip, `around`) going through it.
@Suite struct DisplayRoundingTests {
    @Test(arguments: [
        (-0.4, 0, "0"), (-0.5, 0, "-1"), (0.49, 0, "0"), (0.5, 0, "1"), (-0.0, 0, "0"), (-0.49999, 0, "0"),
        (12.5, 0, "13"), (-12.5, 0, "-13"), (1034.7, 0, "1035"), (-5.3, 0, "-5"),
        (-0.04, 1, "0.0"), (-0.05, 1, "-0.1"), (0.25, 1, "0.3"), (-0.25, 1, "-0.3"), (2, 1, "2.0"),
        (2.675, 2, "2.68"), (1.005, 2, "1.01"), (29.925, 2, "29.93"), (-0.004, 2, "0.00"), (0.0384, 2, "0.04"),
        (1e-5, 2, "0.00"), (-1e-5, 2, "0.00"), (5e-7, 6, "0.000001"), (123_456_789.5, 0, "123456790"),
    ])
    func rule(value: Double, decimals: Int, text: String) {
        #expect(DisplayRounding.text(value, decimals: decimals) == text)
    }

    @Test func valuesNoQuantityHasShowNothing() {
        for value in [Double.nan, .infinity, -.infinity, 1e12, -1e15] {
            #expect(DisplayRounding.text(value, decimals: 1) == "")
            #expect(DisplayRounding.integer(value) == nil)
        }
        #expect(DisplayRounding.integer(-0.4) == 0 && DisplayRounding.integer(71.5) == 72)
    }

    @Test func decimalsPerQuantityAndUnit() {
        #expect(DisplayRounding.temperature(22.46) == "22")
        #expect(DisplayRounding.windSpeed(2.5378) == "3")
        #expect(DisplayRounding.percent(71.5) == "72")
        #expect(DisplayRounding.pressure(1034.7, unit: "hPa") == "1035")
        #expect(DisplayRounding.pressure(30.5547, unit: "inHg") == "30.55")
        #expect(DisplayRounding.pressure(776.09, unit: "mmHg") == "776")
        #expect(DisplayRounding.pressure(1034.7, unit: "bananas") == "1035")  // unknown: hPa's
        #expect(DisplayRounding.pressureChange(1.3, unit: "hPa") == "1.3")
        #expect(DisplayRounding.pressureChange(0.0384, unit: "inHg") == "0.04")
        #expect(DisplayRounding.pressureChange(-1.5751, unit: "mmHg") == "-1.6")
        #expect(DisplayRounding.precipitation(1.25, unit: "mm") == "1.3")
        #expect(DisplayRounding.precipitation(0.0512, unit: "in") == "0.05")
        #expect(DisplayRounding.precipitation(0.0512, unit: "inch") == "0.05")
        #expect(DisplayRounding.precipitation(0.4, unit: nil) == "0.4")
    }

    // MARK: -0 through every display path

    /// Temperatures near zero and what each must show.
    static let nearZero: [(Double, String)] = [(-0.4, "0"), (-0.5, "-1"), (0.49, "0"), (-0.0, "0"), (-0.04999, "0")]

    /// `-0` as a number anywhere in `text` (`-0`, `-0.0`, `-0.00` not followed by more digits).
    static func showsNegativeZero(_ text: String) -> Bool {
        text.range(of: #"-0(\.0+)?(?![0-9.])"#, options: .regularExpression) != nil
    }

    /// A state whose every temperature is `t`, wind `|t|` (a speed is never negative),
    /// pressure tendency `-0.04` hPa, and an amount of precipitation that rounds to nothing.
    static func state(_ t: Double) -> WeatherState {
        var state = SampleStates.weather(temperature: t)
        state.weather?.apparentTemperature = t
        state.weather?.windSpeed = abs(t)
        var forecast = SampleStates.forecast()
        forecast.today?.high = t
        forecast.today?.low = t
        forecast.tomorrow?.high = t
        forecast.hours = forecast.hours?.map { hour in
            var hour = hour
            hour.temperature = t
            hour.precipitation = 0.04
            return hour
        }
        forecast.pressureTendency = PressureTendency(change: -0.04, source: .hourly)
        state.weather?.forecast = forecast
        return state
    }

    @Test(arguments: nearZero)
    func humanLine(_ t: Double, _ shown: String) {
        let line = HumanFormat.line(Self.state(t), now: SampleStates.now)
        #expect(line.hasPrefix("\(shown)°C "), "\(line)")
        #expect(!Self.showsNegativeZero(line), "\(line)")
    }

    @Test(arguments: nearZero)
    func placeholdersAndTemplates(_ t: Double, _ shown: String) throws {
        let values = Placeholder.values(Self.state(t), now: SampleStates.now, icons: .emoji)
        for placeholder in [Placeholder.temperature, .apparent, .high, .low] {
            #expect(values[placeholder] == shown, "{\(placeholder.rawValue)}")
        }
        #expect(values[.pressureTendency] == "steady 0.0 hPa/3h")
        let template = try Template(Placeholder.allCases.map { "{\($0.rawValue)}" }.joined(separator: "|"))
        let text = template.render(values)
        #expect(!Self.showsNegativeZero(text), "\(text)")
    }

    @Test(arguments: nearZero)
    func everyBarFormatAndTooltip(_ t: Double, _ shown: String) throws {
        let item = BarItem(state: Self.state(t), now: SampleStates.now)
        #expect(item.text.contains(" \(shown)°C "), "\(item.text)")
        #expect(item.tooltip.contains("Temperature \(shown)°C (feels like \(shown)°C)"), "\(item.tooltip)")
        #expect(item.tooltip.contains("Today \(shown)°C / \(shown)°C"), "\(item.tooltip)")
        #expect(item.tooltip.contains { $0.hasSuffix(" \(shown)°C Slight rain (20%)") }, "\(item.tooltip)")
        for format in OutputFormat.allCases where format.isBar {
            let output = try #require(format.bar(item))
            #expect(!Self.showsNegativeZero(output), "\(format): \(output)")
            #expect(output.contains("\(shown)°C"), "\(format): \(output)")
        }
        for line in item.tooltip { #expect(!Self.showsNegativeZero(line), "\(line)") }
    }

    @Test(arguments: nearZero)
    func aroundGrid(_ t: Double, _ shown: String) {
        let weather = Self.state(t).weather
        let cells = (0..<9).map {
            SocketProtocol.AroundResponse.Cell(
                latitude: 50 - Double($0 / 3), longitude: 11 + Double($0 % 3), weather: weather)
        }
        let text = AroundFormat.text(
            .init(center: .init(latitude: 49, longitude: 12), step: 1, cells: cells), icons: .emoji)
        #expect(text.components(separatedBy: "\(shown)°C").count == 10, "\(text)")
        #expect(!Self.showsNegativeZero(text), "\(text)")
    }

    /// Other units through the faces: knots, inHg with its tendency, inches of precipitation.
    @Test func convertedUnitsInTheFaces() throws {
        var state = SampleStates.weather()
        var weather = try #require(state.weather)
        weather.forecast = SampleStates.forecast()
        state.weather = weather.converted(
            to: UnitPreferences(temperature: .fahrenheit, windSpeed: .kn, pressure: .inHg, precipitation: .inch))
        let values = Placeholder.values(state, now: SampleStates.now, icons: .emoji)
        #expect(values[.temperature] == "22" && values[.unit] == "°F")  // -5.3 °C
        #expect(values[.wind] == "3 kn")  // 4.7 km/h
        #expect(values[.gusts] == "7 kn")  // 12.2 km/h
        #expect(values[.pressure] == "30.55 inHg")  // 1034.7 hPa
        #expect(values[.pressureTendency] == "rising +0.04 inHg/3h")  // 1.3 hPa
        #expect(
            HumanFormat.line(state, now: SampleStates.now).hasPrefix("22°F Clear sky, humidity 72%, wind 3 kn from E, ")
        )
        let tooltip = BarItem(state: state, now: SampleStates.now).tooltip
        #expect(tooltip.contains("Wind 3 kn from E"))
        #expect(tooltip.contains("Pressure 30.55 inHg, rising +0.04 inHg/3h"))
        #expect(tooltip.contains { $0.hasSuffix(" Slight rain (20%, 0.02 in)") }, "\(tooltip)")  // 0.4 mm
    }
}
