import Synchronization
import WundercastModel
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The Moon over one place on one local day (``MoonDay``): phase, illuminated fraction,
/// moonrise and moonset, from libnova's positions (``MoonPosition``, ``MoonEvents``,
/// ``MoonPhases``).
public enum MoonAlmanac {
    /// The Moon on local calendar day `date` at `coordinate`, where the clocks are
    /// `utcOffset(instant)` seconds east of UTC (a ``ZoneInfo``'s offsets, or a fixed one): the
    /// day runs from its local midnight to the next (23 or 25 hours on a day the clocks change).
    /// `timeZone` is the zone's name as published (`nil`: not known).
    public static func day(
        _ date: CivilDate, at coordinate: Coordinate, utcOffset: (Date) -> Int, timeZone: String? = nil
    ) -> MoonDay {
        let start = midnight(date, utcOffset)
        let end = midnight(date.adding(days: 1), utcOffset)
        func zoned(_ t: Date) -> ZonedTime {
            // To the minute, as the almanacs; never past the day's last minute.
            let minute = min(
                (t.timeIntervalSince1970 / 60).rounded(), (end.timeIntervalSince1970 / 60).rounded(.down) - 1)
            let instant = Date(timeIntervalSince1970: minute * 60)
            return ZonedTime(instant, utcOffset: utcOffset(instant))
        }
        let phase = MoonPhase(
            elongationFrom: MoonPosition.elongation(at: start), to: MoonPosition.elongation(at: end))
        let phaseTime = phase.elongation.map { MoonPhases.instant(near: start, elongation: $0) }
        let sky = events(at: coordinate, from: start, to: end)
        let rise = sky.events.first(where: \.isRise)?.time
        let set = sky.events.first(where: { !$0.isRise })?.time
        let illumination = LibNova.illuminatedFraction(JulianDay.ephemeris(start.addingTimeInterval(12 * 3600)))
        return MoonDay(
            date: date.description, phase: phase, phaseTime: phaseTime.map(zoned),
            illumination: (illumination * 1000).rounded() / 1000, rise: rise.map(zoned), set: set.map(zoned),
            allDay: sky.events.isEmpty ? (sky.upAtStart ? .up : .down) : nil, timeZone: timeZone)
    }

    /// Every moonrise and moonset at `coordinate` in `start ..< end`, in time order, and whether
    /// the Moon is up at `start` (see ``MoonEvents``).
    static func events(
        at coordinate: Coordinate, from start: Date, to end: Date
    ) -> (
        events: [MoonEvents.Event], upAtStart: Bool
    ) {
        MoonEvents.events(latitude: coordinate.latitude, longitude: coordinate.longitude, from: start, to: end)
    }

    /// The instant local `date` starts, where the clocks are `utcOffset(instant)` east of UTC
    /// (the offset read at the guess, then again at the result, for a day after a change).
    static func midnight(_ date: CivilDate, _ utcOffset: (Date) -> Int) -> Date {
        let guess = date.midnight(utcOffset: utcOffset(date.midnight(utcOffset: 0)))
        return date.midnight(utcOffset: utcOffset(guess))
    }
}

/// The Moon of the daemon's state (``MoonAlmanac``) at a position and moment, with the place's
/// clock, kept for the last few places and days: a moving machine asks again for each state,
/// a computation takes about 10 ms. Positions are taken to 2 decimals (≈ 1 km; moonrise moves
/// by under 4 s per km). Safe to call from any thread.
public final class MoonCalendar: Sendable {
    /// The time zone at a coordinate: its name and offsets (`nil`: not known; then the nautical
    /// zone of the longitude).
    public typealias ZoneLookup = @Sendable (Coordinate) -> (name: String, utcOffset: @Sendable (Date) -> Int)?

    private struct Key: Hashable {
        var coordinate: Coordinate
        var date: CivilDate
        var timeZone: String?
    }

    private let zone: ZoneLookup
    private let kept = Mutex<[Key: MoonDay]>([:])

    /// How many days and places are kept.
    static let capacity = 16

    public init(zone: @escaping ZoneLookup) { self.zone = zone }

    /// The Moon on the local day of `now` at `coordinate` (rounded to 2 decimals).
    public func moon(at coordinate: Coordinate, now: Date) -> MoonDay {
        let place = coordinate.rounded(toDecimals: 2)
        let found = zone(place)
        let nautical = ZoneOffset.nauticalOffset(longitude: place.longitude)
        let offset: (Date) -> Int = found?.utcOffset ?? { _ in nautical }
        let key = Key(coordinate: place, date: CivilDate(now, utcOffset: offset(now)), timeZone: found?.name)
        if let day = kept.withLock({ $0[key] }) { return day }
        let day = MoonAlmanac.day(key.date, at: place, utcOffset: offset, timeZone: found?.name)
        kept.withLock {
            if $0.count >= Self.capacity { $0.removeAll() }
            $0[key] = day
        }
        return day
    }
}
