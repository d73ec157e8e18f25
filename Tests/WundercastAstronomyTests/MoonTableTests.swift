import Foundation
import Testing
import WundercastModel
import WundercastTestSupport

@testable import WundercastAstronomy

/// Moonrise and moonset against the US Naval Observatory's tables (Tests/Fixtures/moon), every
/// day and every event: each published event within ``tolerance``, none of ours that the table
/// does not have, and the table's all-day markers (`****` up, `----` down) on days without any.
///
/// Measured (the tables are to the minute, so ±30 s of it is their rounding): Fredonia AZ 2023
/// 706 events within 32 s, Boston 1984 707 within 33 s, 70° N 2023 362 within 38 s (and every
/// `****` and `----` day), 29° N 81° W 2019 705 within 31 s, Fairbanks 2006 35 within 48 s (a
/// moonrise at azimuth 6°, 1° a minute); the USNO's one-day answers for Berlin and Sydney 2026
/// within 23 s (`MoonReferenceTests`). libnova's own `ln_get_lunar_rst` missed the same tables
/// by up to 6.9 min (see ``MoonEvents``).
@Suite struct MoonTableTests {
    /// Two minutes (issue 19).
    static let tolerance = 120.0

    /// What comparing one table found.
    struct Measured {
        var events = 0
        /// Largest difference from a published time, seconds.
        var worst = 0.0
        var worstAt = ""
        var missing: [String] = []
        var invented: [String] = []
        var wrongAllDay: [String] = []
    }

    /// Compares `days` with ours at `coordinate` on a clock `offset` seconds east of UTC.
    static func compare(_ days: [USNOTables.Day], at coordinate: Coordinate, offset: Int) -> Measured {
        var measured = Measured()
        for day in days {
            let start = day.date.midnight(utcOffset: offset)
            let sky = MoonAlmanac.events(at: coordinate, from: start, to: start.addingTimeInterval(86400))
            for (published, isRise) in day.rises.map({ ($0, true) }) + day.sets.map({ ($0, false) }) {
                let instant = start.addingTimeInterval(Double(published * 60))
                let label = "\(day.date) \(isRise ? "rise" : "set") \(published / 60):\(published % 60)"
                let ours = sky.events.filter { $0.isRise == isRise }.map { $0.time.timeIntervalSince(instant) }
                guard let difference = ours.min(by: { abs($0) < abs($1) }), abs(difference) <= 3600 else {
                    measured.missing.append(label)
                    continue
                }
                measured.events += 1
                if abs(difference) > abs(measured.worst) { (measured.worst, measured.worstAt) = (difference, label) }
            }
            for event in sky.events {
                let minutes = (event.isRise ? day.rises : day.sets).map {
                    start.addingTimeInterval(Double($0 * 60)).timeIntervalSince(event.time)
                }
                if !minutes.contains(where: { abs($0) <= 3600 }) {
                    measured.invented.append("\(day.date) \(event.isRise ? "rise" : "set") \(event.time)")
                }
            }
            if sky.events.isEmpty && day.rises.isEmpty && day.sets.isEmpty {
                let ours: MoonDay.AllDay = sky.upAtStart ? .up : .down
                if let published = day.allDay, published != ours { measured.wrongAllDay.append("\(day.date)") }
            } else if day.allDay != nil {
                measured.wrongAllDay.append("\(day.date) has events")
            }
        }
        return measured
    }

    static func check(_ measured: Measured, events: Int) {
        #expect(measured.events == events)
        #expect(measured.missing.isEmpty, "published, not found: \(measured.missing)")
        #expect(measured.invented.isEmpty, "found, not published: \(measured.invented)")
        #expect(measured.wrongAllDay.isEmpty, "all day: \(measured.wrongAllDay)")
        #expect(abs(measured.worst) <= tolerance, "worst \(measured.worst) s at \(measured.worstAt)")
    }

    @Test func fredonia2023MountainStandardTime() throws {
        let days = try USNOTables.yearly("usno_moon_riseset_2023_fredonia_az_W112.52_N36.95_MST_UTC-7.txt", year: 2023)
        #expect(days.count == 365)
        let place = Coordinate(latitude: 36 + 57.0 / 60, longitude: -(112 + 31.0 / 60))
        Self.check(Self.compare(days, at: place, offset: -7 * 3600), events: 706)
    }

    @Test func boston1984EasternStandardTime() throws {
        let days = try USNOTables.yearly("usno_moon_riseset_1984_boston_W071.08_N42.32_EST.txt", year: 1984)
        #expect(days.count == 366)
        let place = Coordinate(latitude: 42 + 19.0 / 60, longitude: -(71 + 5.0 / 60))
        Self.check(Self.compare(days, at: place, offset: -5 * 3600), events: 707)
    }

    /// 70° N: weeks without moonrise or moonset (`****`, `----`), days with two.
    @Test func latitude70North2023() throws {
        let days = try USNOTables.yearly("usno_moon_riseset_2023_lat70N_lon0_UT_polar.txt", year: 2023)
        #expect(days.filter { $0.allDay == .up }.count > 50)
        #expect(days.filter { $0.allDay == .down }.count > 50)
        #expect(days.contains { $0.rises.count == 2 || $0.sets.count == 2 })
        Self.check(Self.compare(days, at: Coordinate(latitude: 70, longitude: 0), offset: 0), events: 362)
    }

    @Test func florida2019UniversalTime() throws {
        let days = try USNOTables.yearly("usno_moon_riseset_2019_W081.00_N29.00_UT.html", year: 2019)
        Self.check(Self.compare(days, at: Coordinate(latitude: 29, longitude: -81), offset: 0), events: 705)
    }

    /// 64.8° N around the solstice: three days on which the Moon never sets (`*****`).
    @Test func fairbanks2006() throws {
        let days = try USNOTables.fairbanks()
        #expect(days.count == 21)
        #expect(days.filter { $0.allDay == .up }.map(\.date.description) == ["2006-06-24", "2006-06-25", "2006-06-26"])
        let place = Coordinate(latitude: 64 + 48.6 / 60, longitude: -(147 + 45.0 / 60))
        Self.check(Self.compare(days, at: place, offset: -8 * 3600), events: 35)
    }
}
