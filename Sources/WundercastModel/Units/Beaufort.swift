import WundercastSupport

/// The Beaufort wind force, 0–12, of the World Meteorological Organization's table (WMO-No. 8,
/// *Guide to Meteorological Instruments and Methods of Observation*, and the Manual on Marine
/// Meteorological Services): the wind speed at 10 m in m/s, rounded half up to 0.1, against the
/// lower bound of each force. What `[Weather] WindSpeedUnit=bft` publishes (``WindSpeedUnit/bft``).
public enum Beaufort: Int, Sendable, CaseIterable {
    case calm, lightAir, lightBreeze, gentleBreeze, moderateBreeze, freshBreeze, strongBreeze, nearGale, gale,
        strongGale, storm, violentStorm, hurricane

    /// The force of a wind of `metresPerSecond` (rounded half up to 0.1 m/s first: 0.2 is
    /// force 0, 0.3 force 1, 32.6 force 11, 32.7 force 12); below zero counts as calm.
    public init(metresPerSecond speed: Double) {
        // Whole tenths, so that the bounds compare exactly (no 0.30000000000000004).
        let tenths = (min(max(speed, 0), 1000) * 10 + 0.5).rounded(.down)
        self = Self.allCases.last { Double($0.lowerBoundTenths) <= tenths } ?? .calm
    }

    /// The force's lowest speed, m/s (force 5: 8.0).
    public var lowerBound: Double { Double(lowerBoundTenths) / 10 }

    /// The lowest speed of each force in tenths of m/s (WMO: 0–0.2, 0.3–1.5, 1.6–3.3, 3.4–5.4,
    /// 5.5–7.9, 8.0–10.7, 10.8–13.8, 13.9–17.1, 17.2–20.7, 20.8–24.4, 24.5–28.4, 28.5–32.6, ≥ 32.7).
    private var lowerBoundTenths: Int {
        [0, 3, 16, 34, 55, 80, 108, 139, 172, 208, 245, 285, 327][rawValue]
    }

    /// The WMO's English name, lower case ("fresh breeze"): the one place of these texts, each a
    /// message of wundercastctl's catalogue in the context ``messageContext`` (``NP_(_:_:)``),
    /// shown in the reader's language with the national weather service's term ("frische Brise").
    public var name: String {
        switch self {
        case .calm: NP_("Beaufort force", "calm")
        case .lightAir: NP_("Beaufort force", "light air")
        case .lightBreeze: NP_("Beaufort force", "light breeze")
        case .gentleBreeze: NP_("Beaufort force", "gentle breeze")
        case .moderateBreeze: NP_("Beaufort force", "moderate breeze")
        case .freshBreeze: NP_("Beaufort force", "fresh breeze")
        case .strongBreeze: NP_("Beaufort force", "strong breeze")
        case .nearGale: NP_("Beaufort force", "near gale")
        case .gale: NP_("Beaufort force", "gale")
        case .strongGale: NP_("Beaufort force", "strong gale")
        case .storm: NP_("Beaufort force", "storm")
        case .violentStorm: NP_("Beaufort force", "violent storm")
        case .hurricane: NP_("Beaufort force", "hurricane")
        }
    }

    /// The catalogue context (`msgctxt`) of ``name``: tells `calm` or `storm` as a force from the
    /// same word elsewhere.
    public static let messageContext = "Beaufort force"
}

extension PhysicalUnits {
    /// The conversion of wind speeds labelled `label` to `wanted`: linear between speed units
    /// (``conversion(from:to:)``); to ``WindSpeedUnit/bft`` linear to m/s, then classified
    /// (``Beaufort/init(metresPerSecond:)``): the one place a speed becomes a force. `nil` as
    /// ``conversion(from:to:)`` (a force is never turned into a speed).
    public static func windConversion(from label: String?, to wanted: WindSpeedUnit) -> Conversion? {
        guard wanted == .bft, let label, let source = WindSpeedUnit(label: label), source != .bft else {
            return conversion(from: label, to: wanted)
        }
        let metresPerSecond = source.toBase(1)
        return Conversion(label: wanted.label) { Double(Beaufort(metresPerSecond: $0 * metresPerSecond).rawValue) }
    }
}
