/// A unit of wave height. Not configured on its own: feet when `PrecipitationUnit=inch`,
/// metres otherwise (``UnitPreferences/waveHeight``); Open-Meteo's Marine API is asked for it
/// (`length_unit=metric|imperial`).
public enum LengthUnit: String, PhysicalUnit {
    /// m, the base unit.
    case m
    /// ft: 0.3048 m, exactly.
    case ft

    /// `m`, `ft`.
    public var label: String {
        switch self {
        case .m: "m"
        case .ft: "ft"
        }
    }

    public var spellings: [String] {
        switch self {
        case .m: ["m", "metre", "metres", "meter", "meters"]
        case .ft: ["ft", "foot", "feet"]
        }
    }

    /// Metres in one unit.
    var metres: Double {
        switch self {
        case .m: 1
        case .ft: 0.3048
        }
    }

    public func toBase(_ value: Double) -> Double { value * metres }
    public func fromBase(_ value: Double) -> Double { value / metres }
}

extension UnitPreferences {
    /// The unit of wave heights: feet when precipitation is in inches, else metres.
    public var waveHeight: LengthUnit { precipitation == .inch ? .ft : .m }
    /// The unit of sea-surface temperatures: the temperature's, kelvin shown as °C (the sea is
    /// read in degrees, and the Marine API has no kelvin).
    public var seaTemperature: TemperatureUnit { temperature == .kelvin ? .celsius : temperature }
    /// The unit of ocean currents: knots when wind is in knots or Beaufort, else km/h (the
    /// Marine API's own unit).
    public var currentSpeed: WindSpeedUnit { otherSpeeds == .kn ? .kn : .kmh }
}
