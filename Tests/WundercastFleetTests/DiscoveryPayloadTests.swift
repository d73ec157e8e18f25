import Foundation
import Testing
import WundercastFleet
import WundercastModel
import WundercastProtocol
import WundercastSupport

@Suite("Home Assistant discovery message")
struct DiscoveryPayloadTests {
    @Test("every configured unit keeps the rule", arguments: HomeAssistantRules.all)
    func everyConfiguredUnitKeepsTheRule(_ rule: HomeAssistantRule) throws {
        for units in FleetSamples.configuredUnits {
            let payload = try JSONValue(payload: FleetSamples.discovery(units).message.payload)
            #expect(rule.violations(payload) == [], "\(units): \(rule.source)")
        }
    }

    /// A payload broken one way, and the rule that must catch it: the rules are not vacuous.
    struct Breakage: Sendable, CustomTestStringConvertible {
        var rule: String
        var path: [String]
        var value: JSONValue?
        var testDescription: String { "\(path.joined(separator: ".")) breaks \"\(rule)\"" }
    }

    static let breakages: [Breakage] = [
        Breakage(rule: "device and origin", path: ["origin", "name"], value: nil),
        Breakage(rule: "device identified", path: ["device", "identifiers"], value: nil),
        Breakage(rule: "components: each", path: ["components", "temperature", "unique_id"], value: nil),
        Breakage(
            rule: "unique_ids differ", path: ["components", "humidity", "unique_id"],
            value: .string(
                "\(FleetSamples.deviceID)_temperature")),
        Breakage(rule: "no object_id", path: ["components", "status", "object_id"], value: .string("van_status")),
        Breakage(
            rule: "default_entity_id is", path: ["components", "humidity", "default_entity_id"],
            value: .string(
                "sensor.Van_humidity")),
        Breakage(
            rule: "default_entity_id is", path: ["components", "location", "default_entity_id"],
            value: .string(
                "sensor.wundercast_van_location")),
        Breakage(
            rule: "unit is one", path: ["components", "wind_speed", "unit_of_measurement"], value: .string("kmh")),
        Breakage(rule: "unit is one", path: ["components", "temperature", "device_class"], value: .string("dew")),
        Breakage(
            rule: "state class is one", path: ["components", "wind_direction", "state_class"],
            value: .string(
                "measurement")),
        Breakage(
            rule: "measurement_angle", path: ["components", "humidity", "state_class"],
            value: .string(
                "measurement_angle")),
        Breakage(rule: "options", path: ["components", "status", "state_class"], value: .string("measurement")),
        Breakage(rule: "options", path: ["components", "status", "options"], value: .array([])),
        Breakage(rule: "state_topic", path: ["components", "condition", "state_topic"], value: nil),
        Breakage(rule: "source_type", path: ["components", "location", "source_type"], value: .string("satellite")),
        Breakage(rule: "availability", path: ["availability"], value: .string(FleetSamples.prefix)),
    ]

    @Test("each rule catches a payload broken its way", arguments: breakages)
    func ruleCatchesBreakage(_ breakage: Breakage) throws {
        let rule = try #require(HomeAssistantRules.all.first { $0.description.contains(breakage.rule) })
        let payload = try JSONValue(payload: FleetSamples.discovery().message.payload)
        #expect(rule.violations(payload) == [])
        #expect(rule.violations(payload.setting(breakage.path, to: breakage.value)) != [])
    }

    @Test func topicDeviceOriginAndAvailability() throws {
        let discovery = try FleetSamples.discovery()
        #expect(discovery.configTopic == "homeassistant/device/\(FleetSamples.deviceID)/config")
        #expect(discovery.homeAssistantStatusTopic == "homeassistant/status")
        let payload = try JSONValue(payload: discovery.message.payload)
        #expect(payload["device"]?["identifiers"] == .array([.string(FleetSamples.deviceID)]))
        #expect(payload["device"]?["name"]?.string == "van")
        #expect(payload["device"]?["sw_version"]?.string == Wundercast.version)
        #expect(payload["device"]?["model"]?.string == "wundercastd")
        #expect(payload["origin"]?["sw_version"]?.string == Wundercast.version)
        #expect(payload["origin"]?["support_url"]?.string == Wundercast.projectURL)
        let availability = JSONValue.object([
            "topic": .string("wundercast/van/availability"), "payload_available": .string("online"),
            "payload_not_available": .string("offline"),
        ])
        #expect(payload["availability"] == .array([availability]))
        #expect(payload["state_topic"] == nil, "a shared state topic would reach the device tracker")
    }

    @Test("the sensors' units are those of the state's values", arguments: FleetSamples.configuredUnits)
    func unitsMatchTheState(_ units: UnitPreferences) throws {
        let components = try #require(JSONValue(payload: FleetSamples.discovery(units).message.payload)["components"])
        let state = WeatherUnits.wanted(units)
        #expect(components["temperature"]?["unit_of_measurement"]?.string == state.temperature)
        #expect(components["apparent_temperature"]?["unit_of_measurement"]?.string == state.temperature)
        // The same unit, as Home Assistant spells it: `Beaufort` for the state's `Bft`.
        let wind = try #require(components["wind_speed"]?["unit_of_measurement"]?.string)
        #expect(wind == (units.windSpeed == .bft ? "Beaufort" : state.windSpeed))
        #expect(WindSpeedUnit(label: wind) == units.windSpeed)
        #expect(components["wind_direction"]?["unit_of_measurement"]?.string == state.windDirection)
        #expect(components["humidity"]?["unit_of_measurement"]?.string == state.relativeHumidity)
        #expect(components["sea_level_pressure"]?["unit_of_measurement"]?.string == units.pressure.label)
    }

    @Test func deviceTrackerReadsTheLocationTopic() throws {
        let payload = try JSONValue(payload: FleetSamples.discovery().message.payload)
        let tracker = try #require(payload["components"]?["location"])
        #expect(tracker["platform"]?.string == "device_tracker")
        #expect(tracker["json_attributes_topic"]?.string == "wundercast/van/location")
        #expect(tracker["source_type"]?.string == "gps")
        #expect(tracker["state_topic"] == nil)
        #expect(tracker["unique_id"]?.string == "\(FleetSamples.deviceID)_location")
    }

    @Test(
        "default_entity_id from the device name",
        arguments: [
            ("van", "sensor.wundercast_van_temperature"), ("Van 2 (Ø)", "sensor.wundercast_van_2_temperature"),
            ("__Boat__", "sensor.wundercast_boat_temperature"),
            ("Øå", "sensor.wundercast_\(FleetSamples.deviceID)_temperature"),
        ])
    func defaultEntityID(name: String, expected: String) throws {
        let payload = try JSONValue(payload: FleetSamples.discovery(name: name).message.payload)
        #expect(payload["components"]?["temperature"]?["default_entity_id"]?.string == expected)
        #expect(payload["device"]?["name"]?.string == name)
    }

    @Test("each sensor's template reads its value from the state")
    func templatesReadTheState() throws {
        let state = try JSONValue(payload: FleetSamples.topics().stateMessage(FleetSamples.fullState()).payload)
        let expected: [String: JSONValue] = [
            "temperature": .number(-5.3), "apparent_temperature": .number(-9.2), "humidity": .number(72),
            "wind_speed": .number(4.7), "wind_direction": .number(81), "sea_level_pressure": .number(1034.7),
            "precipitation_chance": .number(20), "condition": .string("Clear sky"), "status": .string("fresh"),
        ]
        for (id, value) in try sensorTemplates() {
            #expect(try ValueTemplateEvaluator.render(value, state) == expected[id], "\(id)")
        }
    }

    /// What a provider may leave out, and the sensors that are then unknown.
    enum Missing: CaseIterable, Sendable {
        case weather, forecast, forecastHours, everyValue

        func remove(from state: inout WeatherState) {
            switch self {
            case .weather: state.weather = nil
            case .forecast: state.weather?.forecast = nil
            case .forecastHours: state.weather?.forecast?.hours = []
            case .everyValue: state.weather = Weather(units: .requested(.metric))
            }
        }

        var unknown: Set<String> {
            switch self {
            case .forecast: ["sea_level_pressure", "precipitation_chance"]
            case .forecastHours: ["precipitation_chance"]
            case .weather, .everyValue:
                [
                    "temperature", "apparent_temperature", "humidity", "wind_speed", "wind_direction",
                    "sea_level_pressure", "precipitation_chance", "condition",
                ]
            }
        }
    }

    @Test("a value the provider did not give is unknown, never 0", arguments: Missing.allCases)
    func missingValueIsUnknown(_ missing: Missing) throws {
        var fullState = FleetSamples.fullState()
        missing.remove(from: &fullState)
        let state = try JSONValue(payload: FleetSamples.topics().stateMessage(fullState).payload)
        let expectedUnknown = missing.unknown
        for (id, template) in try sensorTemplates() {
            let rendered = try ValueTemplateEvaluator.render(template, state)
            #expect((rendered == nil) == expectedUnknown.contains(id), "\(id): \(String(describing: rendered))")
        }
    }

    /// `(id, value_template)` of every sensor that reads one member (the alert count's template
    /// counts: Jinja itself renders it, in `AlertTemplateTests`).
    private func sensorTemplates() throws -> [(String, String)] {
        let payload = try JSONValue(payload: FleetSamples.discovery().message.payload)
        return HomeAssistantRules.sensors(payload).compactMap { id, config in
            id == "alert_count" ? nil : config["value_template"]?.string.map { (id, $0) }
        }
    }
}
