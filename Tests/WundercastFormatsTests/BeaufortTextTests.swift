import Foundation
import Testing
import WundercastModel
import WundercastFormats
import WundercastTestSupport

/// Wind in Beaufort (`WindSpeedUnit=bft`): the force with its unit in templates, with its WMO
/// name in human text (the line and the tooltip), for wind and gusts.
@Suite struct BeaufortTextTests {
    static func state(wind: Double = 5, gusts: Double? = 7) -> WeatherState {
        var state = SampleStates.weather()
        state.weather?.windSpeed = wind
        state.weather?.units.windSpeed = "Bft"
        state.weather?.forecast = Forecast(windGusts: gusts, units: .init(windGusts: "Bft"))
        return state
    }

    @Test func humanLineNamesTheForce() {
        let line = HumanFormat.line(Self.state(), now: SampleStates.now)
        #expect(line.contains("wind 5 Bft, fresh breeze from E"), "\(line)")
        let calm = HumanFormat.line(Self.state(wind: 0), now: SampleStates.now)
        #expect(calm.contains("wind 0 Bft, calm,") || calm.hasSuffix("wind 0 Bft, calm"), "\(calm)")
        #expect(!calm.contains("from E"))
    }

    @Test func tooltipNamesWindAndGusts() {
        let tooltip = BarItem(state: Self.state(), now: SampleStates.now).tooltip
        #expect(tooltip.contains("Wind 5 Bft, fresh breeze from E"), "\(tooltip)")
        #expect(tooltip.contains("Gusts 7 Bft, near gale"), "\(tooltip)")
    }

    @Test func templatesHaveTheForceAndUnit() throws {
        let values = Placeholder.values(Self.state(), now: SampleStates.now, icons: .emoji)
        #expect(values[.wind] == "5 Bft")
        #expect(values[.gusts] == "7 Bft")
    }

    /// Only a whole force 0–12 labelled `Bft` has a name; km/h never does.
    @Test(
        arguments: [
            (5.0, "Bft", "fresh breeze"), (12, "Bft", "hurricane"), (0, "beaufort", "calm"), (5.5, "Bft", nil),
            (13, "Bft", nil), (-1, "Bft", nil), (5, "km/h", nil), (5, nil, nil),
        ] as [(Double, String?, String?)])
    func namesOnlyForces(speed: Double, unit: String?, name: String?) {
        #expect(HumanFormat.beaufortName(speed, unit: unit) == name)
    }
}
