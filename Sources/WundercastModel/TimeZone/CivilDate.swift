#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A day of the proleptic Gregorian calendar (year, month 1–12, day 1–31), without a time
/// zone: "2008-06-21". FoundationEssentials has no time-zone database, so local days are
/// computed here from a UTC offset (see ``ZoneInfo``); the arithmetic is Howard Hinnant's
/// `days_from_civil` / `civil_from_days`, exact for every `Int` year the types hold.
public struct CivilDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let year: Int
    /// 1 (January) … 12.
    public let month: Int
    /// 1 … 28–31.
    public let day: Int

    /// The date, or `nil` when `month` or `day` is out of range (2026-02-30, month 13).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...12).contains(month), day >= 1, day <= Self.daysInMonth(year: year, month: month) else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// The date `days` days after 1970-01-01 (negative: before).
    public init(daysSince1970 days: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let d = dayOfYear - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        year = yearOfEra + era * 400 + (m <= 2 ? 1 : 0)
        month = m
        day = d
    }

    /// The local calendar day at instant `date` where the clocks are `utcOffset` seconds
    /// east of UTC (Berlin in winter: 3600). Instants beyond ±27 million years (and NaN, as
    /// 1970) are clamped.
    public init(_ date: Date, utcOffset: Int) {
        let t = date.timeIntervalSince1970
        let seconds = (t.isNaN ? 0 : min(max(t, -8.64e14), 8.64e14)).rounded(.down) + Double(utcOffset)
        self.init(daysSince1970: Int((seconds / 86400).rounded(.down)))
    }

    /// Days since 1970-01-01 (negative before it).
    public var daysSince1970: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// Day of the week, 0 = Sunday … 6 = Saturday (as in POSIX `Mm.w.d` rules).
    public var weekday: Int {
        let d = daysSince1970 + 4  // 1970-01-01 was a Thursday
        return ((d % 7) + 7) % 7
    }

    /// The instant the day starts (00:00 local) where the clocks are `utcOffset` seconds east
    /// of UTC.
    public func midnight(utcOffset: Int) -> Date {
        Date(timeIntervalSince1970: Double(daysSince1970) * 86400 - Double(utcOffset))
    }

    /// The instant the day starts where the clocks are `utcOffset(instant)` seconds east of UTC
    /// at each instant (a zone's rules, ``ZoneInfo``): the offset is read at a first guess and
    /// again at the result, for a day after a change. Where the clocks jump forward at midnight
    /// (America/Santiago, 2024-09-08: 24:00 −04 became 01:00 −03) the day has no 00:00 and
    /// starts at the jump; where they fall back at midnight, at the second 00:00.
    public func start(utcOffset: (Date) -> Int) -> Date {
        let guess = midnight(utcOffset: utcOffset(midnight(utcOffset: 0)))
        let result = midnight(utcOffset: utcOffset(guess))
        // Read at its own offset, `result` is still the day before: this day's midnight was skipped.
        let skipped = result.addingTimeInterval(Double(utcOffset(result))) < midnight(utcOffset: 0)
        return skipped ? guess : result
    }

    /// The date `days` days later (earlier when negative).
    public func adding(days: Int) -> CivilDate { CivilDate(daysSince1970: daysSince1970 + days) }

    public static func isLeapYear(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    /// 28–31.
    public static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    public static func < (a: CivilDate, b: CivilDate) -> Bool { (a.year, a.month, a.day) < (b.year, b.month, b.day) }

    /// `yyyy-MM-dd` (years outside 0…9999 as plain numbers).
    public var description: String {
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let y =
            (0...9999).contains(year) ? String(repeating: "0", count: 4 - String(year).count) + String(year) : "\(year)"
        return "\(y)-\(two(month))-\(two(day))"
    }
}
