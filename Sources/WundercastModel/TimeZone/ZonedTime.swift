#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An instant with the offset of the place's clocks at it, written in JSON as ISO 8601 local
/// time with that offset, to the second: `"2023-04-11T01:23:00-07:00"` (`Z` for offset 0 is
/// read too). What a reader shows without a time-zone database of its own.
public struct ZonedTime: Sendable, Equatable, Hashable, Codable {
    /// The instant (whole seconds).
    public var instant: Date
    /// Seconds east of UTC of the place's clocks at ``instant`` (−26 h … 26 h, whole minutes).
    public var utcOffset: Int

    public init(_ instant: Date, utcOffset: Int) {
        self.instant = instant
        self.utcOffset = utcOffset
    }

    /// The local date and time, `yyyy-MM-ddTHH:mm:ss±HH:MM`.
    public var text: String {
        let local = Int(instant.timeIntervalSince1970.rounded(.down)) + utcOffset
        let days = Int((Double(local) / 86400).rounded(.down))
        let seconds = local - days * 86400
        let sign = utcOffset < 0 ? "-" : "+"
        let offset = abs(utcOffset) / 60
        return "\(CivilDate(daysSince1970: days))T\(Self.two(seconds / 3600)):\(Self.two(seconds / 60 % 60)):"
            + "\(Self.two(seconds % 60))\(sign)\(Self.two(offset / 60)):\(Self.two(offset % 60))"
    }

    /// Reads ``text``'s form (and `Z` for `+00:00`); `nil` for anything else: another length or
    /// separator, a field out of range (month 13, 24:00, an offset beyond ±26 h).
    public init?(text: String) {
        let b = Array(text.utf8)
        guard b.count == 20 || b.count == 25 else { return nil }
        func number(_ at: Int, _ count: Int) -> Int? {
            var value = 0
            for byte in b[at..<at + count] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        let separators: [(Int, Character)] = [(4, "-"), (7, "-"), (10, "T"), (13, ":"), (16, ":")]
        guard separators.allSatisfy({ b[$0.0] == $0.1.asciiValue }),
            let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
            let date = CivilDate(year: year, month: month, day: day),
            let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
            hour < 24, minute < 60, second < 60
        else { return nil }
        var offset = 0
        if b.count == 25 {
            guard b[19] == UInt8(ascii: "+") || b[19] == UInt8(ascii: "-"), b[22] == UInt8(ascii: ":"),
                let oh = number(20, 2), let om = number(23, 2), oh <= 26, om < 60
            else { return nil }
            offset = (oh * 3600 + om * 60) * (b[19] == UInt8(ascii: "-") ? -1 : 1)
        } else if b[19] != UInt8(ascii: "Z") {
            return nil
        }
        let local = date.daysSince1970 * 86400 + hour * 3600 + minute * 60 + second
        self.init(Date(timeIntervalSince1970: Double(local - offset)), utcOffset: offset)
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let value = ZonedTime(text: text) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "not a local ISO 8601 time with an offset"))
        }
        self = value
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }

    private static func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
}
