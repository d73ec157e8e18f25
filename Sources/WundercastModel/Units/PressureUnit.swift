/// A unit of air pressure (sea-level pressure and its tendency). Config
/// `[Weather] PressureUnit=hPa|inHg|mmHg`; kPa and Pa are only read.
public enum PressureUnit: String, PhysicalUnit {
    /// hPa (= mbar), the base unit; Open-Meteo's only pressure unit.
    case hPa
    /// inHg, inches of mercury (conventional, at 0 °C): 33.8639 hPa (3386.389 Pa, NIST SP 811).
    case inHg
    /// mmHg, millimetres of mercury: 1.333224 hPa (1 atm = 760 mmHg = 1013.25 hPa, the torr; the
    /// conventional 133.322 387 Pa differs by 1.4 × 10⁻⁷).
    case mmHg
    /// kPa: 10 hPa.
    case kPa
    /// Pa: 0.01 hPa.
    case pa = "Pa"

    /// The values of `PressureUnit=`.
    public static let configurable: [PressureUnit] = [.hPa, .inHg, .mmHg]

    /// `hPa`, `inHg`, `mmHg`, `kPa`, `Pa`.
    public var label: String { rawValue }

    public var spellings: [String] {
        switch self {
        case .hPa: ["hpa", "mbar", "mb", "millibar"]
        case .inHg: ["inhg", "in hg", "\"hg"]
        case .mmHg: ["mmhg", "mm hg", "torr"]
        case .kPa: ["kpa"]
        case .pa: ["pa"]
        }
    }

    /// Hectopascals in one unit.
    var hectopascals: Double {
        switch self {
        case .hPa: 1
        case .inHg: 33.86389
        case .mmHg: 1013.25 / 760
        case .kPa: 10
        case .pa: 0.01
        }
    }

    public func toBase(_ value: Double) -> Double { value * hectopascals }
    public func fromBase(_ value: Double) -> Double { value / hectopascals }
}
