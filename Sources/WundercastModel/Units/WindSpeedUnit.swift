/// A unit of wind speed (also gusts). Config `[Weather] WindSpeedUnit=kmh|ms|mph|kn|bft`, the
/// names Open-Meteo's `wind_speed_unit` takes, and the Beaufort force (which Open-Meteo has not:
/// it is asked for m/s, and the daemon converts).
public enum WindSpeedUnit: String, PhysicalUnit {
    /// km/h: 1/3.6 m/s.
    case kmh
    /// m/s, the base unit.
    case ms
    /// mph: 0.44704 m/s (international mile, exactly).
    case mph
    /// kn (knots, nautical miles per hour): 1852/3600 m/s, exactly; 1 kn = 1.852 km/h.
    case kn
    /// The Beaufort force, 0–12 (``Beaufort``): whole numbers, labelled `Bft`. Not a unit of
    /// measure but a classification of speeds, applied once where wind is converted
    /// (``PhysicalUnits/windConversion(from:to:)``): no linear conversion leads to or from it
    /// (``converts(to:)``; ``toBase(_:)`` and ``fromBase(_:)`` give NaN). Speeds that are not
    /// wind are then in knots (``UnitPreferences/otherSpeeds``).
    case bft

    /// The values of `WindSpeedUnit=`.
    public static let configurable: [WindSpeedUnit] = allCases

    /// `km/h`, `m/s`, `mph`, `kn`, `Bft`.
    public var label: String {
        switch self {
        case .kmh: "km/h"
        case .ms: "m/s"
        case .mph: "mph"
        case .kn: "kn"
        case .bft: "Bft"
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
        case .bft: ["bft", "beaufort"]
        }
    }

    /// Metres per second in one unit (`nil` for the Beaufort force, which is not linear).
    var metresPerSecond: Double? {
        switch self {
        case .kmh: 1 / 3.6
        case .ms: 1
        case .mph: 0.44704
        case .kn: 1852.0 / 3600
        case .bft: nil
        }
    }

    /// Between speed units only: a force is never turned into a speed (its range has no one
    /// value), and a speed becomes a force by classification, not by a factor.
    public func converts(to other: WindSpeedUnit) -> Bool { self == other || (self != .bft && other != .bft) }

    public func toBase(_ value: Double) -> Double { value * (metresPerSecond ?? .nan) }

    public func fromBase(_ value: Double) -> Double { value / (metresPerSecond ?? .nan) }
}
