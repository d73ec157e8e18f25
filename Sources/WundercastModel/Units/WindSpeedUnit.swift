/// A unit of wind speed (also gusts). Config `[Weather] WindSpeedUnit=kmh|ms|mph|kn`, the
/// names Open-Meteo's `wind_speed_unit` takes.
public enum WindSpeedUnit: String, PhysicalUnit {
    /// km/h: 1/3.6 m/s.
    case kmh
    /// m/s, the base unit.
    case ms
    /// mph: 0.44704 m/s (international mile, exactly).
    case mph
    /// kn (knots, nautical miles per hour): 1852/3600 m/s, exactly; 1 kn = 1.852 km/h.
    case kn

    /// The values of `WindSpeedUnit=`.
    public static let configurable: [WindSpeedUnit] = allCases

    /// `km/h`, `m/s`, `mph`, `kn`.
    public var label: String {
        switch self {
        case .kmh: "km/h"
        case .ms: "m/s"
        case .mph: "mph"
        case .kn: "kn"
        }
    }

    /// Open-Meteo spells miles per hour `"mp/h"`, OpenWeatherMap's documentation `"meter/sec"`
    /// and `"miles/hour"`.
    public var spellings: [String] {
        switch self {
        case .kmh: ["km/h", "kmh", "kph", "km/hr"]
        case .ms: ["m/s", "ms", "m s-1", "meter/sec", "metre/sec", "mps"]
        case .mph: ["mph", "mp/h", "mi/h", "miles/hour"]
        case .kn: ["kn", "kt", "kts", "knot", "knots"]
        }
    }

    /// Metres per second in one unit.
    var metresPerSecond: Double {
        switch self {
        case .kmh: 1 / 3.6
        case .ms: 1
        case .mph: 0.44704
        case .kn: 1852.0 / 3600
        }
    }

    public func toBase(_ value: Double) -> Double { value * metresPerSecond }
    public func fromBase(_ value: Double) -> Double { value / metresPerSecond }
}
