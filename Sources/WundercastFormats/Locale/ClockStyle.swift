#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WundercastModel

/// How the reader's clock writes a time of day, from `LC_TIME` (``init(timeFormat:amPmFormat:am:pm:)``):
/// 24-hour `15:05` (`de_DE`, `en_GB`, the C locale), `15.05` (`nb_NO`), or 12-hour `3:05 PM`
/// (`en_US`). Hours and minutes only: no seconds, no zone.
public struct ClockStyle: Sendable, Equatable {
    /// The strings of a 12-hour clock, `nil` for a 24-hour one.
    public var dayHalves: DayHalves?
    /// Between hours and minutes: `:` (most), `.` (`nb_NO`).
    public var separator: String

    public struct DayHalves: Sendable, Equatable {
        public var am: String
        public var pm: String
        /// Whether the marker comes before the time (`%p %I:%M`), as in some Asian locales.
        public var first: Bool

        public init(am: String, pm: String, first: Bool = false) {
            self.am = am
            self.pm = pm
            self.first = first
        }
    }

    public init(dayHalves: DayHalves? = nil, separator: String = ":") {
        self.dayHalves = dayHalves
        self.separator = separator
    }

    /// `15:05`.
    public static let twentyFourHour = ClockStyle()

    /// The style of a locale's `nl_langinfo(T_FMT)`, `T_FMT_AMPM`, `AM_STR` and `PM_STR`: a
    /// 12-hour clock when `T_FMT` writes the hour with `%I` or `%l` (or is `%r`, the 12-hour
    /// time `T_FMT_AMPM`) and the locale names the halves of the day; else 24-hour. The
    /// separator is what `T_FMT` puts between hour and minutes (`:` unless it is `.`).
    public init(timeFormat: String, amPmFormat: String, am: String, pm: String) {
        let twelveHourFormat = amPmFormat.isEmpty ? "%I:%M:%S %p" : amPmFormat
        let format = timeFormat.replacing("%r", with: twelveHourFormat).replacing("%T", with: "%H:%M:%S")
            .replacing("%R", with: "%H:%M")
        let hours = ["%I", "%l", "%H", "%k"].compactMap { mark in
            format.firstRange(of: mark).map { (mark: mark, range: $0) }
        }
        let first = hours.min { $0.range.lowerBound < $1.range.lowerBound }
        separator = ":"
        dayHalves = nil
        guard let first else { return }
        if let minutes = format[first.range.upperBound...].firstRange(of: "%M") {
            let between = String(format[first.range.upperBound..<minutes.lowerBound])
            if between == "." { separator = "." }
        }
        guard first.mark == "%I" || first.mark == "%l", !am.isEmpty, !pm.isEmpty else { return }
        let marker = format.firstRange(of: "%p") ?? format.firstRange(of: "%P")
        let lower = marker.map { format[$0] == "%P" } ?? false
        dayHalves = DayHalves(
            am: lower ? am.lowercased() : am, pm: lower ? pm.lowercased() : pm,
            first: marker.map { $0.lowerBound < first.range.lowerBound } ?? false)
    }

    /// `15:05`, `15.05` or `3:05 PM` for `hour` (0–23) and `minute`.
    public func text(hour: Int, minute: Int) -> String {
        let minutes = (minute < 10 ? "0" : "") + String(minute)
        guard let dayHalves else { return (hour < 10 ? "0" : "") + String(hour) + separator + minutes }
        let twelve = hour % 12 == 0 ? 12 : hour % 12
        let time = String(twelve) + separator + minutes
        let half = hour < 12 ? dayHalves.am : dayHalves.pm
        return dayHalves.first ? half + " " + time : time + " " + half
    }

    /// The time of day of `instant` on the clock of a place `utcOffsetSeconds` east of UTC.
    public func text(_ instant: Date, utcOffsetSeconds: Int) -> String {
        let reading = Forecast.clockReading(instant, utcOffsetSeconds: utcOffsetSeconds)
        return text(hour: reading.hour, minute: reading.minute)
    }
}
