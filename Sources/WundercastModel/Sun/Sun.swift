#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Sunrise, sunset and day/night computed on the machine (values the daemon computes, not a
/// provider: mark them as computed wherever they are published).
///
/// The sun's position comes from ``SolarPosition`` (NOAA's algorithm). Events are found
/// without the usual "hour angle at noon" shortcut: the day is split at its transits (lower
/// transit, solar noon, lower transit), the sun's altitude is monotonic on each half, and
/// a crossing of the horizon is bisected to under a second. So a sunset after midnight, a
/// day with a sunrise and no sunset, polar day and polar night all come out of one rule.
/// Checked against published tables: London, Wellington, Sydney and the US Naval Observatory's
/// Fredonia AZ 2023 within a minute (the tables are to the minute); the Fairbanks table is itself off by up to 2 min (sunrise and
/// sunset) and 4 min (twilights), where PyEphem agrees with this code within seconds (see
/// `SunTableTests`). Near the poles themselves (|latitude| > 89°), where the altitude
/// barely changes over a day, an event between two transits can be missed.
public enum Sun {
    /// Whether the sun is up at `coordinate` at instant `time`: its centre stands above
    /// −0.833° (the upper limb above a refracted sea-level horizon). Used when a provider
    /// says nothing about day and night.
    public static func isDay(at coordinate: Coordinate, time: Date) -> Bool {
        altitude(at: coordinate, time: time) > SolarHorizon.sunriseSunset.degrees
    }

    /// Geometric altitude of the sun's centre at `coordinate` and `time`, in degrees
    /// (−90 … 90, no refraction).
    public static func altitude(at coordinate: Coordinate, time: Date) -> Double {
        SolarPosition(at: time).altitude(at: coordinate, time: time)
    }

    /// The sun's day at `coordinate` on the local calendar day `date`, where the clocks are
    /// `utcOffset` seconds east of UTC at that day's noon (from the provider, or from
    /// ``ZoneInfo``): the solar day whose noon is nearest to 12:00 local time.
    ///
    /// - Parameter horizon: ``SolarHorizon/sunriseSunset`` for sunrise and sunset, or a
    ///   twilight (civil, nautical, astronomical) for dawn and dusk.
    public static func day(
        at coordinate: Coordinate, on date: CivilDate, utcOffset: Int, horizon: SolarHorizon = .sunriseSunset
    ) -> SunDay {
        day(
            at: coordinate, nearNoon: date.midnight(utcOffset: utcOffset).addingTimeInterval(12 * 3600),
            horizon: horizon)
    }

    /// The sun's day at `coordinate` around the solar noon (upper transit) nearest to
    /// `instant`: events between the lower transit before that noon and the one after it.
    public static func day(
        at coordinate: Coordinate, nearNoon instant: Date, horizon: SolarHorizon = .sunriseSunset
    )
        -> SunDay
    {
        let noon = transit(at: coordinate, near: instant, hourAngle: 0)
        let before = transit(at: coordinate, near: noon.addingTimeInterval(-12 * 3600), hourAngle: 180)
        let after = transit(at: coordinate, near: noon.addingTimeInterval(12 * 3600), hourAngle: 180)
        let threshold = horizon.degrees
        func height(_ t: Date) -> Double { altitude(at: coordinate, time: t) - threshold }

        var sunrise: Date?
        var sunset: Date?
        for (start, end) in [(before, noon), (noon, after)] {
            let a = height(start)
            let b = height(end)
            guard (a > 0) != (b > 0) else { continue }
            let crossing = bisect(from: start, to: end, startAbove: a > 0, height: height)
            if b > 0 {
                if sunrise == nil { sunrise = crossing }
            } else if sunset == nil {
                sunset = crossing
            }
        }
        if sunrise != nil || sunset != nil { return .risesOrSets(sunrise: sunrise, sunset: sunset) }
        return height(noon) > 0 ? .polarDay : .polarNight
    }

    /// The instant near `start` when the sun's hour angle at the place is `target` degrees
    /// (0: upper transit, 180: lower transit). The hour angle grows 15° per hour; three
    /// corrections bring it within milliseconds.
    static func transit(at coordinate: Coordinate, near start: Date, hourAngle target: Double) -> Date {
        var t = start
        for _ in 0..<3 {
            let h = SolarPosition(at: t).hourAngle(longitude: coordinate.longitude, time: t)
            t = t.addingTimeInterval(-SolarPosition.wrapped(h - target) * 240)
        }
        return t
    }

    /// The crossing of zero by `height` between `start` and `end` (one sign at each end),
    /// to a quarter of a second.
    static func bisect(from start: Date, to end: Date, startAbove: Bool, height: (Date) -> Double) -> Date {
        var low = start
        var high = end
        while high.timeIntervalSince(low) > 0.25 {
            let middle = low.addingTimeInterval(high.timeIntervalSince(low) / 2)
            if (height(middle) > 0) == startAbove { low = middle } else { high = middle }
        }
        return low.addingTimeInterval(high.timeIntervalSince(low) / 2)
    }
}
