/// A unit of air temperature. Config `[Weather] TemperatureUnit=celsius|fahrenheit`; kelvin
/// is only read (OpenWeatherMap's default unit), never asked for.
public enum TemperatureUnit: String, PhysicalUnit {
    /// °C, the base unit.
    case celsius
    /// °F: °C × 9/5 + 32.
    case fahrenheit
    /// K: °C + 273.15.
    case kelvin

    /// The values of `TemperatureUnit=`.
    public static let configurable: [TemperatureUnit] = [.celsius, .fahrenheit]

    /// `°C`, `°F`, `K`.
    public var label: String {
        switch self {
        case .celsius: "°C"
        case .fahrenheit: "°F"
        case .kelvin: "K"
        }
    }

    public var spellings: [String] {
        switch self {
        case .celsius: ["°c", "℃", "c", "celsius", "degc", "deg c"]
        case .fahrenheit: ["°f", "℉", "f", "fahrenheit", "degf", "deg f"]
        case .kelvin: ["k", "kelvin", "°k"]
        }
    }

    public func toBase(_ value: Double) -> Double {
        switch self {
        case .celsius: value
        case .fahrenheit: (value - 32) * 5 / 9
        case .kelvin: value - 273.15
        }
    }

    public func fromBase(_ value: Double) -> Double {
        switch self {
        case .celsius: value
        case .fahrenheit: value * 9 / 5 + 32
        case .kelvin: value + 273.15
        }
    }
}
