#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Time spans written as in systemd.time(7): `30s`, `5min`, `2h`, `1h 30min`, `1h30min`,
/// `500ms`, `1.5s`. A bare number means seconds.
///
/// Units (case-sensitive): `ns`/`nsec`; `us`/`usec`/`µs`; `ms`/`msec`;
/// `s`/`sec`/`second`/`seconds`; `m`/`min`/`minute`/`minutes`; `h`/`hr`/`hour`/`hours`;
/// `d`/`day`/`days`; `w`/`week`/`weeks`. Months and years are not accepted.
public enum TimeSpan {
    /// Parses a time span: one or more `NUMBER[UNIT]` parts (whitespace allowed between and
    /// inside parts) that add up, e.g. `"1h 30min"` → 5400 s. NUMBER is decimal digits with an
    /// optional fraction (`1.5`); no sign, no exponent. Fractions finer than 10⁻¹⁴ of the unit
    /// are truncated.
    ///
    /// - Returns: the span, or `nil` for empty text, an unknown unit, a sign, anything that is
    ///   not a number, or a total beyond `Int64.max` seconds.
    public static func parse(_ text: String) -> Duration? {
        guard let parts = NumberWithUnit.split(text) else { return nil }
        var total: Int128 = 0  // attoseconds
        for part in parts {
            guard let unit = attoseconds(unit: part.unit),
                let value = part.attoseconds(per: unit)
            else { return nil }
            let (sum, overflow) = total.addingReportingOverflow(value)
            guard !overflow else { return nil }
            total = sum
        }
        let perSecond: Int128 = 1_000_000_000_000_000_000
        guard let seconds = Int64(exactly: total / perSecond) else { return nil }
        return Duration(secondsComponent: seconds, attosecondsComponent: Int64(total % perSecond))
    }

    /// Formats `duration` as systemd does in its logs: non-zero parts from weeks down to
    /// nanoseconds, largest first, separated by a space: `2min`, `1h 30min`, `45s`,
    /// `1s 500ms`, `1w 2d`. Zero is `0`; a negative span gets a leading `-`. Sub-nanosecond
    /// remainders are dropped. ``parse(_:)`` reads the result back to the same span.
    public static func format(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        var nanoseconds = Int128(seconds) * 1_000_000_000 + Int128(attoseconds) / 1_000_000_000
        guard nanoseconds != 0 else { return "0" }
        let negative = nanoseconds < 0
        if negative { nanoseconds = -nanoseconds }
        var parts: [String] = []
        for (unit, size) in formatUnits {
            let count = nanoseconds / size
            if count > 0 { parts.append("\(count)\(unit)") }
            nanoseconds %= size
        }
        return (negative ? "-" : "") + parts.joined(separator: " ")
    }

    /// Units of ``format(_:)``, largest first, in nanoseconds.
    private static let formatUnits: [(String, Int128)] = [
        ("w", 604_800_000_000_000), ("d", 86_400_000_000_000), ("h", 3_600_000_000_000),
        ("min", 60_000_000_000), ("s", 1_000_000_000), ("ms", 1_000_000), ("us", 1_000), ("ns", 1),
    ]

    /// Attoseconds in one `unit`; an empty unit is seconds. `nil` for an unknown unit.
    private static func attoseconds(unit: Substring) -> Int128? {
        let second: Int128 = 1_000_000_000_000_000_000
        switch unit {
        case "ns", "nsec": return 1_000_000_000
        case "us", "usec", "µs", "μs": return 1_000_000_000_000
        case "ms", "msec": return 1_000_000_000_000_000
        case "", "s", "sec", "second", "seconds": return second
        case "m", "min", "minute", "minutes": return 60 * second
        case "h", "hr", "hour", "hours": return 3_600 * second
        case "d", "day", "days": return 86_400 * second
        case "w", "week", "weeks": return 604_800 * second
        default: return nil
        }
    }
}

/// One `NUMBER[UNIT]` part of a time span or distance, as written.
package struct NumberWithUnit {
    /// Digits before the decimal point (may be empty, as in `.5`).
    var integer: Substring
    /// Digits after the decimal point (may be empty).
    var fraction: Substring
    /// Letters after the number (may be empty).
    package var unit: Substring

    /// Splits `text` into parts: each is digits, an optional `.` and digits, optional
    /// whitespace, then optional letters; whitespace may separate parts. `nil` when the text
    /// is blank or anything else appears (a sign, an exponent, a lone unit).
    package static func split(_ text: String) -> [NumberWithUnit]? {
        var parts: [NumberWithUnit] = []
        var i = text.startIndex
        func skipWhitespace() { while i < text.endIndex, text[i].isWhitespace { i = text.index(after: i) } }
        func take(while predicate: (Character) -> Bool) -> Substring {
            let start = i
            while i < text.endIndex, predicate(text[i]) { i = text.index(after: i) }
            return text[start..<i]
        }
        skipWhitespace()
        while i < text.endIndex {
            let integer = take(while: isDigit)
            var fraction: Substring = ""
            if i < text.endIndex, text[i] == "." {
                i = text.index(after: i)
                fraction = take(while: isDigit)
            }
            guard !integer.isEmpty || !fraction.isEmpty else { return nil }
            if i < text.endIndex, text[i] == "." { return nil }  // "1.2.3s"
            skipWhitespace()
            let unit = take(while: { $0.isLetter })
            parts.append(NumberWithUnit(integer: integer, fraction: fraction, unit: unit))
            skipWhitespace()
        }
        return parts.isEmpty ? nil : parts
    }

    /// ASCII `0`–`9` only (a digit with a combining mark is one `Character` but no digit).
    private static func isDigit(_ c: Character) -> Bool {
        guard let ascii = c.asciiValue else { return false }
        return ascii >= 0x30 && ascii <= 0x39
    }

    /// The number as text `Double(_:)` accepts: `1.5`, `0.5`, `5.0`.
    package var decimalText: String {
        (integer.isEmpty ? "0" : String(integer)) + "." + (fraction.isEmpty ? "0" : String(fraction))
    }

    /// The number times `unit` (attoseconds per unit), truncated; `nil` on overflow.
    /// At most 14 fraction digits count, so the product always fits in `Int128`.
    func attoseconds(per unit: Int128) -> Int128? {
        guard integer.count <= 30 else { return nil }
        let digits = fraction.prefix(14)
        var whole: Int128 = 0
        for c in integer { whole = whole * 10 + Int128(c.asciiValue! - 0x30) }
        var numerator: Int128 = 0
        var denominator: Int128 = 1
        for c in digits {
            numerator = numerator * 10 + Int128(c.asciiValue! - 0x30)
            denominator *= 10
        }
        let (product, overflow) = whole.multipliedReportingOverflow(by: unit)
        guard !overflow else { return nil }
        let (sum, overflowed) = product.addingReportingOverflow(numerator * unit / denominator)
        return overflowed ? nil : sum
    }
}

extension Duration {
    /// Whole milliseconds (rounded toward zero): the journal's `WUNDERCAST_*_MS` fields.
    public var wholeMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
