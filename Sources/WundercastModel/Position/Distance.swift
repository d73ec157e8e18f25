import WundercastSupport

/// Distances: `500m`, `2km`, `1.5 km`, `0m`, or a sum such as `1km 200m`. A bare number
/// means metres.
public enum Distance {
    /// Parses a distance into metres. Units (case-sensitive): `m`, `km`; none means metres.
    /// Numbers are decimal digits with an optional fraction; no sign, no exponent.
    ///
    /// - Returns: metres (finite, ≥ 0), or `nil` for empty text, an unknown unit, a negative
    ///   number, `nan`/`inf`, or anything else that is not a distance.
    public static func parse(_ text: String) -> Double? {
        guard let parts = NumberWithUnit.split(text) else { return nil }
        var metres = 0.0
        for part in parts {
            let scale: Double
            switch part.unit {
            case "", "m": scale = 1
            case "km": scale = 1000
            default: return nil
            }
            guard let value = Double(part.decimalText) else { return nil }
            metres += value * scale
        }
        return metres.isFinite ? metres : nil
    }

    /// Formats metres for logs and messages: `1km`, `1.5km`, `500m`, `0m`.
    public static func format(_ metres: Double) -> String {
        guard metres.isFinite, metres >= 0, metres < 1e12 else { return "\(metres)m" }
        if metres >= 1000 { return Coordinate.text(metres / 1000, decimals: 3) + "km" }
        return Coordinate.text(metres, decimals: 3) + "m"
    }
}
