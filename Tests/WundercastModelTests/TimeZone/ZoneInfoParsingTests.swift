import Foundation
import Testing
import WundercastModel
import WundercastTestSupport

/// The TZif parser on every transition `zdump` lists, on cut and damaged files, on a
/// version 1 file, and POSIX TZ rules on their own.
@Suite struct ZoneInfoParsingTests {
    static func bytes(_ zone: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: "/usr/share/zoneinfo/" + zone)))
    }

    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// Every line of `zdump -v -c 1900,2100 ZONE` (glibc's reading of the same files: the
    /// second before and the second of each transition, through the footer's years) has the
    /// offset, summer-time flag and abbreviation we read. Zones: both hemispheres, a
    /// 30-minute summer time (Lord Howe), a 2-hour one (Troll), negative rule times (Nuuk),
    /// transitions listed until 2087 (Casablanca), no summer time (Kolkata).
    @Test(arguments: [
        "Europe/Berlin", "America/Anchorage", "Australia/Sydney", "Asia/Kolkata", "America/Nuuk", "Antarctica/Troll",
        "Australia/Lord_Howe", "Africa/Casablanca", "America/Sao_Paulo", "Pacific/Chatham", "Europe/Dublin",
    ])
    func agreesWithZdump(_ zone: String) async throws {
        let info = try ZoneInfo(parsing: Self.bytes(zone))
        let result = try await runProcess("/usr/bin/zdump", ["-v", "-c", "1900,2100", zone])
        #expect(result.status == 0)
        var checked = 0
        for line in result.stdout.split(separator: "\n") where !line.hasSuffix("NULL") {
            // ZONE  Sun Mar 28 00:59:59 2049 UT = Sun Mar 28 01:59:59 2049 CET isdst=0 gmtoff=3600
            let f = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            try #require(f.count == 16 && f[6] == "UT", "\(line)")
            let month = try #require(Self.months.firstIndex(of: f[2])) + 1
            let date = try #require(CivilDate(year: Int(f[5])!, month: month, day: Int(f[3])!))
            let hms = f[4].split(separator: ":").compactMap { Int($0) }
            let seconds = Int64(date.daysSince1970) * 86400 + Int64(hms[0] * 3600 + hms[1] * 60 + hms[2])
            let expected = ZoneOffset(
                utcOffset: Int(f[15].dropFirst("gmtoff=".count))!, isDST: f[14] == "isdst=1", abbreviation: f[13])
            #expect(info.offset(atUnixTime: seconds) == expected, "\(line)")
            checked += 1
        }
        #expect(checked >= 2 || zone == "Asia/Kolkata", "\(zone): \(checked) lines")
    }

    /// Every cut of a real file fails cleanly (never reads past the end), except the whole file.
    @Test func everyPrefixOfARealFileIsMalformed() throws {
        let whole = try Self.bytes("Australia/Sydney")
        for length in 0..<whole.count {
            #expect(throws: ZoneInfo.FormatError.self) { try ZoneInfo(parsing: Array(whole[..<length])) }
        }
        #expect(throws: Never.self) { try ZoneInfo(parsing: whole) }
    }

    /// Damaged bytes give an error or some zone, never a crash; a fixed pseudo-random walk.
    @Test func damagedFilesNeverCrash() throws {
        let whole = try Self.bytes("Europe/Berlin")
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var failures = 0
        for _ in 0..<3000 {
            var damaged = whole
            for _ in 0..<3 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                damaged[Int(state >> 33) % damaged.count] = UInt8(truncatingIfNeeded: state >> 17)
            }
            if let zone = try? ZoneInfo(parsing: damaged) {
                _ = zone.offset(at: Date(timeIntervalSince1970: Double(Int64(bitPattern: state) >> 30)))
            } else {
                failures += 1
            }
        }
        #expect(failures > 0)
        var header = whole
        header[4] = UInt8(ascii: "1")  // no version 1 spelled "1"
        #expect(throws: ZoneInfo.FormatError.malformed("version 49")) { try ZoneInfo(parsing: header) }
        // The first transition's type index in the 64-bit block, beyond the types.
        let v1 = (0..<6).map { Self.count(whole, at: 20 + 4 * $0) }
        let second = 44 + v1[3] * 5 + v1[4] * 6 + v1[5] + v1[2] * 8 + v1[1] + v1[0]
        var index = whole
        index[second + 44 + 8 * Self.count(whole, at: second + 32)] = 200
        #expect(throws: ZoneInfo.FormatError.malformed("type index 200")) { try ZoneInfo(parsing: index) }
        var order = whole
        order[second + 44 + 8] = 0x7F  // the second transition before the first
        #expect(throws: ZoneInfo.FormatError.malformed("transitions out of order")) { try ZoneInfo(parsing: order) }
    }

    static func count(_ bytes: [UInt8], at offset: Int) -> Int {
        bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
    }

    /// A version 1 file (the 32-bit block alone, version byte 0) reads the same offsets for
    /// 1901–2037.
    @Test func aVersionOneFileReadsItsThirtyTwoBitBlock() throws {
        let whole = try Self.bytes("America/Anchorage")
        let counts = (0..<6).map { Self.count(whole, at: 20 + 4 * $0) }
        let size = 44 + counts[3] * 5 + counts[4] * 6 + counts[5] + counts[2] * 8 + counts[1] + counts[0]
        var v1 = Array(whole[..<size])
        v1[4] = 0
        let old = try ZoneInfo(parsing: v1)
        let new = try ZoneInfo(parsing: whole)
        #expect(old.footer == nil && new.footer != nil)
        #expect(old.transitions.count > 100)
        for year in stride(from: 1902, through: 2037, by: 5) {
            for month in [1, 7] {
                let t = CivilDate(year: year, month: month, day: 1)!.midnight(utcOffset: 0)
                #expect(old.offset(at: t) == new.offset(at: t), "\(year)-\(month)")
            }
        }
    }

    @Test(arguments: [
        ("IST-5:30", 2024, 7, 19800, "IST"), ("<+0545>-5:45", 2024, 1, 20700, "+0545"),
        ("<-02>2<-01>,M3.5.0/-1,M10.5.0/0", 2024, 7, -3600, "-01"),
        ("<-02>2<-01>,M3.5.0/-1,M10.5.0/0", 2024, 1, -7200, "-02"),
        ("EST5EDT,0/0,J365/25", 2024, 1, -4 * 3600, "EDT"), ("EST5EDT,0/0,J365/25", 2024, 12, -4 * 3600, "EDT"),
        ("AEST-10AEDT,M10.1.0,M4.1.0/3", 2024, 1, 11 * 3600, "AEDT"),
        ("AEST-10AEDT,M10.1.0,M4.1.0/3", 2024, 7, 10 * 3600, "AEST"),
        ("XXX3YYY2,J60,J300", 2024, 3, -2 * 3600, "YYY"), ("XXX3YYY2,59,300", 2023, 2, -3 * 3600, "XXX"),
    ])
    func posixRules(_ text: String, _ year: Int, _ month: Int, _ offset: Int, _ name: String) throws {
        let rule = try #require(PosixTimeZoneRule(text))
        let t = Int64(CivilDate(year: year, month: month, day: 15)!.daysSince1970) * 86400 + 43200
        #expect(rule.offset(atUnixTime: t).utcOffset == offset)
        #expect(rule.offset(atUnixTime: t).abbreviation == name)
    }

    /// `J60` is 1 March in every year; `59` (zero-based) is 29 February in a leap year.
    @Test func julianDaysSkipOrCountFebruary29() throws {
        let j = try #require(PosixTimeZoneRule("AAA0BBB,J60/0,J300/0"))
        let n = try #require(PosixTimeZoneRule("AAA0BBB,59/0,J300/0"))
        let march1 = Int64(CivilDate(year: 2024, month: 3, day: 1)!.daysSince1970) * 86400
        #expect(!j.offset(atUnixTime: march1 - 1).isDST && j.offset(atUnixTime: march1).isDST)
        #expect(!n.offset(atUnixTime: march1 - 86401).isDST && n.offset(atUnixTime: march1 - 86400).isDST)
    }

    @Test(arguments: [
        "", "C", "CET", "CET-", "CET-1CEST", "CET-1CEST,M3.5.0", "CET-1CEST,M13.5.0,M10.5.0",
        "CET-1CEST,M3.6.0,M10.5.0",
        "CET-1CEST,M3.5.7,M10.5.0", "CET-25", "CET-1CEST,J0,J100", "CET-1CEST,366,J100", "<AB>1", "<A B C>1",
        "CET-1 ", "CET-1:60", "CET-1CEST,M3.5.0/168,M10.5.0",
    ])
    func malformedRulesAreRejected(_ text: String) {
        #expect(PosixTimeZoneRule(text) == nil)
    }

    /// The day arithmetic agrees with Foundation's Gregorian calendar, from 1600 to 2400.
    @Test func civilDatesAgreeWithFoundation() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(secondsFromGMT: 0))
        for days in stride(from: -135_000, through: 157_000, by: 97) {
            let date = CivilDate(daysSince1970: days)
            let parts = calendar.dateComponents(
                [.year, .month, .day, .weekday], from: Date(timeIntervalSince1970: Double(days) * 86400))
            #expect([date.year, date.month, date.day] == [parts.year, parts.month, parts.day])
            #expect(date.weekday == parts.weekday! - 1)
            #expect(CivilDate(year: date.year, month: date.month, day: date.day)?.daysSince1970 == days)
        }
        #expect(CivilDate(year: 2024, month: 2, day: 29) != nil)
        #expect(CivilDate(year: 2100, month: 2, day: 29) == nil)
        #expect(CivilDate(year: 2026, month: 13, day: 1) == nil)
        #expect(CivilDate(Date(timeIntervalSince1970: -1), utcOffset: 0).description == "1969-12-31")
        #expect(CivilDate(Date(timeIntervalSince1970: -1), utcOffset: 1).description == "1970-01-01")
    }
}

extension ZoneInfoParsingTests {
    /// The ends of time do not trap: far instants follow the footer's rule or the first period.
    @Test func extremeInstantsAreClamped() throws {
        let berlin = try ZoneInfo(parsing: Self.bytes("Europe/Berlin"))
        #expect(["CET", "CEST"].contains(berlin.offset(atUnixTime: .max).abbreviation))
        #expect(berlin.offset(atUnixTime: .min).abbreviation == "LMT")
        #expect(["CET", "CEST"].contains(berlin.offset(at: Date(timeIntervalSince1970: .infinity)).abbreviation))
        #expect(berlin.offset(at: Date(timeIntervalSince1970: -.infinity)).abbreviation == "LMT")
        #expect(berlin.offset(at: Date(timeIntervalSince1970: .nan)) == berlin.periods[0])
        #expect(CivilDate(Date(timeIntervalSince1970: .greatestFiniteMagnitude), utcOffset: 0).year > 20_000_000)
        #expect(CivilDate(Date(timeIntervalSince1970: .nan), utcOffset: 0).description == "1970-01-01")
    }
}
