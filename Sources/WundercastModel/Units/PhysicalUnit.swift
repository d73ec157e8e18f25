/// A unit of one physical quantity (temperature, wind speed, pressure, precipitation amount),
/// read from the unit string a provider labels its values with and converted through the
/// quantity's base unit. See `docs/PROTOCOL.md` (Units) for the strings each unit accepts.
public protocol PhysicalUnit: Sendable, Hashable, CaseIterable {
    /// The label the daemon publishes for values in this unit, e.g. `"°C"`, `"kn"`, `"inHg"`.
    var label: String { get }
    /// The lower-cased unit strings that name this unit (the ``label`` and the spellings
    /// providers use: Open-Meteo's `"mp/h"`, OpenWeatherMap's `"meter/sec"`, `"K"`, …).
    var spellings: [String] { get }
    /// `value` in this unit expressed in the quantity's base unit (°C, m/s, hPa, mm).
    func toBase(_ value: Double) -> Double
    /// `value` in the quantity's base unit expressed in this unit.
    func fromBase(_ value: Double) -> Double
    /// Whether a value labelled in this unit may be converted to `other` (``PhysicalUnits/conversion(from:to:)``):
    /// always, except to or from a scale of ranges (the Beaufort force: ``WindSpeedUnit/bft``).
    func converts(to other: Self) -> Bool
}

extension PhysicalUnit {
    public func converts(to other: Self) -> Bool { true }

    /// The unit a provider's unit string names, ignoring case and surrounding white space
    /// (`"°C"`, `"celsius"`, `" K "`, `"mp/h"`); `nil` for a string that names no unit of this
    /// quantity (a value so labelled is left as it is, with its label: never relabelled).
    public init?(label text: String) {
        let key = text.trimmingASCIIWhitespace().lowercased()
        guard !key.isEmpty, let unit = Self.allCases.first(where: { $0.spellings.contains(key) }) else {
            return nil
        }
        self = unit
    }

    /// `value` in this unit expressed in `other`: the value itself when the units are the same,
    /// else converted through the base unit and rounded to ``PhysicalUnits/convertedDecimals``
    /// decimals (binary noise such as `18.359999999999996` dropped), never `-0`.
    public func convert(_ value: Double, to other: Self) -> Double {
        guard self != other else { return value }
        return PhysicalUnits.clean(other.fromBase(toBase(value)))
    }
}

/// Conversion of labelled values: what every provider calls after decoding.
public enum PhysicalUnits {
    /// Decimals kept of a converted value: 4, below any provider's precision (0.1 hPa is
    /// 0.003 inHg) and above any display rule, so that the state keeps the provider's precision.
    public static let convertedDecimals = 4

    /// `value` rounded to ``convertedDecimals`` decimals, half away from zero; `-0` as `0`; a
    /// value that is not finite, or too large to round, as it is.
    static func clean(_ value: Double) -> Double {
        guard value.isFinite, abs(value) < 1e12 else { return value }
        let rounded = (value * 10_000).rounded(.toNearestOrAwayFromZero) / 10_000
        return rounded == 0 ? 0 : rounded
    }

    /// A conversion from the unit string `label` to `wanted`: the function on values and the new
    /// label (`wanted.label`); `nil` when `label` is `nil`, names no unit of `wanted`'s quantity
    /// or one that does not convert to it (to or from a Beaufort force: wind is converted by
    /// ``windConversion(from:to:)``), in which case values and label stay as they are.
    public static func conversion<U: PhysicalUnit>(from label: String?, to wanted: U) -> Conversion? {
        guard let label, let source = U(label: label), source.converts(to: wanted) else { return nil }
        return Conversion(label: wanted.label) { source.convert($0, to: wanted) }
    }

    /// Converts `value` (labelled `label`) to `wanted`: the converted value and `wanted.label`,
    /// or both unchanged when the label names no unit of the quantity.
    public static func convert<U: PhysicalUnit>(
        _ value: Double?, label: String?, to wanted: U
    ) -> (value: Double?, label: String?) {
        guard let conversion = conversion(from: label, to: wanted) else { return (value, label) }
        return (value.map(conversion.apply), conversion.label)
    }

    /// How values of one label become values of the wanted unit.
    public struct Conversion: Sendable {
        /// The label of the converted values.
        public let label: String
        /// Converts one value.
        public let apply: @Sendable (Double) -> Double
    }
}
