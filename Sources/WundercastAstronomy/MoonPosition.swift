#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import WundercastModel

/// Where the Moon is at one instant, from libnova's positions (``LibNova``): its apparent
/// geocentric right ascension and declination of date, its distance, and its elongation from
/// the Sun.
///
/// The J2000 longitude is brought to the equinox of date by the general precession in
/// longitude (Lieske 1977, as in Meeus 21) and nutation; the latitude is kept (the ecliptic of
/// date turns 47″ a century against J2000's: under a second of rise time), light time and the
/// Moon's aberration (0.7″) are left out.
struct MoonPosition {
    /// Apparent right ascension and declination of date, in radians.
    var rightAscension: Double
    var declination: Double
    /// Distance from the Earth's centre, km.
    var distance: Double

    /// The Moon at instant `date` (UT; ΔT from ``DeltaT``).
    init(at date: Date) {
        let jde = JulianDay.ephemeris(date)
        let moon = LibNova.moon(jde)
        let nutation = LibNova.nutation(jde)
        let t = (jde - 2_451_545) / 36525
        let precession = (5029.0966 * t + 1.11113 * t * t - 0.000006 * t * t * t) / 3600
        let λ = (moon.longitude + precession + nutation.longitude) * .pi / 180
        let β = moon.latitude * .pi / 180
        let ε = nutation.obliquity * .pi / 180
        rightAscension = atan2(sin(λ) * cos(ε) - tan(β) * sin(ε), cos(λ))
        declination = asin(sin(β) * cos(ε) + cos(β) * sin(ε) * sin(λ))
        distance = moon.distance
    }

    /// The Moon–Sun elongation at `date`: the Moon's apparent geocentric ecliptic longitude minus
    /// the Sun's, in degrees, 0 ..< 360 (0 new moon, 180 full moon). Both of libnova's longitudes
    /// are J2000's, so precession and nutation, common to both, cancel; the Sun's aberration
    /// (20.4898″ at 1 au) is applied here (see ``LibNova``).
    static func elongation(at date: Date) -> Double {
        let jde = JulianDay.ephemeris(date)
        let sun = LibNova.sun(jde)
        let apparentSun = sun.longitude - 20.4898 / 3600 / sun.distance
        let e = (LibNova.moon(jde).longitude - apparentSun).truncatingRemainder(dividingBy: 360)
        return e < 0 ? e + 360 : e
    }

    /// The Moon's local hour angle at east `longitude` and `date`, in degrees, −180 ..< 180
    /// (0: upper transit).
    func hourAngle(longitude: Double, at date: Date) -> Double {
        Self.wrapped(LibNova.siderealTime(JulianDay.of(date)) + longitude - rightAscension * 180 / .pi)
    }

    /// How far the Moon's upper limb stands above a sea-level horizon with standard
    /// refraction at `coordinate` and `date`, in degrees: positive while the Moon is up, zero
    /// at moonrise and moonset (the US Naval Observatory's definition). The geocentric altitude
    /// of the centre, less the parallax in altitude, plus the semidiameter and 34′ of refraction.
    func limbHeight(latitude: Double, longitude: Double, at date: Date) -> Double {
        let φ = latitude * .pi / 180
        let h = hourAngle(longitude: longitude, at: date) * .pi / 180
        let altitude = asin(
            min(1, max(-1, sin(φ) * sin(declination) + cos(φ) * cos(declination) * cos(h))))
        let parallax = asin(Self.earthRadius / distance)
        let semidiameter = asin(Self.moonRadiusRatio * sin(parallax))
        return (altitude - parallax * cos(altitude) + semidiameter) * 180 / .pi + 34.0 / 60
    }

    /// The Earth's equatorial radius, km (IAU 1976, as Meeus).
    static let earthRadius = 6378.14
    /// The Moon's radius in the Earth's equatorial radii (k = 0.272481, Meeus 55).
    static let moonRadiusRatio = 0.272481

    /// `angle` in degrees brought into −180 ..< 180.
    static func wrapped(_ angle: Double) -> Double {
        var a = (angle + 180).truncatingRemainder(dividingBy: 360)
        if a < 0 { a += 360 }
        return a - 180
    }
}
