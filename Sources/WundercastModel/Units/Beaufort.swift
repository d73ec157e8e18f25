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

    /// The WMO's English name, lower case ("fresh breeze"): the one place of these texts.
    public var name: String {
        switch self {
        case .calm: "calm"
        case .lightAir: "light air"
        case .lightBreeze: "light breeze"
        case .gentleBreeze: "gentle breeze"
        case .moderateBreeze: "moderate breeze"
        case .freshBreeze: "fresh breeze"
        case .strongBreeze: "strong breeze"
        case .nearGale: "near gale"
        case .gale: "gale"
        case .strongGale: "strong gale"
        case .storm: "storm"
        case .violentStorm: "violent storm"
        case .hurricane: "hurricane"
        }
    }
}
