import Foundation
import Testing
import WundercastModel
import WundercastProviders
import WundercastTestSupport

/// `weather.forecast.days` from recorded real answers: Open-Meteo's `daily` block, MET Norway's
/// series and OpenWeatherMap's 5-day list aggregated per local day of the place.
@Suite struct DaysDecodingTests {
    static let enschede = "weather/open-meteo/daily_enschede_2026-10.trimmed.json"
    static let pacific = "weather/open-meteo/daily_pacific_at_sea_etc_gmt+9_nulls.json"
    static let capeTown = "weather/openweathermap/forecast5_capetown_2023-09_city_timezone.json"
    static let oslo = "weather/metno/compact_oslo_snow.json"

    static let zones = ZoneInfoDatabase { path, limit in [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) }

    /// The recorded daily block of Enschede (its `current` was trimmed upstream): the test adds
    /// `current.time`, 2026-10-03 10:00 local (08:00 UTC), to count the days from.
    @Test func openMeteoDailyEnschede() throws {
        let body = try Fixtures.edited(Self.enschede) { $0["current"] = ["time": "2026-10-03T10:00"] }
        let weather = try OpenMeteoProvider.decode(status: 200, body: body)
        let forecast = try #require(weather.forecast)
        let days = try #require(forecast.days)
        #expect(days.map(\.date) == ["2026-10-03", "2026-10-04", "2026-10-05"])
        let first = days[0]
        #expect(first.high == 20.6 && first.low == 8.4 && first.precipitation == 0)
        #expect(first.precipitationProbability == 0 && first.windSpeed == 9 && first.windDirection == 178)
        #expect(first.weatherCode == 3 && first.condition == "Overcast" && first.icon == "weather-overcast")
        #expect(first.sunrise == (try Date("2026-10-03T05:36:00Z", strategy: .iso8601)))
        #expect(first.sunset == (try Date("2026-10-03T17:05:00Z", strategy: .iso8601)))
        #expect(first.aggregated == nil && first.partial == nil, "Open-Meteo gives whole days")
        #expect(days[1].weatherCode == 45 && days[1].windDirection == 347 && days[1].precipitationProbability == 8)
        #expect(forecast.timeZone == "Europe/Amsterdam" && forecast.nauticalTime == nil)
        #expect(
            forecast.units
                == Forecast.Units(
                    temperature: "°C", precipitation: "mm", precipitationProbability: "%", windSpeed: "km/h"))
        // In the state: `days`, and `today`/`tomorrow` derived from it for older readers.
        let json = String(decoding: try JSONEncoder().encode(forecast), as: UTF8.self)
        #expect(json.contains(#""days":[{"#) && json.contains(#""today":{"#) && json.contains(#""tomorrow":{"#))
        let back = try JSONDecoder().decode(Forecast.self, from: Data(json.utf8))
        #expect(back.days == days && back.timeZone == "Europe/Amsterdam")
    }

    /// At sea Open-Meteo's `timezone=auto` is the nautical zone (`Etc/GMT+9`), marked as such;
    /// days whose values are all `null` give no day. The test adds `current` (a time and the
    /// pressure) so that the forecast is not empty.
    @Test func openMeteoAtSeaNauticalZoneAndNullDays() throws {
        let body = try Fixtures.edited(Self.pacific) {
            $0["current"] = ["time": "2022-12-29T12:00", "pressure_msl": 1012.5]
        }
        let forecast = try #require(try OpenMeteoProvider.decode(status: 200, body: body).forecast)
        #expect(forecast.timeZone == "Etc/GMT+9" && forecast.nauticalTime == true)
        #expect(forecast.utcOffsetSeconds == -32400)
        #expect(forecast.days == nil, "every daily value is null: no day is invented")
    }

    /// Cape Town's 5-day list (UTC+2 by `city.timezone`), observed 2023-09-25 16:00 local: today
    /// from then on (partial), then four whole days; the 30th, which the list does not reach
    /// to within 6 hours of its end, is left out.
    @Test func openWeatherMapCapeTownFiveDays() throws {
        let body = try Fixtures.bytes(Self.capeTown)
        let list = try OpenWeatherMapForecastList(
            HTTPResponse(status: 200, headers: [:], body: body), asked: .standard, units: .metric)
        #expect(list.clock.utcOffsetSeconds == 7200)
        let current = try OpenWeatherMapCurrent(
            HTTPResponse(
                status: 200, headers: [:],
                body: try Fixtures.edited(OpenWeatherMapVariants.weatherPath) {
                    $0["dt"] = 1_695_650_400  // 2023-09-25T14:00:00Z
                    $0["timezone"] = 7200
                }),
            asked: .standard, units: .metric)
        let weather = OpenWeatherMapProvider.weather(current: current, forecast: list, days: 7)
        let days = try #require(weather.forecast?.days)
        #expect(days.map(\.date) == ["2023-09-25", "2023-09-26", "2023-09-27", "2023-09-28", "2023-09-29"])
        #expect(days[0].partial == true && days.dropFirst().allSatisfy { $0.partial == nil })
        #expect(days.allSatisfy { $0.aggregated == true })
        // The 26th local is 2023-09-25T22:00Z ..< 09-26T22:00Z: the steps 00:00Z … 21:00Z of the 26th.
        let json = try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])
        let entries = try #require(json["list"] as? [[String: Any]])
        let start = 1_695_679_200.0  // 2023-09-25T22:00:00Z
        let inDay = entries.filter {
            let dt = ($0["dt"] as! NSNumber).doubleValue
            return dt >= start && dt < start + 86_400
        }
        #expect(inDay.count == 8)
        let celsius = inDay.map { (($0["main"] as! [String: Any])["temp"] as! NSNumber).doubleValue - 273.15 }
        #expect(abs(days[1].high! - celsius.max()!) < 0.01 && abs(days[1].low! - celsius.min()!) < 0.01)
        // A step's `pop` and `rain.3h` are of the 3 hours before it: a period belongs to the day it
        // starts in, so the 26th has the steps 03:00Z of the 26th … 00:00Z of the 27th.
        let periods = entries.filter {
            let dt = ($0["dt"] as! NSNumber).doubleValue - 3 * 3600
            return dt >= start && dt < start + 86_400
        }
        let pops = periods.map { ($0["pop"] as! NSNumber).doubleValue * 100 }
        #expect(abs(days[1].precipitationProbability! - pops.max()!) < 0.01)
        #expect(days[1].windSpeed != nil && days[1].windDirection != nil && days[1].condition != nil)
        #expect(weather.forecast?.units.windSpeed == "km/h")
    }

    /// MET Norway's Oslo answer moved by 259 whole days, so that its series (hourly, then
    /// 6-hourly, as recorded) starts 2026-10-23T21:00Z and runs over the end of summer time
    /// (2026-10-25 01:00 UTC in Europe/Oslo). The values are the recorded ones; only the
    /// times are moved — no recorded answer across a DST change was found.
    @Test func metNorwayAcrossTheEndOfSummerTime() throws {
        let shift = 259 * 86_400.0
        var shiftedTimes: [(Date, Double)] = []
        let body = try Fixtures.edited(Self.oslo) { json in
            var properties = json["properties"] as! [String: Any]
            var series = properties["timeseries"] as! [[String: Any]]
            for index in series.indices {
                let time = try! Date(series[index]["time"] as! String, strategy: .iso8601).addingTimeInterval(shift)
                series[index]["time"] = time.formatted(.iso8601)
                let data = series[index]["data"] as! [String: Any]
                let details = (data["instant"] as! [String: Any])["details"] as! [String: Any]
                shiftedTimes.append((time, (details["air_temperature"] as! NSNumber).doubleValue))
            }
            properties["timeseries"] = series
            json["properties"] = properties
        }
        let oslo = try Self.zones.zone(named: "Europe/Oslo")
        let weather = try MetNorwayProvider.decode(
            status: 200, body: body, at: Coordinate(latitude: 59.9139, longitude: 10.7522),
            utcOffset: { oslo.offset(at: $0).utcOffset }, days: 5)
        let days = try #require(weather.forecast?.days)
        #expect(days.map(\.date) == ["2026-10-23", "2026-10-24", "2026-10-25", "2026-10-26", "2026-10-27"])
        // Oslo's local days (UTC+2 until 2026-10-25 01:00 UTC, then UTC+1): the 24th from
        // 23T22:00Z, the 25th from 24T22:00Z (25 hours), the 26th from 25T23:00Z, …
        func temperatures(_ from: String, hours: Double) throws -> [Double] {
            let start = try Date(from, strategy: .iso8601)
            return shiftedTimes.filter { $0.0 >= start && $0.0 < start.addingTimeInterval(hours * 3600) }.map(\.1)
        }
        let local = [
            try temperatures("2026-10-23T22:00:00Z", hours: 24), try temperatures("2026-10-24T22:00:00Z", hours: 25),
            try temperatures("2026-10-25T23:00:00Z", hours: 24), try temperatures("2026-10-26T23:00:00Z", hours: 24),
        ]
        let utc = try ["2026-10-24", "2026-10-25", "2026-10-26", "2026-10-27"].map {
            try temperatures($0 + "T00:00:00Z", hours: 24)
        }
        #expect(local[1].count == 25)
        for (day, values) in zip(days.dropFirst(), local) {
            #expect(day.high == values.max() && day.low == values.min(), "\(day.date)")
        }
        #expect(
            zip(local, utc).contains { $0.max() != $1.max() || $0.min() != $1.min() },
            "the test tells the zone's days from UTC's")
        #expect(days[0].partial == true && days[2].partial == nil && days[2].aggregated == true)
        // Sunrise on the 25th is in winter time: about 07:10 local, 06:10 UTC.
        let sunrise = try #require(days[2].sunrise)
        #expect(Forecast.clockReading(sunrise, utcOffsetSeconds: 3600).hour == 7)
    }
}
