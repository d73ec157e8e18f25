import Foundation
import Synchronization
import Testing
import WundercastModel
import WundercastTestSupport

/// The TZif reader against the machine's own `/usr/share/zoneinfo` (Debian's tzdata).
@Suite struct ZoneInfoTests {
    struct TooLarge: Error {}

    /// Reads whole files as the daemon's reader does (at most `limit` bytes).
    static let database = ZoneInfoDatabase { path, limit in
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        guard data.count <= limit else { throw TooLarge() }
        return [UInt8](data)
    }

    static func instant(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 12) -> Date {
        CivilDate(year: year, month: month, day: day)!.midnight(utcOffset: 0).addingTimeInterval(Double(hour * 3600))
    }

    @Test(arguments: [
        ("Europe/Berlin", 2024, 7, 1, 7200, true, "CEST"), ("Europe/Berlin", 2024, 1, 15, 3600, false, "CET"),
        ("America/Anchorage", 2024, 7, 1, -8 * 3600, true, "AKDT"),
        ("America/Anchorage", 2024, 12, 1, -9 * 3600, false, "AKST"),
        ("Australia/Sydney", 2024, 1, 15, 11 * 3600, true, "AEDT"),
        ("Australia/Sydney", 2024, 7, 1, 10 * 3600, false, "AEST"),
        ("Asia/Kolkata", 2024, 7, 1, 19800, false, "IST"), ("Asia/Kolkata", 2024, 1, 1, 19800, false, "IST"),
        ("UTC", 2024, 7, 1, 0, false, "UTC"),
    ])
    func offsetsOfRealZones(
        _ zone: String, _ year: Int, _ month: Int, _ day: Int, _ offset: Int, _ isDST: Bool, _ abbreviation: String
    ) throws {
        let found = try Self.database.zone(named: zone).offset(at: Self.instant(year, month, day))
        #expect(found == ZoneOffset(utcOffset: offset, isDST: isDST, abbreviation: abbreviation))
    }

    /// Days where the clocks change at midnight (America/Santiago, 2024): on 7 April 24:00 −03
    /// became 23:00 −04, so 6 April lasts 25 h and 7 April starts at the second 00:00; on
    /// 8 September 24:00 −04 became 01:00 −03, so 8 September has no 00:00, starts at the jump
    /// and lasts 23 h (a day's forecast and Moon are built on these spans).
    @Test func daysWhereTheClocksChangeAtMidnight() throws {
        let santiago = try Self.database.zone(named: "America/Santiago")
        let offset: (Date) -> Int = { santiago.offset(at: $0).utcOffset }
        func start(_ month: Int, _ day: Int) -> Date {
            CivilDate(year: 2024, month: month, day: day)!.start(utcOffset: offset)
        }
        #expect(start(4, 6) == Self.instant(2024, 4, 6, 3))
        #expect(start(4, 7) == Self.instant(2024, 4, 7, 4))
        #expect(start(4, 8) == Self.instant(2024, 4, 8, 4))
        #expect(start(9, 7) == Self.instant(2024, 9, 7, 4))
        #expect(start(9, 8) == Self.instant(2024, 9, 8, 4))
        #expect(start(9, 9) == Self.instant(2024, 9, 9, 3))
        // Each start reads as 00:00 or later on its own date, and the instant before it as the day before.
        for (month, day) in [(4, 6), (4, 7), (9, 8), (9, 9)] {
            let begins = start(month, day)
            #expect(CivilDate(begins, utcOffset: offset(begins)) == CivilDate(year: 2024, month: month, day: day))
            let before = begins.addingTimeInterval(-1)
            #expect(CivilDate(before, utcOffset: offset(before)) == CivilDate(year: 2024, month: month, day: day - 1))
        }
    }

    /// Debian's files list transitions until 2037; later instants follow the footer's rule.
    @Test func farFutureInstantsFollowTheFooter() throws {
        let berlin = try Self.database.zone(named: "Europe/Berlin")
        let last = try #require(berlin.transitions.last)
        #expect(Date(timeIntervalSince1970: Double(last)) < Self.instant(2040, 1, 1))
        #expect(berlin.footer != nil)
        #expect(berlin.offset(at: Self.instant(2100, 7, 1)).utcOffset == 7200)
        #expect(berlin.offset(at: Self.instant(2100, 1, 1)).utcOffset == 3600)
        // The last Sunday of March 2100 is the 28th: 01:00 UTC switches.
        #expect(berlin.offset(at: Self.instant(2100, 3, 28, 1).addingTimeInterval(-1)).utcOffset == 3600)
        #expect(berlin.offset(at: Self.instant(2100, 3, 28, 1)).utcOffset == 7200)
        let sydney = try Self.database.zone(named: "Australia/Sydney")
        #expect(sydney.offset(at: Self.instant(2150, 1, 1)).utcOffset == 11 * 3600)
        #expect(sydney.offset(at: Self.instant(2150, 6, 1)).utcOffset == 10 * 3600)
        let anchorage = try Self.database.zone(named: "America/Anchorage")
        #expect(
            anchorage.offset(at: Self.instant(2200, 7, 4))
                == ZoneOffset(utcOffset: -28800, isDST: true, abbreviation: "AKDT"))
        #expect(try Self.database.zone(named: "Asia/Kolkata").offset(at: Self.instant(2300, 1, 1)).utcOffset == 19800)
    }

    /// "Today" at the place: five minutes after midnight UTC it is still the day before in
    /// Anchorage, the same day in Sydney and the next day in Kiritimati (UTC+14).
    @Test func localDateIsThePlacesDay() throws {
        let t = Self.instant(2024, 3, 10, 0).addingTimeInterval(300)
        #expect(
            try Self.database.zone(named: "America/Anchorage").localDate(at: t)
                == CivilDate(year: 2024, month: 3, day: 9))
        #expect(
            try Self.database.zone(named: "Australia/Sydney").localDate(at: t)
                == CivilDate(year: 2024, month: 3, day: 10))
        #expect(
            try Self.database.zone(named: "Pacific/Kiritimati").localDate(at: Self.instant(2024, 3, 10, 11))
                == CivilDate(year: 2024, month: 3, day: 11))
    }

    @Test(arguments: [
        "", "/etc/passwd", "../../etc/passwd", "Europe/../../etc/passwd", "Europe/./Berlin", "Europe//Berlin",
        "Europe/Berlin/", "/Europe/Berlin", ".hidden", "Europe/Berlin\u{0}", "Europe/Berlin ", "Europe\\Berlin",
        "-rf", "Europe/Bérlin", String(repeating: "A", count: 65), "Europe/Berlin\n",
    ])
    func invalidNamesAreRefusedBeforeAnyRead(_ name: String) {
        let reads = Mutex(0)
        let database = ZoneInfoDatabase { _, _ in
            reads.withLock { $0 += 1 }
            return []
        }
        #expect(ZoneInfoDatabase.validatedName(name) == nil)
        #expect(throws: ZoneInfoDatabase.LookupError.invalidName) { try database.zone(named: name) }
        #expect(database.offset(zone: name, at: Date()) == nil)
        #expect(reads.withLock { $0 } == 0)
    }

    @Test func unknownZonesAndDirectoriesAreUnknown() {
        for name in ["Nowhere/Atlantis", "Europe", "Etc/GMT+99"] {
            #expect(throws: ZoneInfoDatabase.LookupError.unknownZone(name)) { try Self.database.zone(named: name) }
            #expect(Self.database.offset(zone: name, at: Date()) == nil)
        }
        // Names of real zones with `+`, `-`, `_` and three parts are fine.
        for name in ["Etc/GMT+5", "Etc/GMT-14", "America/Argentina/Buenos_Aires", "America/Port-au-Prince"] {
            #expect(Self.database.offset(zone: name, at: Date()) != nil, "\(name)")
        }
        #expect(Self.database.offset(zone: "Etc/GMT+5", at: Date())?.utcOffset == -5 * 3600)  // POSIX sign
    }

    @Test func aZoneIsReadOnceAndWithALimit() throws {
        let reads = Mutex<[String]>([])
        let database = ZoneInfoDatabase(directory: "/usr/share/zoneinfo/") { path, limit in
            reads.withLock { $0.append(path) }
            #expect(limit == ZoneInfoDatabase.maximumFileSize)
            return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        }
        let first = try database.zone(named: "Europe/Berlin")
        let second = try database.zone(named: "Europe/Berlin")
        #expect(first == second)
        #expect(reads.withLock { $0 } == ["/usr/share/zoneinfo/Europe/Berlin"])
    }

    @Test func aFileThatIsNotTZifIsMalformed() {
        let database = ZoneInfoDatabase { _, _ in Array("not a zone file\n".utf8) }
        #expect(throws: ZoneInfoDatabase.LookupError.malformed(zone: "Europe/Berlin", reason: "not a TZif file")) {
            try database.zone(named: "Europe/Berlin")
        }
    }
}
