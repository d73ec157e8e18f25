import WundercastModel

extension DiscoveryComponent {
    /// The sea state's sensors (`[Weather] Marine=` auto or yes), in the units the state has them:
    ///
    /// | id | reads (state JSON) | device class | unit | state class |
    /// |---|---|---|---|---|
    /// | `wave_height` | `weather.marine.waveHeight` | `distance` | `m`, `ft` | `measurement` |
    /// | `swell_height` | `weather.marine.swellHeight` | `distance` | `m`, `ft` | `measurement` |
    /// | `sea_temperature` | `weather.marine.seaTemperature` | `temperature` | `°C`, `°F` | `measurement` |
    /// | `current_speed` | `weather.marine.currentVelocity` | `speed` | `kn`, `km/h` | `measurement` |
    ///
    /// Over land the members are absent and Home Assistant shows the sensors as unknown.
    public static func marineCatalog(units: UnitPreferences) -> [DiscoveryComponent] {
        [
            marine("wave_height", "Wave height", "waveHeight", .distance, units.waveHeight.label),
            marine("swell_height", "Swell height", "swellHeight", .distance, units.waveHeight.label),
            marine(
                "sea_temperature", "Sea temperature", "seaTemperature", .temperature,
                units.seaTemperature.homeAssistantUnit),
            marine("current_speed", "Current speed", "currentVelocity", .speed, units.currentSpeed.homeAssistantUnit),
        ]
    }

    private static func marine(
        _ id: String, _ name: String, _ member: String, _ deviceClass: DeviceClass, _ unit: String
    ) -> DiscoveryComponent {
        DiscoveryComponent(
            id: id, platform: .sensor, name: name, deviceClass: deviceClass, unit: unit, stateClass: .measurement,
            member: [.key("weather"), .key("marine"), .key(member)])
    }
}
