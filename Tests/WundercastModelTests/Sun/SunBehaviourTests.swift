import Foundation
import Testing
import WundercastModel

/// Polar day and night, days with only a sunrise or only a sunset, and ``Sun/isDay(at:time:)``.
@Suite struct SunBehaviourTests {
    static let tromso = Coordinate(latitude: 69.6492, longitude: 18.9553)
    static let mcMurdo = Coordinate(latitude: -77.846, longitude: 166.676)

    enum Shape: Equatable { case polarNight, polarDay, both, riseOnly, setOnly, neither }

    static func shape(_ day: SunDay) -> Shape {
        switch day {
        case .polarDay: .polarDay
        case .polarNight: .polarNight
        case .risesOrSets(.some, .some): .both
        case .risesOrSets(.some, nil): .riseOnly
        case .risesOrSets(nil, .some): .setOnly
        case .risesOrSets(nil, nil): .neither
        }
    }

    /// Tromsø through 2019: polar night until mid-January, then days with both events, one
    /// day with a sunrise and no sunset, the midnight sun, one day with a sunset and no
    /// sunrise, days with both, and polar night from late November.
    ///
    /// The edges, checked with PyEphem 4.2.1 (the sun's centre at the lower transit, or at
    /// noon, against −0.833°): lowest −0.928° in the night of 17/18 May and −0.708° in that of
    /// 18/19 May, so the midnight sun's first full solar day is 19 May; −0.801° on 25/26 July
    /// and −1.022° a day later, so its last is 25 July; highest at noon −0.962° on 14 January
    /// and −0.782° on the 15th; −0.757° on 27 November and −0.937° on the 28th. (Tromsø's
    /// published "20 May – 22 July" counts the whole disc above the horizon.)
    @Test func tromsoThroughTheYear() {
        let january1 = CivilDate(year: 2019, month: 1, day: 1)!
        var runs: [(shape: Shape, first: CivilDate, last: CivilDate)] = []
        for n in 0..<365 {
            let date = january1.adding(days: n)
            let offset = (89...299).contains(n) ? 7200 : 3600  // CEST from 31 March to 26 October
            let shape = Self.shape(Sun.day(at: Self.tromso, on: date, utcOffset: offset))
            if runs.last?.shape == shape { runs[runs.count - 1].last = date } else { runs.append((shape, date, date)) }
        }
        #expect(runs.map(\.shape) == [.polarNight, .both, .riseOnly, .polarDay, .setOnly, .both, .polarNight])
        guard runs.count == 7 else { return }
        #expect(runs[0].last == CivilDate(year: 2019, month: 1, day: 14))
        #expect(runs[2].first == CivilDate(year: 2019, month: 5, day: 18))
        #expect(runs[2].first == runs[2].last)  // one day each
        #expect(runs[3].first == CivilDate(year: 2019, month: 5, day: 19))
        #expect(runs[3].last == CivilDate(year: 2019, month: 7, day: 25))
        #expect(runs[4].first == runs[4].last)
        #expect(runs[6].first == CivilDate(year: 2019, month: 11, day: 28))
    }

    @Test func theSouthHasItsPolarNightInJune() {
        #expect(
            Sun.day(at: Self.mcMurdo, on: CivilDate(year: 2024, month: 6, day: 21)!, utcOffset: 12 * 3600)
                == .polarNight)
        #expect(
            Sun.day(at: Self.mcMurdo, on: CivilDate(year: 2024, month: 12, day: 21)!, utcOffset: 13 * 3600) == .polarDay
        )
        #expect(
            Sun.day(at: Self.tromso, on: CivilDate(year: 2024, month: 12, day: 21)!, utcOffset: 3600) == .polarNight)
        // Fairbanks is not polar: the shortest day still has a sunrise and a sunset.
        let fairbanks = Sun.day(
            at: Coordinate(latitude: 64.8378, longitude: -147.7164), on: CivilDate(year: 2024, month: 12, day: 21)!,
            utcOffset: -9 * 3600)
        let length: Double = (fairbanks.sunset ?? .distantPast).timeIntervalSince(fairbanks.sunrise ?? .distantFuture)
        #expect(length >= 3 * 3600 && length <= 4 * 3600, "\(fairbanks)")
    }

    /// Twilight horizons: the midnight sun at Tromsø is also a polar day for civil twilight;
    /// in December the sun climbs to −3.1° at noon: polar night for the sun and for −2°, not for
    /// civil twilight.
    @Test func twilightsHaveTheirOwnPolarDaysAndNights() {
        let june = CivilDate(year: 2024, month: 6, day: 21)!
        let december = CivilDate(year: 2024, month: 12, day: 21)!
        #expect(Sun.day(at: Self.tromso, on: june, utcOffset: 7200, horizon: .civil) == .polarDay)
        let civil = Sun.day(at: Self.tromso, on: december, utcOffset: 3600, horizon: .civil)
        #expect(civil.sunrise != nil && civil.sunset != nil, "\(civil)")
        #expect(Sun.day(at: Self.tromso, on: december, utcOffset: 3600, horizon: .altitude(-2)) == .polarNight)
    }

    /// The day is the one around noon local time, even where the zone is far from the
    /// sun: Kiritimati keeps UTC+14 at 157° W.
    @Test func theLocalDayDecidesWhichSunriseItIs() throws {
        let kiritimati = Coordinate(latitude: 1.87, longitude: -157.4)
        let date = CivilDate(year: 2024, month: 6, day: 1)!
        let day = Sun.day(at: kiritimati, on: date, utcOffset: 14 * 3600)
        let sunrise = try #require(day.sunrise)
        let sunset = try #require(day.sunset)
        #expect(CivilDate(sunrise, utcOffset: 14 * 3600) == date)
        #expect(CivilDate(sunset, utcOffset: 14 * 3600) == date)
        // Near the equator a day is twelve hours plus the few minutes refraction adds.
        let length: Double = sunset.timeIntervalSince(sunrise)
        #expect(length >= 12 * 3600 && length <= 12 * 3600 + 15 * 60, "\(length) s")
    }

    /// `isDay` flips at the computed sunrise and sunset, and agrees with polar day and night.
    @Test(arguments: [(-33.86, 151.2111, 10), (51.5, -0.13, 0), (64.8378, -147.7164, -9), (-41.33, 174.77, 12)])
    func isDayFlipsAtSunriseAndSunset(_ latitude: Double, _ longitude: Double, _ hours: Int) throws {
        let place = Coordinate(latitude: latitude, longitude: longitude)
        for month in 1...12 {
            let day = Sun.day(at: place, on: CivilDate(year: 2025, month: month, day: 15)!, utcOffset: hours * 3600)
            let sunrise = try #require(day.sunrise)
            let sunset = try #require(day.sunset)
            #expect(!Sun.isDay(at: place, time: sunrise.addingTimeInterval(-30)))
            #expect(Sun.isDay(at: place, time: sunrise.addingTimeInterval(30)))
            #expect(Sun.isDay(at: place, time: sunset.addingTimeInterval(-30)))
            #expect(!Sun.isDay(at: place, time: sunset.addingTimeInterval(30)))
        }
        let june21 = CivilDate(year: 2025, month: 6, day: 21)!.midnight(utcOffset: 0)
        #expect(Sun.isDay(at: Self.tromso, time: june21))  // midnight sun at 01:00 local
        #expect(
            !Sun.isDay(
                at: Self.tromso, time: CivilDate(year: 2025, month: 12, day: 21)!.midnight(utcOffset: -11 * 3600)))
    }
}
