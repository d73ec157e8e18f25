/// The one rule for numbers shown to people (the human line, `--template` placeholders, every
/// bar format and tooltip, `around`): each quantity is rounded to a fixed number of decimals
/// that depends on its unit, **half away from zero**, and a value that rounds to zero is shown
/// as `0` (or `0.0`, `0.00`), **never `-0`** (-0.4 °C is `0°C`, -0.5 °C is `-1°C`).
///
/// | quantity | decimals |
/// |---|---|
/// | temperature (°C, °F, K), apparent temperature, highs and lows | 0 |
/// | wind speed and gusts (km/h, m/s, mph, kn) | 0 |
/// | speed over ground (km/h, m/s, mph, kn) | 1 |
/// | relative humidity, chance of precipitation (%) | 0 |
/// | sea-level pressure | hPa 0, inHg 2, mmHg 0, kPa 1, Pa 0 |
/// | pressure tendency (change per 3 h) | hPa 1, inHg 2, mmHg 1, kPa 2, Pa 0 |
/// | precipitation amount | mm 1, in 2, cm 2 |
///
/// A unit string the daemon does not know takes the quantity's metric decimals. The JSON state
/// is not rounded: it keeps the provider's precision (and is never `-0` either).
public enum DisplayRounding {
    /// Decimals of a temperature, a wind speed and a percentage: 0.
    public static let wholeDecimals = 0

    /// `value` with exactly `decimals` decimals, rounded half away from zero, never `-0`
    /// (`-0.04` at 1 decimal is `0.0`). Empty for a value no weather quantity has: not finite, or
    /// a magnitude of 10¹² or more (which `Int64` arithmetic could not hold, or is nonsense).
    public static func text(_ value: Double, decimals: Int) -> String {
        let decimals = min(max(decimals, 0), 6)
        guard value.isFinite, abs(value) < 1e12 else { return "" }
        var scale: Int64 = 1
        for _ in 0..<decimals { scale *= 10 }
        let scaled = scaledMagnitude(value, decimals: decimals, scale: scale)
        let sign = value < 0 && scaled != 0 ? "-" : ""
        var text = sign + String(scaled / scale)
        if decimals > 0 {
            let fraction = String(scaled % scale)
            text += "." + String(repeating: "0", count: decimals - fraction.count) + fraction
        }
        return text
    }

    /// `|value| × 10^decimals` rounded half away from zero, on the shortest decimal text of
    /// `value` (Swift's `description`, which reads back as the same `Double`), so that a value
    /// such as 2.675 (2.67499999… in binary) rounds to 2.68 as its decimal text says.
    private static func scaledMagnitude(_ value: Double, decimals: Int, scale: Int64) -> Int64 {
        let digits = abs(value).description
        let parts = digits.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ $0.allSatisfy(\.isASCIIDigitCharacter) }),
            let whole = Int64(parts[0])
        else {
            // Exponent form (below 10⁻⁴): the binary value is as good as its text there.
            return Int64((abs(value) * Double(scale)).rounded(.toNearestOrAwayFromZero))
        }
        let fraction = Array(parts[1]) + Array(repeating: Character("0"), count: decimals + 1)
        let kept = Int64(String(fraction[0..<decimals])) ?? 0
        let next = fraction[decimals].wholeNumberValue ?? 0
        return whole * scale + kept + (next >= 5 ? 1 : 0)
    }

    /// `value` rounded to a whole number by the rule, `nil` where ``text(_:decimals:)`` is empty.
    public static func integer(_ value: Double) -> Int? {
        guard value.isFinite, abs(value) < 1e12 else { return nil }
        guard let rounded = Int(text(value, decimals: 0)) else { return nil }
        return rounded
    }

    /// A temperature in any unit: whole degrees (`-5`, `0` for -0.4).
    public static func temperature(_ value: Double) -> String { text(value, decimals: wholeDecimals) }

    /// A wind speed or gust in any unit: whole units.
    public static func windSpeed(_ value: Double) -> String { text(value, decimals: wholeDecimals) }

    /// The machine's speed over ground in any unit (``WeatherState/Motion/speed``): 0.1 units.
    public static func speedOverGround(_ value: Double) -> String { text(value, decimals: 1) }

    /// A percentage (relative humidity, chance of precipitation): whole percent.
    public static func percent(_ value: Double) -> String { text(value, decimals: wholeDecimals) }

    /// A sea-level pressure labelled `unit`: `1035` hPa, `30.56` inHg, `776` mmHg.
    public static func pressure(_ value: Double, unit: String?) -> String {
        text(value, decimals: pressureDecimals(unit.flatMap(PressureUnit.init(label:)) ?? .hPa))
    }

    /// A pressure change per 3 h labelled `unit`: `1.3` hPa, `0.04` inHg, `1.0` mmHg.
    public static func pressureChange(_ value: Double, unit: String?) -> String {
        text(value, decimals: pressureChangeDecimals(unit.flatMap(PressureUnit.init(label:)) ?? .hPa))
    }

    /// A precipitation amount labelled `unit`: `0.4` mm, `0.02` in.
    public static func precipitation(_ value: Double, unit: String?) -> String {
        text(value, decimals: precipitationDecimals(unit.flatMap(PrecipitationUnit.init(label:)) ?? .mm))
    }

    static func pressureDecimals(_ unit: PressureUnit) -> Int {
        switch unit {
        case .hPa, .mmHg, .pa: 0
        case .inHg: 2
        case .kPa: 1
        }
    }

    static func pressureChangeDecimals(_ unit: PressureUnit) -> Int {
        switch unit {
        case .hPa, .mmHg: 1
        case .inHg, .kPa: 2
        case .pa: 0
        }
    }

    static func precipitationDecimals(_ unit: PrecipitationUnit) -> Int {
        switch unit {
        case .mm: 1
        case .inch, .cm: 2
        }
    }
}

extension Character {
    fileprivate var isASCIIDigitCharacter: Bool { isASCII && isWholeNumber }
}
