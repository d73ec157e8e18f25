#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// ΔT = TT − UT, the lag of the Earth's rotation behind uniform time, in seconds: the
/// polynomial expressions of Espenak and Meeus (NASA, *Five Millennium Canon of Solar
/// Eclipses*, 2006, "Polynomial expressions for Delta T"), which follow the observed values to
/// about a second from 1800 to 2005. Later values are their prediction: 74.5 s for 2025, where
/// the observed value is 69 s — the Moon moves 0.5″ in a second, so 5 s are 3″ and move phase
/// instants by 5 s, rise and set by less.
enum DeltaT {
    /// ΔT at `date`, in seconds.
    static func seconds(at date: Date) -> Double {
        seconds(year: 1970 + date.timeIntervalSince1970 / 31_556_952)
    }

    /// ΔT in the decimal year `y` (2000.0 is 2000-01-01), in seconds.
    static func seconds(year y: Double) -> Double {
        func poly(_ t: Double, _ c: [Double]) -> Double { c.reversed().reduce(0) { $0 * t + $1 } }
        switch y {
        case ..<1800:
            let u = (y - 1820) / 100
            return -20 + 32 * u * u
        case ..<1860:
            return poly(
                y - 1800,
                [13.72, -0.332447, 0.0068612, 0.0041116, -0.00037436, 0.0000121272, -0.0000001699, 0.000000000875])
        case ..<1900:
            return poly(y - 1860, [7.62, 0.5737, -0.251754, 0.01680668, -0.0004473624, 1.0 / 233_174])
        case ..<1920:
            return poly(y - 1900, [-2.79, 1.494119, -0.0598939, 0.0061966, -0.000197])
        case ..<1941:
            return poly(y - 1920, [21.20, 0.84493, -0.076100, 0.0020936])
        case ..<1961:
            return poly(y - 1950, [29.07, 0.407, -1.0 / 233, 1.0 / 2547])
        case ..<1986:
            return poly(y - 1975, [45.45, 1.067, -1.0 / 260, -1.0 / 718])
        case ..<2005:
            return poly(y - 2000, [63.86, 0.3345, -0.060374, 0.0017275, 0.000651814, 0.00002373599])
        case ..<2050:
            return poly(y - 2000, [62.92, 0.32217, 0.005589])
        case ..<2150:
            let u = (y - 1820) / 100
            return -20 + 32 * u * u - 0.5628 * (2150 - y)
        default:
            let u = (y - 1820) / 100
            return -20 + 32 * u * u
        }
    }
}
