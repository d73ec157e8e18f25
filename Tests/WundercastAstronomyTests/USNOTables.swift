import Foundation
import Testing
import WundercastModel
import WundercastTestSupport

/// The published Moon tables of Tests/Fixtures/moon (see its README for origins), read as
/// they are printed.
enum USNOTables {
    typealias Day = USNOYearTable.Day

    static func yearly(_ name: String, year: Int) throws -> [Day] {
        try USNOYearTable.read("moon/" + name, year: year)
    }

    /// The Fairbanks rise/transit/set table (`2006 Jun 15 (Thu)  02:56 146  05:27 4S  08:17 218`;
    /// `*****` where the Moon neither rises nor sets).
    static func fairbanks() throws -> [Day] {
        let name = "usno_moon_risettransit_2006-06-15_to_07-05_fairbanks_W147.75_N64.81_UTC-8.txt"
        let text = String(decoding: try Fixtures.bytes("moon/" + name), as: UTF8.self)
        let months = ["Jun": 6, "Jul": 7]
        return try text.split(separator: "\n").map(Array.init).filter { $0.starts(with: Array("2006 ")) }.map {
            line in
            let month = try #require(months[String(line[5..<8])])
            let date = try #require(CivilDate(year: 2006, month: month, day: Int(String(line[9..<11])) ?? 0))
            var day = Day(date: date)
            func minutes(_ at: Int) -> Int? {
                guard line.count >= at + 5, line[at + 2] == ":" else { return nil }
                return Int(String(line[at..<at + 2])).flatMap { h in
                    Int(String(line[at + 3..<at + 5])).map { h * 60 + $0 }
                }
            }
            day.rises = minutes(25).map { [$0] } ?? []
            day.sets = minutes(59).map { [$0] } ?? []
            if line.count > 30, String(line[25..<30]) == "*****" { day.allDay = .up }
            return day
        }
    }

    /// Principal phase instants: `phase` 0 new moon, 1 first quarter, 2 full moon, 3 last quarter.
    struct Phase {
        var phase: MoonPhase
        var time: Date
    }

    static let principal: [MoonPhase] = [.newMoon, .firstQuarter, .fullMoon, .lastQuarter]

    /// The USNO phase service's instants, every 10th year 1800–2100 (`2 1800-01-11T02:20:00.000Z`).
    static func decades() throws -> [Phase] {
        let text = String(
            decoding: try Fixtures.bytes("moon/usno_moon_phases_1800-2100_every_10th_year_UT.txt"), as: UTF8.self)
        return try text.split(separator: "\n").map { line in
            let parts = line.split(separator: " ")
            let phase = try #require(Int(parts[0]))
            // `1800-01-02T22:57:00.000Z`: whole minutes, read without the milliseconds.
            let time = try #require(ZonedTime(text: String(parts[1].prefix(19)) + "Z"))
            return Phase(phase: principal[phase], time: time.instant)
        }
    }

    /// The 1980 table: four columns (new, first quarter, full, last quarter) of `Mon dd hh mm`.
    static func year1980() throws -> [Phase] {
        let text = String(decoding: try Fixtures.bytes("moon/usno_moon_phases_1980_UT.txt"), as: UTF8.self)
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        var phases: [Phase] = []
        for line in text.split(separator: "\n").map(Array.init) where line.count > 12 {
            for column in 0..<4 {
                let at = 4 + column * 16
                guard line.count >= at + 12, let month = months.firstIndex(of: String(line[at..<at + 3])) else {
                    continue
                }
                let fields = String(line[at + 3..<min(line.count, at + 13)]).split(separator: " ").compactMap {
                    Int($0)
                }
                guard fields.count == 3, let date = CivilDate(year: 1980, month: month + 1, day: fields[0]) else {
                    continue
                }
                let time = date.midnight(utcOffset: 0).addingTimeInterval(Double(fields[1] * 3600 + fields[2] * 60))
                phases.append(Phase(phase: principal[column], time: time))
            }
        }
        return phases.sorted { $0.time < $1.time }
    }

    /// The USNO API's 2024 answer (`{"day","month","phase":"Full Moon","time":"17:54","year"}`).
    static func year2024() throws -> [Phase] {
        struct Answer: Decodable {
            struct Item: Decodable {
                var day, month, year: Int
                var phase, time: String
            }
            var phasedata: [Item]
        }
        let names = ["New Moon": 0, "First Quarter": 1, "Full Moon": 2, "Last Quarter": 3]
        let answer = try JSONDecoder().decode(
            Answer.self, from: Data(try Fixtures.bytes("moon/usno_api_moon_phases_2024_UT.json")))
        return try answer.phasedata.map { item in
            let date = try #require(CivilDate(year: item.year, month: item.month, day: item.day))
            let hm = item.time.split(separator: ":").compactMap { Int($0) }
            let phase = try #require(names[item.phase])
            return Phase(
                phase: principal[phase],
                time: date.midnight(utcOffset: 0).addingTimeInterval(Double(hm[0] * 3600 + hm[1] * 60)))
        }
    }
}
