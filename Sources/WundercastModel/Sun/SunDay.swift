#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The altitude of the sun's centre that marks an event, in degrees.
public enum SolarHorizon: Sendable, Equatable, Hashable {
    /// Sunrise and sunset: −0.833°, the upper limb on a sea-level horizon (16′ semidiameter
    /// plus 34′ of standard refraction), as in NOAA's and the almanacs' tables.
    case sunriseSunset
    /// Civil dawn and dusk: −6°.
    case civil
    /// Nautical dawn and dusk: −12°.
    case nautical
    /// Astronomical dawn and dusk: −18°.
    case astronomical
    /// Any other altitude of the sun's centre, in degrees.
    case altitude(Double)

    /// The altitude, in degrees.
    public var degrees: Double {
        switch self {
        case .sunriseSunset: -0.833
        case .civil: -6
        case .nautical: -12
        case .astronomical: -18
        case .altitude(let a): a
        }
    }
}

/// What the sun does in one solar day at one place (see ``Sun/day(at:on:utcOffset:horizon:)``):
/// it rises and/or sets, or it stays up (polar day) or down (polar night) the whole day.
/// A time that does not happen is never made up.
///
/// For a twilight horizon the same cases say "never darker than" (``polarDay``: the sun never
/// sinks below −18°, no astronomical night) and "never brighter than" (``polarNight``).
public enum SunDay: Sendable, Equatable {
    /// The sun crosses the horizon at least once: `sunrise` before the solar noon, `sunset`
    /// after it (a sunset after local midnight belongs to the day before, as in published
    /// tables). One of them is `nil` on the first or last day of a polar day or night, when
    /// the sun rises and then stays up, or sets and then stays down.
    case risesOrSets(sunrise: Date?, sunset: Date?)
    /// The sun stays above the horizon from one lower transit (solar midnight) to the next.
    case polarDay
    /// The sun stays below the horizon through the solar noon.
    case polarNight

    /// The sunrise (or dawn for a twilight horizon), if the sun rises that day.
    public var sunrise: Date? {
        if case .risesOrSets(let rise, _) = self { return rise }
        return nil
    }

    /// The sunset (or dusk), if the sun sets that day.
    public var sunset: Date? {
        if case .risesOrSets(_, let set) = self { return set }
        return nil
    }
}
