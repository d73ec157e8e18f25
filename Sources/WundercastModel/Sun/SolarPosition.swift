#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// Where the sun stands at one instant, by NOAA's solar calculator (the spreadsheet of NOAA's
/// Global Monitoring Laboratory, after Jean Meeus, *Astronomical Algorithms*): the sun's
/// declination and the equation of time from the Julian century, good to well under a
/// minute of time for 1800–2100. Universal time stands in for terrestrial time (ΔT ≈ 69 s
/// shifts the sun by less than 0.001°).
public struct SolarPosition: Sendable, Equatable {
    /// Declination of the sun, in degrees (−23.44 … 23.44; positive in the northern summer).
    public var declination: Double
    /// Equation of time, in minutes: apparent minus mean solar time (−14.3 … 16.4).
    public var equationOfTime: Double

    /// The sun's position at `time`.
    public init(at time: Date) {
        let t = (JulianDay.of(time) - 2_451_545) / 36525  // Julian centuries since J2000.0
        let meanLongitude = (280.46646 + t * (36000.76983 + t * 0.0003032)).truncatingRemainder(dividingBy: 360)
        let meanAnomaly = 357.52911 + t * (35999.05029 - 0.0001537 * t)
        let eccentricity = 0.016708634 - t * (0.000042037 + 0.0000001267 * t)
        let m = Self.radians(meanAnomaly)
        let centre =
            sin(m) * (1.914602 - t * (0.004817 + 0.000014 * t)) + sin(2 * m) * (0.019993 - 0.000101 * t)
            + sin(3 * m) * 0.000289
        let trueLongitude = meanLongitude + centre
        let omega = Self.radians(125.04 - 1934.136 * t)
        let apparentLongitude = trueLongitude - 0.00569 - 0.00478 * sin(omega)
        let meanObliquity = 23 + (26 + (21.448 - t * (46.815 + t * (0.00059 - t * 0.001813))) / 60) / 60
        let obliquity = Self.radians(meanObliquity + 0.00256 * cos(omega))
        declination = Self.degrees(asin(sin(obliquity) * sin(Self.radians(apparentLongitude))))

        let y = tan(obliquity / 2) * tan(obliquity / 2)
        let l0 = Self.radians(meanLongitude)
        let e = eccentricity
        let eot =
            y * sin(2 * l0) - 2 * e * sin(m) + 4 * e * y * sin(m) * cos(2 * l0) - 0.5 * y * y * sin(4 * l0)
            - 1.25 * e * e * sin(2 * m)
        equationOfTime = 4 * Self.degrees(eot)
    }

    /// The sun's hour angle at `longitude` (degrees east) and `time`, in degrees, −180 … 180:
    /// 0 at the upper transit (solar noon), negative before it.
    public func hourAngle(longitude: Double, time: Date) -> Double {
        // Apparent solar time in degrees: 1° of rotation per 240 s of UTC, plus the equation
        // of time (4 min per degree) and the longitude; noon is 180° after midnight.
        let utcDegrees = (time.timeIntervalSince1970 / 240).truncatingRemainder(dividingBy: 360)
        return Self.wrapped(utcDegrees + equationOfTime / 4 + longitude - 180)
    }

    /// Geometric altitude of the sun's centre above the horizon at `coordinate`, in degrees
    /// (−90 … 90), without refraction.
    public func altitude(at coordinate: Coordinate, time: Date) -> Double {
        let φ = Self.radians(coordinate.latitude)
        let δ = Self.radians(declination)
        let h = Self.radians(hourAngle(longitude: coordinate.longitude, time: time))
        let s = sin(φ) * sin(δ) + cos(φ) * cos(δ) * cos(h)
        return Self.degrees(asin(min(1, max(-1, s))))
    }

    /// `angle` in degrees brought into −180 … 180.
    static func wrapped(_ angle: Double) -> Double {
        var a = angle.truncatingRemainder(dividingBy: 360)
        if a > 180 { a -= 360 }
        if a <= -180 { a += 360 }
        return a
    }

    static func radians(_ degrees: Double) -> Double { degrees * .pi / 180 }
    static func degrees(_ radians: Double) -> Double { radians * 180 / .pi }
}
