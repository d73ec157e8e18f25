import Foundation
import Testing
import WundercastModel

/// ``ZonedTime``: ISO 8601 local time with the place's offset, written and read.
@Suite struct ZonedTimeTests {
    /// 2023-04-11 08:19:00 UTC.
    static let instant = Date(timeIntervalSince1970: 1_681_201_140)

    static let texts: [(offset: Int, text: String)] = [
        (-7 * 3600, "2023-04-11T01:19:00-07:00"), (0, "2023-04-11T08:19:00+00:00"),
        (5 * 3600 + 45 * 60, "2023-04-11T14:04:00+05:45"), (-9 * 3600 - 30 * 60, "2023-04-10T22:49:00-09:30"),
        (14 * 3600, "2023-04-11T22:19:00+14:00"),
    ]

    @Test(arguments: texts)
    func writtenWithTheOffsetAndReadBack(example: (offset: Int, text: String)) throws {
        let (offset, text) = example
        let time = ZonedTime(Self.instant, utcOffset: offset)
        #expect(time.text == text)
        #expect(ZonedTime(text: text) == time)
        let json = try JSONEncoder().encode([time])
        #expect(String(decoding: json, as: UTF8.self) == "[\"\(text)\"]")
        #expect(try JSONDecoder().decode([ZonedTime].self, from: json) == [time])
    }

    @Test func zuluIsOffsetZero() {
        #expect(ZonedTime(text: "2023-04-11T08:19:00Z") == ZonedTime(Self.instant, utcOffset: 0))
    }

    @Test func beforeNineteenSeventy() {
        let time = ZonedTime(Date(timeIntervalSince1970: -86400 * 365 - 1), utcOffset: -5 * 3600)
        #expect(time.text == "1968-12-31T18:59:59-05:00")
        #expect(ZonedTime(text: time.text) == time)
    }

    @Test(arguments: [
        "", "2023-04-11T08:19:00", "2023-04-11 08:19:00Z", "2023-13-11T08:19:00Z", "2023-02-30T08:19:00Z",
        "2023-04-11T24:00:00Z", "2023-04-11T08:60:00Z", "2023-04-11T08:19:00+27:00", "2023-04-11T08:19:00+0700",
        "2023-04-11T08:19:00.5Z", "2023-04-11T08:19:00Y", "+023-04-11T08:19:00Z", "2023-04-11T08:19:00*07:00",
    ])
    func anythingElseIsNoTime(text: String) throws {
        #expect(ZonedTime(text: text) == nil)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([ZonedTime].self, from: Data("[\"\(text)\"]".utf8))
        }
    }

    static let nautical: [(longitude: Double, hours: Int)] = [
        (0, 0), (7.4, 0), (7.6, 1), (-7.6, -1), (13.4, 1), (-112.5, -8), (-130.84, -9), (172.4, 11), (179.9, 12),
        (180, 12), (-180, -12), (-172.6, -12),
    ]

    @Test(arguments: nautical)
    func nauticalZones(zone: (longitude: Double, hours: Int)) {
        #expect(ZoneOffset.nauticalOffset(longitude: zone.longitude) == zone.hours * 3600)
    }

    @Test func nauticalZoneOfNoLongitudeIsUTC() {
        #expect(ZoneOffset.nauticalOffset(longitude: .nan) == 0)
    }
}
