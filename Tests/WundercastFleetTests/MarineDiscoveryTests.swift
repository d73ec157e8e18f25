import Testing
import WundercastSupport
import WundercastModel
import WundercastFleet

/// The sea state's sensors (`[Weather] Marine=` auto or yes): Home Assistant's rules hold for
/// them in every configured unit, their units are the state's, and their templates read it.
@Suite struct MarineDiscoveryTests {
    @Test("every configured unit keeps the rules", arguments: HomeAssistantRules.all)
    func rulesHold(_ rule: HomeAssistantRule) throws {
        for units in FleetSamples.configuredUnits {
            let payload = try JSONValue(payload: FleetSamples.discovery(units, marine: true).message.payload)
            #expect(rule.violations(payload) == [], "\(units): \(rule.source)")
        }
    }

    @Test(arguments: FleetSamples.configuredUnits)
    func unitsAreTheStates(_ units: UnitPreferences) throws {
        let components = try #require(
            JSONValue(payload: FleetSamples.discovery(units, marine: true).message.payload)["components"])
        func unit(_ id: String) -> String? { components[id]?["unit_of_measurement"]?.string }
        #expect(unit("wave_height") == units.waveHeight.label && unit("swell_height") == units.waveHeight.label)
        #expect(TemperatureUnit(label: unit("sea_temperature") ?? "") == units.seaTemperature)
        #expect(WindSpeedUnit(label: unit("current_speed") ?? "") == units.currentSpeed)
        #expect(components["wave_height"]?["device_class"]?.string == "distance")
        #expect(components["current_speed"]?["device_class"]?.string == "speed")
        // Without the sea state, no sea sensors.
        let plain = try #require(JSONValue(payload: FleetSamples.discovery(units).message.payload)["components"])
        #expect(plain["wave_height"] == nil)
    }

    @Test func templatesReadTheSeaState() throws {
        var state = FleetSamples.fullState()
        var sea = SeaState(cell: .init(latitude: 53.125, longitude: 3.875))
        (sea.waveHeight, sea.swellHeight, sea.seaTemperature, sea.currentVelocity) = (0.76, 0.34, 18.4, 1)
        state.weather?.marine = sea
        let json = try JSONValue(payload: FleetSamples.topics().stateMessage(state).payload)
        let components = try #require(
            JSONValue(payload: FleetSamples.discovery(marine: true).message.payload)["components"])
        let expected: [String: Double] = [
            "wave_height": 0.76, "swell_height": 0.34, "sea_temperature": 18.4, "current_speed": 1,
        ]
        for (id, value) in expected {
            let template = try #require(components[id]?["value_template"]?.string, "\(id)")
            #expect(try ValueTemplateEvaluator.render(template, json) == .number(value), "\(id)")
        }
    }
}
