import Foundation
import Testing
import WundercastFleet
import WundercastModel
import WundercastTestSupport

/// What the fleet tests publish: a van's topics, its discovery in every configurable unit, and
/// a state with every value.
enum FleetSamples {
    static let prefix = "wundercast/van"
    static let deviceID = "0f3a9c2e5b7d41e8a6c4d2b0e9f87a65"

    /// Every combination of the units `[Weather]` can be configured to (pressure `hPa`, `inHg`,
    /// `mmHg`; wind `km/h`, `m/s`, `mph`, `kn`; `°C`, `°F`).
    static let configuredUnits: [UnitPreferences] = TemperatureUnit.configurable.flatMap { temperature in
        WindSpeedUnit.configurable.flatMap { wind in
            PressureUnit.configurable.map { pressure in
                UnitPreferences(temperature: temperature, windSpeed: wind, pressure: pressure, precipitation: .mm)
            }
        }
    }

    static func topics(_ prefix: String = prefix) throws -> FleetTopics { try FleetTopics(prefix: prefix) }

    static func discovery(
        _ units: UnitPreferences = .metric, discoveryPrefix: String = HomeAssistantDiscovery.defaultPrefix,
        deviceID: String = deviceID, name: String = "van", marine: Bool = false
    ) throws -> HomeAssistantDiscovery {
        try HomeAssistantDiscovery(
            discoveryPrefix: discoveryPrefix, deviceID: deviceID, deviceName: name, topics: topics(), units: units,
            marine: marine)
    }

    /// A fresh state with every value the sensors read: weather, sea-level pressure, the next
    /// hour's chance of precipitation; a gpsd fix at 49.12,12.2 with `eph` 4.2 m.
    static func fullState() -> WeatherState {
        var state = SampleStates.weather()
        state.weather?.forecast = SampleStates.forecast()
        state.location?.eph = 4.2
        return state
    }
}
