#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// A WGS 84 position in decimal degrees.
public struct Coordinate: Sendable, Equatable, Hashable, Codable {
    /// Degrees north, -90...90.
    public var latitude: Double
    /// Degrees east, -180...180.
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Mean Earth radius in metres (IUGG), used by ``distance(to:)``.
    public static let earthRadius = 6_371_008.8

    /// Great-circle (haversine) distance to `other`, in metres.
    public func distance(to other: Coordinate) -> Double {
        let φ1 = latitude * .pi / 180
        let φ2 = other.latitude * .pi / 180
        let Δφ = (other.latitude - latitude) * .pi / 180
        let Δλ = (other.longitude - longitude) * .pi / 180
        let s1 = sin(Δφ / 2)
        let s2 = sin(Δλ / 2)
        let a = s1 * s1 + cos(φ1) * cos(φ2) * s2 * s2
        return 2 * Coordinate.earthRadius * atan2(a.squareRoot(), (1 - a).squareRoot())
    }

    /// The coordinate rounded to `decimals` decimal places (half away from zero), as sent to
    /// weather providers: 2 decimals ≈ 1.1 km, 4 ≈ 11 m. `-0` becomes `0`.
    public func rounded(toDecimals decimals: Int) -> Coordinate {
        Coordinate(
            latitude: Coordinate.round(latitude, decimals),
            longitude: Coordinate.round(longitude, decimals))
    }

    static func round(_ value: Double, _ decimals: Int) -> Double {
        var scale = 1.0
        for _ in 0..<max(0, decimals) { scale *= 10 }
        let r = (value * scale).rounded(.toNearestOrAwayFromZero) / scale
        return r == 0 ? 0 : r
    }

    /// Decimal text with at most `decimals` places and no trailing zeros, e.g. `44.44`, `-3.5`, `26`.
    /// Used for request URLs and human lines; never has an exponent.
    public static func text(_ value: Double, decimals: Int) -> String {
        let r = round(value, decimals)
        var scale: Int64 = 1
        for _ in 0..<max(0, decimals) { scale *= 10 }
        let negative = r < 0
        let scaled = Int64((abs(r) * Double(scale)).rounded())
        let whole = scaled / scale
        var fraction = scaled % scale
        var digits = decimals
        while digits > 0 && fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        var s = (negative && scaled != 0 ? "-" : "") + String(whole)
        if digits > 0 {
            let f = String(fraction)
            s += "." + String(repeating: "0", count: digits - f.count) + f
        }
        return s
    }
}
