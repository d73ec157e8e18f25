import WundercastModel

/// OpenWeatherMap's `units=` and what its values are in under each. The answer carries no unit
/// labels: the units are those the request asked for (`standard` when it asked none).
///
/// | `units` | temperature | wind speed and gusts |
/// |---|---|---|
/// | `standard` (the API's default) | K | m/s |
/// | `metric` | °C | m/s |
/// | `imperial` | °F | mph |
///
/// Pressure is hPa, humidity and cloudiness %, precipitation mm and `pop` 0–1 under all three.
public enum OpenWeatherMapUnits: String, Sendable, Equatable, CaseIterable {
    case standard, metric, imperial

    /// What the daemon asks for under `Units=`: `metric` or `imperial` (never `standard`).
    public init(_ system: UnitSystem) {
        self =
            switch system {
            case .metric: .metric
            case .imperial: .imperial
            }
    }

    /// `value` (a temperature in these units) in the temperature unit of `system` (°C or °F),
    /// rounded to 0.001 (no binary noise such as 25.330000000000013 from 298.48 K).
    public func temperature(_ value: Double, in system: UnitSystem) -> Double {
        let celsius =
            switch self {
            case .standard: value - 273.15
            case .metric: value
            case .imperial: (value - 32) * 5 / 9
            }
        let converted =
            switch (self, system) {
            case (.metric, .metric), (.imperial, .imperial): value
            case (_, .metric): celsius
            case (_, .imperial): celsius * 9 / 5 + 32
            }
        return Self.thousandths(converted)
    }

    /// `value` (a wind speed in these units) in the wind speed unit of `system` (km/h or mph),
    /// rounded to 0.001: m/s × 3.6 = km/h; 1 mph = 0.44704 m/s exactly.
    public func windSpeed(_ value: Double, in system: UnitSystem) -> Double {
        let metresPerSecond = self == .imperial ? value * 0.44704 : value
        let converted =
            switch (self, system) {
            case (.imperial, .imperial): value
            case (_, .metric): metresPerSecond * 3.6
            case (_, .imperial): metresPerSecond / 0.44704
            }
        return Self.thousandths(converted)
    }

    static func thousandths(_ value: Double) -> Double {
        guard value.isFinite, abs(value) < 1e12 else { return value }
        let rounded = (value * 1000).rounded() / 1000
        return rounded == 0 ? 0 : rounded
    }
}
