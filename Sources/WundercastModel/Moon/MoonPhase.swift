import WundercastSupport

/// The Moon's phase on one local calendar day, named from the Moon–Sun elongation: the
/// difference of their apparent geocentric ecliptic longitudes, 0–360°, which grows 11.5–15.5°
/// a day. The four principal phases are instants: new moon at 0°, first quarter at 90°, full
/// moon at 180°, last quarter at 270°.
///
/// A day is named as calendars and almanacs name it: for the principal phase whose instant
/// falls within it (from its local midnight to the next), else for the quarter its elongation
/// is in: waxing crescent (0–90°), waxing gibbous (90–180°), waning gibbous (180–270°), waning
/// crescent (270–360°). A day holds at most one principal instant. (The phase angle alone, as
/// libnova's `ln_get_lunar_phase` gives it, is the same at both quarters and cannot tell
/// waxing from waning.)
///
/// Encoded as the case name (`"waxingGibbous"`), the stable token of `moon.phase`.
public enum MoonPhase: String, Sendable, Codable, CaseIterable {
    case newMoon, waxingCrescent, firstQuarter, waxingGibbous, fullMoon, waningGibbous, lastQuarter, waningCrescent

    /// The English name, lower case ("waxing gibbous"): the one place of these texts, each a
    /// message of wundercastctl's catalogue in the context ``messageContext`` (``NP_(_:_:)``).
    public var name: String {
        switch self {
        case .newMoon: NP_("moon phase", "new moon")
        case .waxingCrescent: NP_("moon phase", "waxing crescent")
        case .firstQuarter: NP_("moon phase", "first quarter")
        case .waxingGibbous: NP_("moon phase", "waxing gibbous")
        case .fullMoon: NP_("moon phase", "full moon")
        case .waningGibbous: NP_("moon phase", "waning gibbous")
        case .lastQuarter: NP_("moon phase", "last quarter")
        case .waningCrescent: NP_("moon phase", "waning crescent")
        }
    }

    /// The catalogue context (`msgctxt`) of ``name``: `first quarter` of the Moon.
    public static let messageContext = "moon phase"

    /// The elongation of a principal phase, in degrees (0, 90, 180, 270); `nil` for the others.
    public var elongation: Double? {
        switch self {
        case .newMoon: 0
        case .firstQuarter: 90
        case .fullMoon: 180
        case .lastQuarter: 270
        default: nil
        }
    }

    /// The phase of a day whose elongation is `start` degrees at its first instant and `end`
    /// at its end (any real numbers; the day's advance is `end − start` taken modulo 360, so it
    /// must be under 360°): the principal phase whose elongation is in `start ..< start + advance`,
    /// else the quarter of `start`.
    public init(elongationFrom start: Double, to end: Double) {
        let first = Self.degrees(start)
        let advance = Self.degrees(end - start)
        // 0°, 90°, 180°, 270°, and 360° for a new moon after a start in the last quarter.
        if let quarter = (0...4).first(where: { Double($0 * 90) >= first && Double($0 * 90) < first + advance }) {
            self = Self.principal[quarter % 4]
        } else {
            self = Self.between[min(3, Int(first / 90))]
        }
    }

    /// `angle` in 0 ..< 360.
    static func degrees(_ angle: Double) -> Double {
        let a = angle.truncatingRemainder(dividingBy: 360)
        return a < 0 ? a + 360 : a
    }

    private static let principal: [MoonPhase] = [.newMoon, .firstQuarter, .fullMoon, .lastQuarter]
    private static let between: [MoonPhase] = [.waxingCrescent, .waxingGibbous, .waningGibbous, .waningCrescent]
}
