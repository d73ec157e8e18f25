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
    /// The Beaufort force, 0–12 (``Beaufort``): whole numbers, labelled `Bft`. Not a linear unit:
    /// from m/s by the WMO table; ``toBase(_:)`` gives the force's lowest speed (force 5 is at
    /// least 8.0 m/s: what the plausibility check needs), and a value labelled `Bft` is never
    /// converted to a speed (``converts(to:)``). Speeds that are not wind are then in knots
    /// (``UnitPreferences/otherSpeeds``).
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

    /// A force is never turned into a speed (its range has no one value); a speed into a force
    /// always.
    public func converts(to other: WindSpeedUnit) -> Bool { self != .bft || other == .bft }

    public func toBase(_ value: Double) -> Double {
        guard let metresPerSecond else {
            guard value.isFinite else { return value }
            return (Beaufort(rawValue: Int(min(max(value, 0), 12).rounded())) ?? .calm).lowerBound
        }
        return value * metresPerSecond
    }

    public func fromBase(_ value: Double) -> Double {
        guard let metresPerSecond else {
            guard value.isFinite else { return value }
            return Double(Beaufort(metresPerSecond: value).rawValue)
        }
        return value / metresPerSecond
    }
}
