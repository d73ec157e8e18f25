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
    /// Seconds east of UTC of the place's clocks at ``instant`` (whole minutes, within ±18 h to
    /// be read back).
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
    /// separator, a field out of range (month 13, 24:00, an offset beyond ±18 h). The reading is
    /// ``ISO8601Time/instant(_:variants:)``'s, without its variants.
    public init?(text: String) {
        guard let (instant, offset) = ISO8601Time.instant(text) else { return nil }
        self.init(instant, utcOffset: offset)
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
