import CNova
import Synchronization
import WundercastModel
#if canImport(Glibc)
import Glibc
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// libnova's calls (Debian's libnova 0.16), one at a time: its lunar series keep their
/// truncation level and a one-entry cache in static variables (lunar.c: `pre[]`, `c_JD`, `c_X`…),
/// so two threads computing at once would spoil each other's results. Every call goes through
/// ``lock``.
///
/// Facts of this libnova that the callers depend on (checked against Meeus, *Astronomical
/// Algorithms*, examples 22.a, 25.b, 47.a):
/// - `ln_get_lunar_geo_posn` is referred to the mean ecliptic and equinox of J2000, as its
///   documentation says; `ln_get_solar_geom_coords` is too (1992-10-13 0h TD: 200.0081°, where
///   Meeus's longitude of date is 199.9074°: the 0.1008° between them is the precession from
///   1992.8 to 2000).
/// - `ln_get_solar_ecl_coords` subtracts an aberration of 20.4898″/(360·3600) degrees, 1/360 of
///   the true 20.5″, so the Sun's apparent longitude is taken from the geometric one here.
/// - `ln_get_nutation`'s `ecliptic` is the mean obliquity (Meeus 22.a: 23.440946°); the true
///   one adds `obliquity`.
/// - Its ΔT (`ln_get_dynamical_time_diff`) is extrapolated past its table: 128 s for 2020,
///   where the observed value is 69 s; ``DeltaT`` is used instead.
/// - Its lunar series are 3.6 MB of tables that every position reads through (a term under the
///   truncation level is still looked at): once the daemon has computed a Moon, 3.0 MB of
///   libnova's pages are in its RSS (file-backed and clean, shared with any other user of the
///   library; measured on the daemon, 2026-12-06).
enum LibNova {
    private static let lock = Mutex(())

    /// The Moon's geocentric position at `jde` (Julian ephemeris day, TT): ecliptic longitude
    /// and latitude in degrees, referred to the mean ecliptic and equinox of J2000, and distance
    /// from the Earth's centre in km. ELP 2000-82B with terms under 10⁻⁶ rad (0.2″) left out:
    /// 1.5″ from the full series, at 1/50 of its cost (4 ms a call).
    static func moon(_ jde: Double) -> (longitude: Double, latitude: Double, distance: Double) {
        var rect = ln_rect_posn()
        lock.withLock { _ in ln_get_lunar_geo_posn(jde, &rect, 1e-6) }
        let longitude = atan2(rect.Y, rect.X) * 180 / .pi
        let latitude = atan2(rect.Z, (rect.X * rect.X + rect.Y * rect.Y).squareRoot()) * 180 / .pi
        let distance = (rect.X * rect.X + rect.Y * rect.Y + rect.Z * rect.Z).squareRoot()
        return (longitude < 0 ? longitude + 360 : longitude, latitude, distance)
    }

    /// The Sun's geometric geocentric longitude at `jde` in degrees (J2000 frame, VSOP87) and
    /// its distance in astronomical units.
    static func sun(_ jde: Double) -> (longitude: Double, distance: Double) {
        var position = ln_helio_posn()
        lock.withLock { _ in ln_get_solar_geom_coords(jde, &position) }
        return (position.L, position.R)
    }

    /// Nutation in longitude and the true obliquity of the ecliptic at `jde`, in degrees.
    static func nutation(_ jde: Double) -> (longitude: Double, obliquity: Double) {
        var nutation = ln_nutation()
        lock.withLock { _ in ln_get_nutation(jde, &nutation) }
        return (nutation.longitude, nutation.ecliptic + nutation.obliquity)
    }

    /// Apparent sidereal time at Greenwich at `jd` (UT), in degrees.
    static func siderealTime(_ jd: Double) -> Double {
        lock.withLock { _ in ln_get_apparent_sidereal_time(jd) } * 15
    }

    /// Illuminated fraction of the Moon's disk at `jde`, 0–1 (`ln_get_lunar_disk`; its Sun's
    /// aberration error above moves the phase angle by 20″, the fraction by under 10⁻⁴).
    static func illuminatedFraction(_ jde: Double) -> Double {
        lock.withLock { _ in ln_get_lunar_disk(jde) }
    }
}

extension JulianDay {
    /// The Julian ephemeris day (TT) of `date`: UT (``JulianDay/of(_:)``) plus ``DeltaT``.
    static func ephemeris(_ date: Date) -> Double { of(date) + DeltaT.seconds(at: date) / 86400 }
}
