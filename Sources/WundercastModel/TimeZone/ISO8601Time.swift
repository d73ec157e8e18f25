#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// ISO 8601 date-times, read in one place: a wall-clock time without offset (Open-Meteo's
/// `current.time`) and a time with its offset (``ZonedTime``, MET Norway's `time`, the alert
/// sources' `onset`/`expires`/…). Strict in what every form shares: four-digit years, real
/// calendar dates (no 30 February), hours 00–23, minutes and seconds 00–59 (a leap second
/// cannot be an instant of `Date`), offsets within ±18:00; each reader names the other forms
/// it takes (``Variants``).
public enum ISO8601Time {
    /// The forms a reader takes besides `yyyy-MM-ddTHH:mm:ss±hh:mm` and `…Z`.
    public struct Variants: OptionSet, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// Without seconds: `2024-07-19T12:00+02:00`.
        public static let withoutSeconds = Variants(rawValue: 1)
        /// A fraction of a second, 1–9 digits: `2024-07-19T10:00:00.250Z`.
        public static let fraction = Variants(rawValue: 2)
        /// The basic offset `±hhmm`: `2024-07-19T03:00:00-0700`.
        public static let basicOffset = Variants(rawValue: 4)
        /// A lower-case `z`.
        public static let lowercaseZ = Variants(rawValue: 8)
        /// Every form above: what alert sources send.
        public static let all: Variants = [.withoutSeconds, .fraction, .basicOffset, .lowercaseZ]
    }

    /// The largest offset read, in seconds: 18 hours (ISO 8601 in practice; the Earth's
    /// clocks span −12 … +14 h).
    public static let maximumOffset = 18 * 3600

    /// Seconds since 1970 of a wall-clock time read as if it were UTC: `yyyy-MM-ddTHH:mm:ss`, or
    /// `yyyy-MM-ddTHH:mm` when `withoutSeconds`; `nil` for anything else.
    public static func localSeconds(_ text: Substring, withoutSeconds: Bool = true) -> Int? {
        let parts = text.split(separator: "T", omittingEmptySubsequences: false)
        guard parts.count == 2, let day = Forecast.day(ofDateText: String(parts[0])) else { return nil }
        let clock = parts[1].split(separator: ":", omittingEmptySubsequences: false)
        guard clock.count == 3 || (withoutSeconds && clock.count == 2),
            clock.allSatisfy({ $0.count == 2 && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let hour = Int(clock[0]), let minute = Int(clock[1]), (0...23).contains(hour), (0...59).contains(minute)
        else { return nil }
        var second = 0
        if clock.count == 3 {
            guard let s = Int(clock[2]), (0...59).contains(s) else { return nil }
            second = s
        }
        return day * 86_400 + hour * 3600 + minute * 60 + second
    }

    /// The instant of a time with its offset, and the offset (seconds east of UTC; `Z` is 0);
    /// `nil` for anything else: no offset, a form not in `variants`, a field out of range.
    public static func instant(_ text: String, variants: Variants = []) -> (instant: Date, utcOffset: Int)? {
        var clock = Substring(text)
        var offset = 0
        if clock.hasSuffix("Z") || (variants.contains(.lowercaseZ) && clock.hasSuffix("z")) {
            clock = clock.dropLast()
        } else {
            guard let (length, seconds) = trailingOffset(clock, basic: variants.contains(.basicOffset)) else {
                return nil
            }
            clock = clock.dropLast(length)
            offset = seconds
        }
        var fraction = 0.0
        if variants.contains(.fraction), let dot = clock.lastIndex(of: ".") {
            let digits = clock[clock.index(after: dot)...]
            guard !digits.isEmpty, digits.count <= 9, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
                let value = Double("0." + digits)
            else { return nil }
            fraction = value
            clock = clock[..<dot]
        }
        guard let local = localSeconds(clock, withoutSeconds: variants.contains(.withoutSeconds)) else { return nil }
        return (Date(timeIntervalSince1970: Double(local - offset) + fraction), offset)
    }

    /// The `±hh:mm` (or, when `basic`, `±hhmm`) at the end of `text`: its length and its seconds
    /// east of UTC, within ``maximumOffset``.
    private static func trailingOffset(_ text: Substring, basic: Bool) -> (length: Int, seconds: Int)? {
        for length in basic ? [6, 5] : [6] where text.count > length {
            let zone = Array(text.suffix(length))
            guard zone[0] == "+" || zone[0] == "-" else { continue }
            let digits = zone.dropFirst().filter { $0 != ":" }
            guard digits.count == 4, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
                length == 5 || zone[3] == ":",
                let hours = Int(String(digits.prefix(2))), let minutes = Int(String(digits.suffix(2))), minutes <= 59
            else { return nil }
            let seconds = hours * 3600 + minutes * 60
            guard seconds <= maximumOffset else { return nil }
            return (length, zone[0] == "-" ? -seconds : seconds)
        }
        return nil
    }
}
