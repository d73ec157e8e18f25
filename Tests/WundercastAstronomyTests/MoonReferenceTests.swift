import Foundation
import Testing
import WundercastModel
import WundercastTestSupport

@testable import WundercastAstronomy

/// The Moon against JPL Horizons (illuminated fraction and altitude every 3 hours) and the US
/// Naval Observatory's one-day rise and set, for Berlin and Sydney on three days of 2026
/// (Tests/Fixtures/moon/jpl_horizons_usno_moon_berlin_sydney_2026_3dates.json).
///
/// Measured: illuminated fraction within 0.0074 (Horizons' is topocentric, libnova's
/// `ln_get_lunar_disk` geocentric: the parallax moves the phase angle by up to 1°), the Moon's
/// airless topocentric altitude within 0.012°, rise and set within 23 s.
@Suite struct MoonReferenceTests {
    struct Reference: Decodable {
        struct Place: Decodable {
            var lat: Double
            var lon: Double
            var dates: [String: Day]
        }
        struct Day: Decodable {
            var horizons: [Sample]
            var usno: [String: String]
        }
        struct Sample: Decodable {
            var utc: String
            var altitude: Double
            var illuminated: Double
        }
        var places: [String: Place]
    }

    static func reference() throws -> Reference {
        try JSONDecoder().decode(
            Reference.self,
            from: Data(try Fixtures.bytes("moon/jpl_horizons_usno_moon_berlin_sydney_2026_3dates.json")))
    }

    /// `2026-Mar-03 06:00` (UTC).
    static func instant(_ text: String) throws -> Date {
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let parts = text.split(whereSeparator: { $0 == "-" || $0 == " " || $0 == ":" }).map(String.init)
        let month = try #require(months.firstIndex(of: parts[1])) + 1
        let date = try #require(CivilDate(year: Int(parts[0]) ?? 0, month: month, day: Int(parts[2]) ?? 0))
        return date.midnight(utcOffset: 0).addingTimeInterval(
            Double((Int(parts[3]) ?? 0) * 3600 + (Int(parts[4]) ?? 0) * 60))
    }

    @Test func illuminatedFractionAndAltitudeAgreeWithHorizons() throws {
        var samples = 0
        for place in try Self.reference().places.values {
            for day in place.dates.values {
                for sample in day.horizons {
                    let time = try Self.instant(sample.utc)
                    let fraction = LibNova.illuminatedFraction(JulianDay.ephemeris(time))
                    #expect(abs(fraction - sample.illuminated) <= 0.01, "\(sample.utc)")
                    let moon = MoonPosition(at: time)
                    // Our limb height less the semidiameter and refraction: the airless topocentric altitude.
                    let semidiameter =
                        asin(MoonPosition.moonRadiusRatio * MoonPosition.earthRadius / moon.distance) * 180 / .pi
                    let altitude =
                        moon.limbHeight(latitude: place.lat, longitude: place.lon, at: time) - semidiameter - 34.0 / 60
                    #expect(abs(altitude - sample.altitude) <= 0.02, "\(sample.utc): \(altitude) vs \(sample.altitude)")
                    samples += 1
                }
            }
        }
        #expect(samples == 48)
    }

    @Test func riseAndSetAgreeWithTheUSNOsOneDayAnswers() throws {
        var events = 0
        for place in try Self.reference().places.values {
            for (date, day) in place.dates {
                let civil = try #require(ZonedTime(text: date + "T00:00:00Z"))
                let sky = MoonAlmanac.events(
                    at: Coordinate(latitude: place.lat, longitude: place.lon), from: civil.instant,
                    to: civil.instant.addingTimeInterval(86400))
                #expect(sky.events.count == day.usno.count, "\(date)")
                for (kind, time) in day.usno {
                    let published = try #require(ZonedTime(text: "\(date)T\(time):00Z")).instant
                    let ours = try #require(sky.events.first { $0.isRise == (kind == "Rise") }, "\(date) \(kind)")
                    #expect(abs(ours.time.timeIntervalSince(published)) <= MoonTableTests.tolerance, "\(date) \(kind)")
                    events += 1
                }
            }
        }
        #expect(events == 12)
    }
}
