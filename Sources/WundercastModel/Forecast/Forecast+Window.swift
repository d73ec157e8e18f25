#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Choosing what a forecast publishes, the same for every provider: the hours after the
/// provider's observation time (never the wall clock, so that a recorded answer gives the
/// same forecast whenever it is read) and the place's local days.
extension Forecast {
    /// The hours whose time is after `observed` and at most ``hoursAhead`` hours after it,
    /// oldest first, at most ``hoursAhead`` of them (an hourly series gives 12; a 3-hourly
    /// one 4). An hour at exactly `observed` has begun and is not in it.
    public static func nextHours(_ hours: [Hour], after observed: Date) -> [Hour] {
        let end = observed.addingTimeInterval(TimeInterval(hoursAhead) * 3600)
        let ahead = hours.filter { $0.time > observed && $0.time <= end }.sorted { $0.time < $1.time }
        return Array(ahead.prefix(hoursAhead))
    }

    /// The local day of `instant` at a place `utcOffsetSeconds` east of UTC, as days since
    /// 1970-01-01 (negative before).
    public static func localDay(of instant: Date, utcOffsetSeconds: Int) -> Int {
        whole((instant.timeIntervalSince1970 + Double(utcOffsetSeconds)) / 86_400, .down)
    }

    /// The place's local day of wall-clock `now`, as days since 1970-01-01, on the forecast's
    /// clock (``utcOffsetSeconds``; UTC's when unknown, as the days were then counted).
    public func localDay(at now: Date) -> Int {
        Self.localDay(of: now, utcOffsetSeconds: utcOffsetSeconds ?? 0)
    }

    /// ``days`` not over at wall-clock `now`: those from the place's day of `now` on (weather
    /// fetched before midnight, or an answer a day old, has days already past). A day whose
    /// date cannot be read is kept. `[]` when none.
    public func days(notBefore now: Date) -> [Day] {
        let today = localDay(at: now)
        return (days ?? []).filter { Self.day(ofDateText: $0.date).map { $0 >= today } ?? true }
    }

    /// The day of ``days`` whose date is the place's day of wall-clock `now`; `nil` when there is
    /// none (the days have passed, or begin later).
    public func day(at now: Date) -> Day? {
        let today = localDay(at: now)
        return days?.first { Self.day(ofDateText: $0.date) == today }
    }

    /// ``hours`` that have not ended at wall-clock `now` (each lasts an hour from its
    /// ``Hour/time``). `[]` when none.
    public func hours(notEndedAt now: Date) -> [Hour] {
        (hours ?? []).filter { $0.time.addingTimeInterval(3600) > now }
    }

    /// The local day that begins at `midnight`, an instant (as Open-Meteo's `daily.time` in
    /// `timeformat=unixtime`). Rounded, not cut: when the offset of that day differs from
    /// `utcOffsetSeconds` (a daylight-saving change between today and that day), its midnight
    /// is an hour or two off a whole day and still names the right one.
    public static func localDay(startingAt midnight: Date, utcOffsetSeconds: Int) -> Int {
        whole((midnight.timeIntervalSince1970 + Double(utcOffsetSeconds)) / 86_400, .toNearestOrAwayFromZero)
    }

    /// `value` rounded by `rule` as an `Int`, clamped to ±10¹⁴ (days or seconds far beyond any
    /// calendar) so that no instant, however absurd, can trap; not finite gives 0.
    static func whole(_ value: Double, _ rule: FloatingPointRoundingRule) -> Int {
        guard value.isFinite else { return 0 }
        return Int(min(max(value.rounded(rule), -1e14), 1e14))
    }

    /// `yyyy-MM-dd` of the day `day` days after 1970-01-01 (proleptic Gregorian calendar).
    public static func dateText(day: Int) -> String {
        let date = CivilDate(daysSince1970: day)
        let (year, month, dayOfMonth) = (date.year, date.month, date.day)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        var y = String(abs(year))
        while y.count < 4 { y = "0" + y }
        return (year < 0 ? "-" : "") + y + "-" + two(month) + "-" + two(dayOfMonth)
    }

    /// Days since 1970-01-01 of a `yyyy-MM-dd` date; `nil` for anything else (or a 30 February).
    public static func day(ofDateText text: String) -> Int? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let year = Int(parts[0]), let month = Int(parts[1]), let dayOfMonth = Int(parts[2]),
            let date = CivilDate(year: year, month: month, day: dayOfMonth)
        else { return nil }
        return date.daysSince1970
    }

    /// Hour (0–23) and minute of `instant` on the clock of a place `utcOffsetSeconds` east of
    /// UTC (the reader's clock style writes them: WundercastFormats' `ClockStyle`).
    public static func clockReading(_ instant: Date, utcOffsetSeconds: Int) -> (hour: Int, minute: Int) {
        let seconds = whole(instant.timeIntervalSince1970 + Double(utcOffsetSeconds), .down)
        let ofDay = ((seconds % 86_400) + 86_400) % 86_400
        return (ofDay / 3600, ofDay % 3600 / 60)
    }
}
