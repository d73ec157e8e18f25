/// A unit of precipitation amount (depth of water). Config
/// `[Weather] PrecipitationUnit=mm|inch`, the names Open-Meteo's `precipitation_unit` takes;
/// cm is only read.
public enum PrecipitationUnit: String, PhysicalUnit {
    /// mm, the base unit.
    case mm
    /// in: 25.4 mm, exactly.
    case inch
    /// cm: 10 mm.
    case cm

    /// The values of `PrecipitationUnit=`.
    public static let configurable: [PrecipitationUnit] = [.mm, .inch]

    /// `mm`, `in`, `cm`.
    public var label: String {
        switch self {
        case .mm: "mm"
        case .inch: "in"
        case .cm: "cm"
        }
    }

    public var spellings: [String] {
        switch self {
        case .mm: ["mm", "millimetre", "millimetres", "millimeter", "millimeters"]
        case .inch: ["in", "inch", "inches", "\""]
        case .cm: ["cm"]
        }
    }

    /// Millimetres in one unit.
    var millimetres: Double {
        switch self {
        case .mm: 1
        case .inch: 25.4
        case .cm: 10
        }
    }

    public func toBase(_ value: Double) -> Double { value * millimetres }
    public func fromBase(_ value: Double) -> Double { value / millimetres }
}
