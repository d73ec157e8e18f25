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
        let start = date.start(utcOffset: utcOffset)
        let end = date.adding(days: 1).start(utcOffset: utcOffset)
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
}

/// The Moon of the daemon's state (``MoonAlmanac``) at a position and moment, with the place's
/// clock, kept for the last few places and days: a moving machine asks again for each state,
/// a computation takes about 10 ms. Positions are taken to 2 decimals (≈ 1 km; moonrise moves
/// by under 4 s per km): a cell. The cache is asked first, by cell and the local date there;
/// the zone of a cell is looked up once (the lookup searches the city table and reads the zone
/// database), then kept with it. Safe to call from any thread.
public final class MoonCalendar: Sendable {
    /// The time zone at a coordinate: its name and offsets (`nil`: not known; then the nautical
    /// zone of the longitude).
    public typealias ZoneLookup = @Sendable (Coordinate) -> (name: String, utcOffset: @Sendable (Date) -> Int)?

    /// A cell's clock: its zone's name (`nil`: the nautical zone) and offsets east of UTC.
    private struct Clock {
        var name: String?
        var utcOffset: @Sendable (Date) -> Int
    }

    private struct Key: Hashable {
        var cell: Coordinate
        var date: CivilDate
    }

    private struct Kept {
        var clocks: [Coordinate: Clock] = [:]
        var days: [Key: MoonDay] = [:]
    }

    private let zone: ZoneLookup
    private let kept = Mutex(Kept())

    /// How many days and places are kept (each emptied when full).
    static let capacity = 16

    public init(zone: @escaping ZoneLookup) { self.zone = zone }

    /// The Moon on the local day of `now` at `coordinate` (rounded to 2 decimals).
    public func moon(at coordinate: Coordinate, now: Date) -> MoonDay {
        let cell = coordinate.rounded(toDecimals: 2)
        let clock = self.clock(cell)
        let key = Key(cell: cell, date: CivilDate(now, utcOffset: clock.utcOffset(now)))
        if let day = kept.withLock({ $0.days[key] }) { return day }
        let day = MoonAlmanac.day(key.date, at: cell, utcOffset: clock.utcOffset, timeZone: clock.name)
        kept.withLock {
            if $0.days.count >= Self.capacity { $0.days.removeAll() }
            $0.days[key] = day
        }
        return day
    }

    /// The clock of `cell`: kept, else looked up (and kept).
    private func clock(_ cell: Coordinate) -> Clock {
        if let clock = kept.withLock({ $0.clocks[cell] }) { return clock }
        let clock: Clock
        if let found = zone(cell) {
            clock = Clock(name: found.name, utcOffset: found.utcOffset)
        } else {
            let nautical = ZoneOffset.nauticalOffset(longitude: cell.longitude)
            clock = Clock(name: nil, utcOffset: { _ in nautical })
        }
        kept.withLock {
            if $0.clocks.count >= Self.capacity { $0.clocks.removeAll() }
            $0.clocks[cell] = clock
        }
        return clock
    }
}
