#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Instants of alert answers: ISO 8601 with an explicit offset, as MetAlerts
/// (`2025-06-03T17:00:00+00:00`) and ECCC (`2026-09-21T16:50:44.658Z`) send them.
enum AlertInstant {
    /// `yyyy-MM-ddTHH:mm[:ss[.fraction]]` followed by `Z` or `±HH:MM` (also `±HHMM`, `±HH`);
    /// `nil` for anything else, a time without an offset included (it would be a guess).
    static func parse(_ text: String) -> Date? {
        let scalars = Array(text.unicodeScalars)
        guard scalars.count >= 17, scalars.count <= 40, scalars.allSatisfy(\.isASCII) else { return nil }
        // The offset: `Z`, or a sign after the clock (the date's own `-` are before index 10).
        var offsetSeconds = 0
        var clockEnd = scalars.count
        if scalars.last == "Z" || scalars.last == "z" {
            clockEnd -= 1
        } else if let signIndex = scalars.lastIndex(where: { $0 == "+" || $0 == "-" }), signIndex > 10 {
            guard let offset = offset(String(String.UnicodeScalarView(scalars[(signIndex + 1)...]))) else {
                return nil
            }
            offsetSeconds = scalars[signIndex] == "-" ? -offset : offset
            clockEnd = signIndex
        } else {
            return nil
        }
        var clock = String(String.UnicodeScalarView(scalars[..<clockEnd]))
        var fraction = 0.0
        if let dot = clock.firstIndex(of: ".") {
            let digits = clock[clock.index(after: dot)...]
            guard !digits.isEmpty, digits.count <= 9, digits.allSatisfy(\.isNumber),
                let value = Double("0." + String(digits))
            else { return nil }
            fraction = value
            clock = String(clock[..<dot])
        }
        guard let local = ProviderDecoding.localTime(clock) else { return nil }
        return Date(timeIntervalSince1970: local - Double(offsetSeconds) + fraction)
    }

    /// Seconds of `HH:MM`, `HHMM` or `HH` (at most 18:00, ISO 8601's bound).
    private static func offset(_ text: String) -> Int? {
        let digits = text.replacing(":", with: "")
        guard digits.count == 2 || digits.count == 4, digits.allSatisfy(\.isNumber),
            text.count == digits.count || (text.count == 5 && text.dropFirst(2).first == ":")
        else { return nil }
        let hours = Int(digits.prefix(2))!
        let minutes = digits.count == 4 ? Int(digits.suffix(2))! : 0
        guard hours <= 18, minutes < 60, hours * 3600 + minutes * 60 <= 18 * 3600 else { return nil }
        return hours * 3600 + minutes * 60
    }
}
