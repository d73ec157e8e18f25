/// A POSIX `TZ` string as found in the footer of a TZif file (RFC 8536 §3.3, with its
/// extensions: hours up to ±167 in rule times, quoted `<+0530>` names):
/// `std offset [dst [offset] [,start[/time],end[/time]]]`, e.g. `CET-1CEST,M3.5.0,M10.5.0/3`,
/// `IST-5:30`, `<-02>2<-01>,M3.5.0/-1,M10.5.0/0`.
///
/// POSIX offsets count west of Greenwich (`CET-1` is one hour *east*); ``utcOffset`` and
/// ``dstOffset`` here are seconds east of UTC, like ``ZoneOffset/utcOffset``.
public struct PosixTimeZoneRule: Sendable, Equatable {
    public var standardName: String
    /// Seconds east of UTC in standard time.
    public var utcOffset: Int
    public var daylight: Daylight?

    /// Summer time: its name, offset and when it starts and ends each year.
    public struct Daylight: Sendable, Equatable {
        public var name: String
        /// Seconds east of UTC in summer time (standard + 1 h unless given).
        public var dstOffset: Int
        /// Starts at `start` local standard time; ends at `end` local summer time.
        public var start: Transition
        public var end: Transition
    }

    /// A day of the year and a time of that day (seconds, −167 h … 167 h).
    public struct Transition: Sendable, Equatable {
        public enum Day: Sendable, Equatable {
            /// `Jn`: day 1…365, February 29 never counted.
            case julianNoLeap(Int)
            /// `n`: day 0…365, February 29 counted.
            case zeroBased(Int)
            /// `Mm.w.d`: weekday `d` (0 = Sunday) of week `w` (1…5, 5 = last) of month `m`.
            case monthWeekDay(month: Int, week: Int, weekday: Int)
        }
        public var day: Day
        public var time: Int
    }

    /// Parses `text`; `nil` when it is not a TZ string of the form above (or has trailing
    /// characters). An empty footer (no rule) is `nil` too.
    public init?(_ text: String) {
        var scanner = Scanner(Array(text.utf8))
        guard let std = scanner.name(), let stdOffset = scanner.offset(maxHours: 24) else { return nil }
        standardName = std
        utcOffset = -stdOffset
        if scanner.atEnd {
            daylight = nil
            return
        }
        guard let dst = scanner.name() else { return nil }
        var dstOffset = utcOffset + 3600
        if let c = scanner.peek, c != UInt8(ascii: ",") {
            guard let value = scanner.offset(maxHours: 24) else { return nil }
            dstOffset = -value
        }
        // Without a rule POSIX leaves the dates to the implementation; the tz code uses the
        // US rules, and TZif footers always spell them out.
        guard scanner.take(","), let start = scanner.transition(), scanner.take(","), let end = scanner.transition(),
            scanner.atEnd
        else { return nil }
        daylight = Daylight(name: dst, dstOffset: dstOffset, start: start, end: end)
    }

    /// The offset in force at `seconds` since 1970 (UTC): seconds east of UTC and whether it
    /// is summer time, with the name of the period.
    public func offset(atUnixTime unixTime: Int64) -> ZoneOffset {
        // Beyond ±146 billion years nothing changes; keeps the arithmetic below in range.
        let seconds = min(max(unixTime, -(1 << 62)), 1 << 62)
        guard let daylight else { return ZoneOffset(utcOffset: utcOffset, isDST: false, abbreviation: standardName) }
        let summer = ZoneOffset(utcOffset: daylight.dstOffset, isDST: true, abbreviation: daylight.name)
        let winter = ZoneOffset(utcOffset: utcOffset, isDST: false, abbreviation: standardName)
        let local = seconds + Int64(utcOffset)
        let year = CivilDate(daysSince1970: Int(local / 86400 - (local % 86400 < 0 ? 1 : 0))).year
        // Look at the neighbouring years too: a rule time beyond 24 h can move a transition
        // across New Year.
        var changes: [(at: Int64, toSummer: Bool)] = []
        for y in (year - 1)...(year + 1) {
            changes.append((Int64(daylight.start.localSeconds(year: y)) - Int64(utcOffset), true))
            changes.append((Int64(daylight.end.localSeconds(year: y)) - Int64(daylight.dstOffset), false))
        }
        // At one instant an end sorts before a start: a rule like `J1/0,J365/25` is summer
        // time all year.
        changes.sort { $0.at < $1.at || ($0.at == $1.at && !$0.toSummer && $1.toSummer) }
        guard let last = changes.last(where: { $0.at <= seconds }) else { return winter }
        return last.toSummer ? summer : winter
    }
}

extension PosixTimeZoneRule.Transition {
    /// Seconds from 1970-01-01 00:00 (as if UTC) to this transition in local time of `year`.
    func localSeconds(year: Int) -> Int {
        let january1 = CivilDate(year: year, month: 1, day: 1)!.daysSince1970
        let days: Int
        switch day {
        case .julianNoLeap(let n):
            // Day 60 is March 1 in every year: skip February 29 in leap years.
            days = january1 + n - 1 + (CivilDate.isLeapYear(year) && n >= 60 ? 1 : 0)
        case .zeroBased(let n):
            days = january1 + n
        case .monthWeekDay(let month, let week, let weekday):
            let first = CivilDate(year: year, month: month, day: 1)!
            var dayOfMonth = 1 + (weekday - first.weekday + 7) % 7 + (week - 1) * 7
            let length = CivilDate.daysInMonth(year: year, month: month)
            while dayOfMonth > length { dayOfMonth -= 7 }
            days = first.daysSince1970 + dayOfMonth - 1
        }
        return days * 86400 + time
    }
}

/// Reads a TZ string byte by byte.
private struct Scanner {
    let bytes: [UInt8]
    var index = 0
    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { index == bytes.count }
    var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func take(_ c: Character) -> Bool {
        guard let p = peek, p == c.asciiValue else { return false }
        index += 1
        return true
    }

    /// Three or more letters, or `<` letters, digits, `+`, `-` `>`.
    mutating func name() -> String? {
        let start = index
        if take("<") {
            while let p = peek, p != UInt8(ascii: ">") {
                guard Self.isAlpha(p) || Self.isDigit(p) || p == UInt8(ascii: "+") || p == UInt8(ascii: "-")
                else { return nil }
                index += 1
            }
            guard take(">"), index - start - 2 >= 3 else { return nil }
            return String(decoding: bytes[(start + 1)..<(index - 1)], as: UTF8.self)
        }
        while let p = peek, Self.isAlpha(p) { index += 1 }
        guard index - start >= 3 else { return nil }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    /// `[+-]hh[:mm[:ss]]` in seconds, hours at most `maxHours`.
    mutating func offset(maxHours: Int) -> Int? {
        var sign = 1
        if take("-") { sign = -1 } else { _ = take("+") }
        guard let hours = number(maxDigits: 3), hours <= maxHours else { return nil }
        var total = hours * 3600
        if take(":") {
            guard let minutes = number(maxDigits: 2), minutes < 60 else { return nil }
            total += minutes * 60
            if take(":") {
                guard let seconds = number(maxDigits: 2), seconds < 60 else { return nil }
                total += seconds
            }
        }
        return sign * total
    }

    /// `Jn`, `n` or `Mm.w.d`, then optionally `/time` (default 02:00:00).
    mutating func transition() -> PosixTimeZoneRule.Transition? {
        let day: PosixTimeZoneRule.Transition.Day
        if take("J") {
            guard let n = number(maxDigits: 3), (1...365).contains(n) else { return nil }
            day = .julianNoLeap(n)
        } else if take("M") {
            guard let m = number(maxDigits: 2), (1...12).contains(m), take("."),
                let w = number(maxDigits: 1), (1...5).contains(w), take("."),
                let d = number(maxDigits: 1), (0...6).contains(d)
            else { return nil }
            day = .monthWeekDay(month: m, week: w, weekday: d)
        } else {
            guard let n = number(maxDigits: 3), (0...365).contains(n) else { return nil }
            day = .zeroBased(n)
        }
        var time = 7200
        if take("/") {
            guard let t = offset(maxHours: 167) else { return nil }
            time = t
        }
        return PosixTimeZoneRule.Transition(day: day, time: time)
    }

    mutating func number(maxDigits: Int) -> Int? {
        var value = 0
        var digits = 0
        while let p = peek, Self.isDigit(p), digits < maxDigits {
            value = value * 10 + Int(p - UInt8(ascii: "0"))
            digits += 1
            index += 1
        }
        return digits == 0 ? nil : value
    }

    static func isAlpha(_ c: UInt8) -> Bool { (c | 0x20) >= UInt8(ascii: "a") && (c | 0x20) <= UInt8(ascii: "z") }
    static func isDigit(_ c: UInt8) -> Bool { c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }
}
