import Foundation
import Synchronization
import Testing
import WundercastModel
import WundercastTestSupport

@testable import WundercastAstronomy

/// A local day's Moon (``MoonAlmanac/day(_:at:utcOffset:timeZone:)``) and the daemon's
/// calendar of them (``MoonCalendar``), checked against the USNO's 2024 phases and its tables.
@Suite struct MoonAlmanacTests {
    static let greenwich = Coordinate(latitude: 51.48, longitude: 0)
    static let fredonia = Coordinate(latitude: 36 + 57.0 / 60, longitude: -(112 + 31.0 / 60))

    static func date(_ text: String) throws -> CivilDate {
        let parts = text.split(separator: "-").compactMap { Int($0) }
        return try #require(CivilDate(year: parts[0], month: parts[1], day: parts[2]))
    }

    /// The full moon of 2024-01-25 17:54 UT (USNO) names that day in UTC and the next one in
    /// UTC+8 (01:54 on the 26th there); the days around it are gibbous, waxing then waning.
    @Test(arguments: [
        (0, "2024-01-24", MoonPhase.waxingGibbous), (0, "2024-01-25", .fullMoon), (0, "2024-01-26", .waningGibbous),
        (8, "2024-01-25", .waxingGibbous), (8, "2024-01-26", .fullMoon), (8, "2024-01-27", .waningGibbous),
    ])
    func fullMoonNamesTheLocalDayOfItsInstant(hours: Int, date: String, phase: MoonPhase) throws {
        let day = MoonAlmanac.day(try Self.date(date), at: Self.greenwich, utcOffset: { _ in hours * 3600 })
        #expect(day.date == date)
        #expect(day.phase == phase)
        if phase == .fullMoon {
            let time = try #require(day.phaseTime)
            let published = try #require(ZonedTime(text: "2024-01-25T17:54:00Z")).instant
            #expect(abs(time.instant.timeIntervalSince(published)) <= 60)
            #expect(time.utcOffset == hours * 3600)
            #expect(time.instant.timeIntervalSince1970.truncatingRemainder(dividingBy: 60) == 0)
            #expect(day.illumination > 0.98)
        } else {
            #expect(day.phaseTime == nil)
            #expect(day.illumination > 0.9 && day.illumination < 1)
        }
    }

    /// The principal phases of January 2024 (USNO: last quarter 4th 03:30, new 11th 11:57,
    /// first quarter 18th 03:52) and a crescent between them; the fraction is 3 decimals.
    @Test func phasesAndIlluminationThroughAMonth() throws {
        let utc: (Date) -> Int = { _ in 0 }
        let quarter = MoonAlmanac.day(try Self.date("2024-01-04"), at: Self.greenwich, utcOffset: utc)
        #expect(quarter.phase == .lastQuarter)
        #expect(abs(quarter.illumination - 0.5) < 0.06)
        let new = MoonAlmanac.day(try Self.date("2024-01-11"), at: Self.greenwich, utcOffset: utc)
        #expect(new.phase == .newMoon)
        #expect(new.illumination < 0.02)
        let crescent = MoonAlmanac.day(try Self.date("2024-01-14"), at: Self.greenwich, utcOffset: utc)
        #expect(crescent.phase == .waxingCrescent)
        #expect(crescent.illumination > 0.05 && crescent.illumination < 0.3)
        #expect((crescent.illumination * 1000).rounded() == crescent.illumination * 1000)
        #expect(MoonAlmanac.day(try Self.date("2024-01-18"), at: Self.greenwich, utcOffset: utc).phase == .firstQuarter)
        #expect(
            MoonAlmanac.day(try Self.date("2024-01-08"), at: Self.greenwich, utcOffset: utc).phase == .waningCrescent)
    }

    /// Fredonia 2023-04-11 (USNO: rise 00:19, set 09:35 MST): times to the minute with the
    /// place's offset; 2023-01-13 has no moonrise (blank in the table) but a moonset.
    @Test func riseAndSetOnThePlacesClock() throws {
        let mst: (Date) -> Int = { _ in -7 * 3600 }
        let day = MoonAlmanac.day(
            try Self.date("2023-04-11"), at: Self.fredonia, utcOffset: mst, timeZone: "America/Phoenix")
        let rise = try #require(day.rise)
        let set = try #require(day.set)
        #expect(rise.text.hasPrefix("2023-04-11T00:") && rise.text.hasSuffix(":00-07:00"))
        #expect(set.text.hasPrefix("2023-04-11T09:") && set.text.hasSuffix(":00-07:00"))
        let published = try #require(ZonedTime(text: "2023-04-11T00:19:00-07:00"))
        #expect(abs(rise.instant.timeIntervalSince(published.instant)) <= 60)
        let publishedSet = try #require(ZonedTime(text: "2023-04-11T09:35:00-07:00"))
        #expect(abs(set.instant.timeIntervalSince(publishedSet.instant)) <= 60)
        #expect(day.allDay == nil)
        #expect(day.timeZone == "America/Phoenix")
        let noRise = MoonAlmanac.day(try Self.date("2023-01-13"), at: Self.fredonia, utcOffset: mst)
        #expect(noRise.rise == nil)
        #expect(noRise.set?.text.hasPrefix("2023-01-13T11:") == true)
        #expect(noRise.allDay == nil)
    }

    /// 70° N 2023: up all day on 01-03 (`****`), down all day on 01-17 (`----`).
    @Test func allDayUpAndDownNearThePole() throws {
        let north = Coordinate(latitude: 70, longitude: 0)
        let up = MoonAlmanac.day(try Self.date("2023-01-03"), at: north, utcOffset: { _ in 0 })
        #expect(up.allDay == .up)
        #expect(up.rise == nil && up.set == nil)
        let down = MoonAlmanac.day(try Self.date("2023-01-17"), at: north, utcOffset: { _ in 0 })
        #expect(down.allDay == .down)
        #expect(down.rise == nil && down.set == nil)
    }

    /// A day of 23 hours (Berlin, 2024-03-31: the clocks go from 02:00 CET to 03:00 CEST at
    /// 01:00 UTC): it starts at 23:00 UTC the evening before and ends at 22:00 UTC; each time
    /// carries the offset in force at it.
    @Test func aDayWhenTheClocksChange() throws {
        let change = try #require(ZonedTime(text: "2024-03-31T01:00:00Z")).instant
        let berlin: (Date) -> Int = { $0 < change ? 3600 : 7200 }
        let date = try Self.date("2024-03-31")
        #expect(date.start(utcOffset: berlin) == ZonedTime(text: "2024-03-30T23:00:00Z")?.instant)
        #expect(date.adding(days: 1).start(utcOffset: berlin) == ZonedTime(text: "2024-03-31T22:00:00Z")?.instant)
        let day = MoonAlmanac.day(date, at: Coordinate(latitude: 52.52, longitude: 13.405), utcOffset: berlin)
        for time in [day.rise, day.set].compactMap({ $0 }) {
            #expect(time.utcOffset == berlin(time.instant))
            #expect(time.text.hasPrefix("2024-03-31T"))
        }
        #expect(day.rise != nil || day.set != nil)
    }

    /// The daemon's calendar: the place's zone when known, else the nautical zone of the
    /// longitude; positions to 2 decimals; the same day and place computed once, a cell's zone
    /// looked up once.
    @Test func calendarUsesThePlacesZoneOrTheNauticalOne() throws {
        let asked = Mutex(0)
        let calendar = MoonCalendar { coordinate in
            asked.withLock { $0 += 1 }
            return coordinate.longitude < -100 && coordinate.latitude > 30
                ? ("America/Phoenix", { _ in -7 * 3600 }) : nil
        }
        let now = try #require(ZonedTime(text: "2023-04-11T12:00:00Z")).instant
        let fredonia = calendar.moon(at: Coordinate(latitude: 36.951, longitude: -112.517), now: now)
        #expect(fredonia.timeZone == "America/Phoenix")
        #expect(fredonia.date == "2023-04-11")
        #expect(
            fredonia
                == MoonAlmanac.day(
                    try Self.date("2023-04-11"), at: Coordinate(latitude: 36.95, longitude: -112.52),
                    utcOffset: { _ in -7 * 3600 }, timeZone: "America/Phoenix"))
        #expect(calendar.moon(at: Coordinate(latitude: 36.9504, longitude: -112.5204), now: now) == fredonia)
        #expect(asked.withLock { $0 } == 1, "the cell's zone is kept with it")
        // The open Pacific: no zone, UTC−9 by the longitude; 2023-04-11 12:00 UTC is 03:00 there.
        let sea = calendar.moon(at: Coordinate(latitude: -12.46, longitude: -130.84), now: now)
        #expect(sea.timeZone == nil)
        #expect(sea.date == "2023-04-11")
        #expect([sea.rise, sea.set].compactMap { $0 }.allSatisfy { $0.utcOffset == -9 * 3600 })
        let earlier = calendar.moon(
            at: Coordinate(latitude: -12.46, longitude: -130.84), now: now.addingTimeInterval(-4 * 3600))
        #expect(earlier.date == "2023-04-10")
    }
}
