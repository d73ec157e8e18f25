#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Julian days of instants: days since noon UT of 1 January 4713 BC (proleptic Julian
/// calendar), the astronomers' count; 1970-01-01 00:00 UT is 2,440,587.5. The one place of
/// that count, for the Sun (``SolarPosition``) and the Moon (WundercastAstronomy).
public enum JulianDay {
    /// The Julian day (UT) of `date`.
    public static func of(_ date: Date) -> Double { date.timeIntervalSince1970 / 86400 + 2_440_587.5 }
}
