#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The offset of local clocks from UTC in one period of a time zone.
public struct ZoneOffset: Sendable, Equatable, Hashable {
    /// Seconds east of UTC (Berlin in winter 3600, Anchorage −32400, Kolkata 19800).
    public var utcOffset: Int
    /// Whether the period is summer (daylight saving) time.
    public var isDST: Bool
    /// The period's abbreviation from the database (`CEST`, `AKDT`, `+0530`); ASCII, at
    /// most 16 characters.
    public var abbreviation: String

    public init(utcOffset: Int, isDST: Bool, abbreviation: String) {
        self.utcOffset = utcOffset
        self.isDST = isDST
        self.abbreviation = abbreviation
    }
}

/// One time zone read from a TZif file (RFC 8536, versions 1–4; `/usr/share/zoneinfo/NAME`).
///
/// The 64-bit data block of version 2+ files is used (the 32-bit one only in version 1
/// files); times after the last transition follow the POSIX `TZ` rule in the footer (Debian's
/// files carry transitions until 2037). Leap-second records are skipped: the zone's
/// transitions are in POSIX time, as `Date` is.
public struct ZoneInfo: Sendable, Equatable {
    /// Transition instants, seconds since 1970 (UTC), ascending.
    public let transitions: [Int64]
    /// For each transition, the index into ``periods`` that starts with it.
    public let transitionPeriods: [Int]
    /// The local-time types; the first applies before the first transition.
    public let periods: [ZoneOffset]
    /// The footer's rule, for instants after the last transition (`nil`: the last period holds).
    public let footer: PosixTimeZoneRule?

    /// Errors of ``init(parsing:)``.
    public enum FormatError: Error, Equatable, Sendable {
        /// Not a TZif file, or cut short, or counts and indexes that do not fit together.
        case malformed(String)
    }

    /// Parses the bytes of a TZif file.
    ///
    /// - Throws: ``FormatError/malformed(_:)`` for anything that is not a well-formed TZif file:
    ///   a wrong magic, a file cut short, an index out of range, transitions out of order, an
    ///   offset beyond ±26 h, an unparseable footer.
    public init(parsing bytes: [UInt8]) throws(FormatError) {
        var reader = TZifReader(bytes: bytes)
        let first = try reader.header(timeSize: 4)
        if first.version == 0 {
            self = try Self.block(&reader, first, timeSize: 4)
            return
        }
        try reader.skip(first.blockSize(timeSize: 4))
        let second = try reader.header(timeSize: 8)
        let info = try Self.block(&reader, second, timeSize: 8)
        // Footer: "\n" TZ "\n" (the TZ part may be empty).
        guard try reader.byte() == 0x0A else { throw .malformed("no footer") }
        var text: [UInt8] = []
        while true {
            let c = try reader.byte()
            if c == 0x0A { break }
            guard text.count < 128, c >= 0x20, c < 0x7F else { throw .malformed("footer") }
            text.append(c)
        }
        if !text.isEmpty {
            guard let rule = PosixTimeZoneRule(String(decoding: text, as: UTF8.self)) else {
                throw .malformed("footer \(String(decoding: text, as: UTF8.self))")
            }
            self.init(
                transitions: info.transitions, transitionPeriods: info.transitionPeriods, periods: info.periods,
                footer: rule)
        } else {
            self = info
        }
    }

    init(transitions: [Int64], transitionPeriods: [Int], periods: [ZoneOffset], footer: PosixTimeZoneRule?) {
        self.transitions = transitions
        self.transitionPeriods = transitionPeriods
        self.periods = periods
        self.footer = footer
    }

    /// The offset in force at `date` (NaN: the first period).
    public func offset(at date: Date) -> ZoneOffset {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        guard !seconds.isNaN else { return periods[0] }
        return offset(atUnixTime: Int64(max(-9.2e18, min(9.2e18, seconds))))
    }

    /// The offset in force at `seconds` since 1970 (UTC).
    public func offset(atUnixTime seconds: Int64) -> ZoneOffset {
        guard let last = transitions.last else { return footer?.offset(atUnixTime: seconds) ?? periods[0] }
        if seconds >= last, let footer { return footer.offset(atUnixTime: seconds) }
        if seconds < transitions[0] { return periods[0] }
        // The last transition at or before `seconds`.
        var low = 0
        var high = transitions.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if transitions[middle] <= seconds { low = middle } else { high = middle - 1 }
        }
        return periods[transitionPeriods[low]]
    }

    /// The local calendar day at `date` ("today" at the place).
    public func localDate(at date: Date) -> CivilDate {
        CivilDate(date, utcOffset: offset(at: date).utcOffset)
    }

    /// One data block (RFC 8536 §3.2) with times of `timeSize` bytes.
    private static func block(
        _ reader: inout TZifReader, _ header: TZifReader.Header, timeSize: Int
    )
        throws(FormatError) -> ZoneInfo
    {
        var transitions: [Int64] = []
        for _ in 0..<header.timeCount {
            let t = try timeSize == 8 ? reader.int64() : Int64(reader.int32())
            if let previous = transitions.last, t <= previous { throw .malformed("transitions out of order") }
            transitions.append(t)
        }
        var indexes: [Int] = []
        for _ in 0..<header.timeCount {
            let i = Int(try reader.byte())
            guard i < header.typeCount else { throw .malformed("type index \(i)") }
            indexes.append(i)
        }
        var raw: [(offset: Int32, isDST: Bool, designation: Int)] = []
        for _ in 0..<header.typeCount {
            let offset = try reader.int32()
            guard abs(Int(offset)) < 26 * 3600 else { throw .malformed("offset \(offset)") }
            let dst = try reader.byte()
            guard dst <= 1 else { throw .malformed("isdst \(dst)") }
            raw.append((offset, dst == 1, Int(try reader.byte())))
        }
        let characters = Array(try reader.bytes(header.charCount))
        let periods = try raw.map { (type) throws(FormatError) -> ZoneOffset in
            guard type.designation < characters.count else { throw .malformed("designation index") }
            let name = characters[type.designation...].prefix { $0 != 0 }
            guard name.count <= 16, name.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else {
                throw .malformed("designation")
            }
            return ZoneOffset(
                utcOffset: Int(type.offset), isDST: type.isDST, abbreviation: String(decoding: name, as: UTF8.self))
        }
        try reader.skip(header.leapCount * (timeSize + 4) + header.standardCount + header.utcCount)
        return ZoneInfo(transitions: transitions, transitionPeriods: indexes, periods: periods, footer: nil)
    }
}
