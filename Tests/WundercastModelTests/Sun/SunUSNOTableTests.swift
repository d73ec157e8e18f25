import Foundation
import Testing
import WundercastModel
import WundercastTestSupport

/// Sunrise and sunset against the US Naval Observatory's table for Fredonia AZ 2023 (MST all
/// year; Tests/Fixtures/weather/sun), every day: the table's 730 events within a minute.
///
/// Measured: within 33 s. libnova's `ln_get_solar_rst` (Debian 0.16) on the same table was
/// off by 1 min 18 s on average (its J2000 positions against sidereal time of date) and by up
/// to 2 min 6 s, 25 events beyond 2 min; on `SunTableTests`' Sydney 2008 table by up to 84 s, 99
/// of 732 events beyond the minute that test holds: why the Sun stays with our own solar
/// calculation (``Sun``) rather than moving to libnova with the Moon.
@Suite struct SunUSNOTableTests {
    @Test func fredonia2023() throws {
        let days = try USNOYearTable.read(
            "weather/sun/usno_sun_riseset_2023_fredonia_az_W112.52_N36.95_MST_UTC-7.txt", year: 2023)
        #expect(days.count == 365)
        let place = Coordinate(latitude: 36 + 57.0 / 60, longitude: -(112 + 31.0 / 60))
        var events = 0
        var worst = 0.0
        for day in days {
            let sun = Sun.day(at: place, on: day.date, utcOffset: -7 * 3600)
            let midnight = day.date.midnight(utcOffset: -7 * 3600)
            for (published, computed) in [(day.rises.first, sun.sunrise), (day.sets.first, sun.sunset)] {
                let minutes = try #require(published, "\(day.date)")
                let time = try #require(computed, "\(day.date)")
                let difference = time.timeIntervalSince(midnight.addingTimeInterval(Double(minutes * 60)))
                worst = max(worst, abs(difference))
                events += 1
            }
        }
        #expect(events == 730)
        #expect(worst <= 60, "worst \(worst) s")
    }
}
