import WundercastModel

extension DiscoveryComponent {
    /// The daemon's entities, each sensor with the unit its value has in the state (the
    /// configured one for temperature, wind speed and pressure) and only the device class and
    /// state class Home Assistant accepts with it:
    ///
    /// | id | reads (state JSON) | device class | unit | state class |
    /// |---|---|---|---|---|
    /// | `temperature` | `weather.temperature` | `temperature` | `°C`, `°F` | `measurement` |
    /// | `apparent_temperature` | `weather.apparentTemperature` | `temperature` | `°C`, `°F` | `measurement` |
    /// | `humidity` | `weather.relativeHumidity` | `humidity` | `%` | `measurement` |
    /// | `wind_speed` | `weather.windSpeed` | `wind_speed` | `km/h`, `m/s`, `mph`, `kn`, `Beaufort` | `measurement` |
    /// | `wind_direction` | `weather.windDirection` | `wind_direction` | `°` | `measurement_angle` |
    /// | `sea_level_pressure` | `weather.forecast.seaLevelPressure` | `atmospheric_pressure` | `hPa`, `inHg`, `mmHg` | `measurement` |
    /// | `precipitation_chance` | `weather.forecast.hours[0].precipitationProbability` | — | `%` | — (a forecast) |
    /// | `condition` | `weather.condition` (the provider's text) | — | — | — |
    /// | `status` | `status` | `enum` (`fresh`, `stale`, …) | — | — |
    /// | `location` | `<prefix>/location` (device tracker, `source_type` `gps`) | — | — | — |
    /// | `weather_alert` | `alerts.items` (binary sensor: on while an official alert is in force) | `safety` | — | — |
    /// | `alert_count` | `alerts.items`, counted while the source answers | — | — | `measurement` |
    public static func catalog(units: UnitPreferences) -> [DiscoveryComponent] {
        [
            weather("temperature", "Temperature", "temperature", .temperature, units.temperature.homeAssistantUnit),
            weather(
                "apparent_temperature", "Apparent temperature", "apparentTemperature", .temperature,
                units.temperature.homeAssistantUnit),
            weather("humidity", "Relative humidity", "relativeHumidity", .humidity, "%"),
            weather("wind_speed", "Wind speed", "windSpeed", .windSpeed, units.windSpeed.homeAssistantUnit),
            weather("wind_direction", "Wind direction", "windDirection", .windDirection, "°", .measurementAngle),
            DiscoveryComponent(
                id: "sea_level_pressure", platform: .sensor, name: "Sea-level pressure",
                deviceClass: .atmosphericPressure, unit: units.pressure.homeAssistantUnit, stateClass: .measurement,
                member: [.key("weather"), .key("forecast"), .key("seaLevelPressure")]),
            // The forecast's first step (the hour, or OpenWeatherMap's 3 hours, after the
            // observation): a prediction, so no state class (not a present measurement).
            DiscoveryComponent(
                id: "precipitation_chance", platform: .sensor, name: "Chance of precipitation", unit: "%",
                member: [
                    .key("weather"), .key("forecast"), .key("hours"), .index(0), .key("precipitationProbability"),
                ]),
            DiscoveryComponent(
                id: "condition", platform: .sensor, name: "Condition", member: [.key("weather"), .key("condition")]),
            DiscoveryComponent(
                id: "status", platform: .sensor, name: "Status", deviceClass: .enumeration,
                options: WeatherState.Status.allCases.map(\.rawValue), member: [.key("status")]),
            DiscoveryComponent(id: "location", platform: .deviceTracker, name: "Location", member: nil),
            DiscoveryComponent(
                id: "weather_alert", platform: .binarySensor, name: "Weather alert", deviceClass: .safety, member: nil,
                template: ValueTemplate.alertActive),
            DiscoveryComponent(
                id: "alert_count", platform: .sensor, name: "Alerts in force", stateClass: .measurement, member: nil,
                template: ValueTemplate.alertCount),
        ]
    }

    /// A measured sensor reading `weather.<member>`.
    private static func weather(
        _ id: String, _ name: String, _ member: String, _ deviceClass: DeviceClass, _ unit: String,
        _ stateClass: StateClass = .measurement
    ) -> DiscoveryComponent {
        DiscoveryComponent(
            id: id, platform: .sensor, name: name, deviceClass: deviceClass, unit: unit, stateClass: stateClass,
            member: [.key("weather"), .key(member)])
    }
}
