import Foundation
import WundercastModel

/// A US Naval Observatory yearly "Rise and Set for the Sun/Moon" table (Tests/Fixtures/moon,
/// weather/sun): `Day Rise Set` × 12 months, `hhmm` on the table's clock, blank when there is no
/// event, `****` / `----` when the body stays above / below the horizon all day, and a second
/// line with the same day number for a second event.
public enum USNOYearTable {
    /// One day: its events as minutes after the local midnight, or where the body stays all day.
    public struct Day: Sendable {
        public var date: CivilDate
        public var rises: [Int] = []
        public var sets: [Int] = []
        public var allDay: MoonDay.AllDay?

        public init(date: CivilDate, rises: [Int] = [], sets: [Int] = [], allDay: MoonDay.AllDay? = nil) {
            self.date = date
            self.rises = rises
            self.sets = sets
            self.allDay = allDay
        }
    }

    /// The days of the table at `relativePath` under Tests/Fixtures, for `year`, in date order.
    public static func read(_ relativePath: String, year: Int) throws -> [Day] {
        let text = String(decoding: try Fixtures.bytes(relativePath), as: UTF8.self)
        var days: [CivilDate: Day] = [:]
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(Array.init) {
            guard line.count > 4, line[0].isNumber, line[1].isNumber, line[2] == " ", line[3] == " ",
                let number = Int(String(line[0..<2]))
            else { continue }
            for month in 1...12 {
                guard let date = CivilDate(year: year, month: month, day: number) else { continue }
                let column = 4 + (month - 1) * 11
                func field(_ at: Int) -> String {
                    at >= line.count ? "" : String(line[at..<min(line.count, at + 4)])
                }
                var day = days[date] ?? Day(date: date)
                for (text, isRise) in [(field(column), true), (field(column + 5), false)] {
                    if text == "****" { day.allDay = .up }
                    if text == "----" { day.allDay = .down }
                    guard text.count == 4, let hhmm = Int(text) else { continue }
                    if isRise {
                        day.rises.append(hhmm / 100 * 60 + hhmm % 100)
                    } else {
                        day.sets.append(hhmm / 100 * 60 + hhmm % 100)
                    }
                }
                days[date] = day
            }
        }
        return days.values.sorted { $0.date < $1.date }
    }
}
