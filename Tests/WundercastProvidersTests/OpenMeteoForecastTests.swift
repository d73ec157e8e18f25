import Foundation
import Testing
import WundercastModel
import WundercastProviders
import WundercastTestSupport

/// The forecast of recorded Open-Meteo answers (hourly, daily, in local ISO time and in unix
/// time) and of variants built from them here. Expected hours are read from the recording
/// itself with Foundation's own date parsing, not copied from the decoder's output.
@Suite struct OpenMeteoForecastRecordingTests {
    static let bucharest = OpenMeteoRecordings.bucharest
    static let newYork = OpenMeteoRecordings.newYork
    static let zagreb = OpenMeteoRecordings.zagreb
    static let munich = OpenMeteoRecordings.munich
    static let berlin = OpenMeteoRecordings.berlin

    /// A local `yyyy-MM-ddTHH:mm` of a place `offset` seconds east of UTC, as an instant.
    static func instant(_ local: String, offset: Int) throws -> Date {
        let sign = offset < 0 ? "-" : "+"
        let hours = abs(offset) / 3600
        let minutes = abs(offset) % 3600 / 60
        let zone = sign + (hours < 10 ? "0" : "") + "\(hours):" + (minutes < 10 ? "0" : "") + "\(minutes)"
        return try #require(ISO8601DateFormatter().date(from: local + ":00" + zone), "\(local)")
    }

    /// The recording's `hourly` entries after `current.time` (local strings compare in time
    /// order), at most 12: (instant, values of `key`).
    static func expectedHours(_ path: String, _ key: String) throws -> [(Date, Any)] {
        let json = try JSONSerialization.jsonObject(with: Data(Fixtures.bytes(path))) as! [String: Any]
        let offset = json["utc_offset_seconds"] as! Int
        let observed = (json["current"] as! [String: Any])["time"] as! String
        let hourly = json["hourly"] as! [String: Any]
        let times = hourly["time"] as! [String]
        let values = hourly[key] as! [Any]
        return try zip(times, values).filter { $0.0 > observed }.prefix(12).map {
            (try instant($0.0, offset: offset), $0.1)
        }
    }

    static func decode(_ path: String) throws -> (Weather, Forecast) {
        let weather = try OpenMeteoProvider.decode(status: 200, body: Fixtures.bytes(path))
        return (weather, try #require(weather.forecast, "\(path) has a forecast"))
    }

    @Test func bucharestHourlySeriesGustsPressureAndTendency() throws {
        let (weather, forecast) = try Self.decode(Self.bucharest)
        let hours = try #require(forecast.hours)
        let expected = try Self.expectedHours(Self.bucharest, "temperature_2m")
        #expect(hours.count == 12 && expected.count == 12)
        #expect(hours.map(\.time) == expected.map(\.0))
        #expect(hours.map(\.temperature) == expected.map { $0.1 as? Double })
        let first = try #require(hours.first)
        #expect(first.time.timeIntervalSince(try #require(weather.time)) == 45 * 60)  // 22:15 → 23:00 local
        #expect(hours.allSatisfy { $0.weatherCode == 0 && $0.condition == "Clear sky" })
        #expect(first.isDay == false && first.icon == "weather-clear-night")
        #expect(hours.last?.isDay == true && hours.last?.icon == "weather-clear")
        // No precipitation series and no daily block in this recording: left out.
        #expect(hours.allSatisfy { $0.precipitation == nil && $0.precipitationProbability == nil })
        #expect(forecast.today == nil && forecast.tomorrow == nil)
        #expect(forecast.windGusts == 12.2)
        #expect(forecast.seaLevelPressure == 1034.7)
        #expect(forecast.utcOffsetSeconds == 7200)
        #expect(forecast.units == Forecast.Units(temperature: "°C", windGusts: "km/h", seaLevelPressure: "hPa"))
        // 22:00 local 1034.6 hPa, 19:00 local 1033.3 hPa.
        #expect(forecast.pressureTendency == PressureTendency(change: 1.3, source: .hourly))
        #expect(forecast.pressureTendency?.trend == .rising)
    }

    @Test func newYorkDailyHighLowSunriseSunsetInLocalTime() throws {
        let (weather, forecast) = try Self.decode(Self.newYork)
        #expect(try weather.time == Self.instant("2026-02-06T16:30", offset: -18000))
        let hours = try #require(forecast.hours)
        let expected = try Self.expectedHours(Self.newYork, "precipitation")
        #expect(hours.map(\.time) == expected.map(\.0))
        #expect(hours.map(\.precipitation) == expected.map { $0.1 as? Double })
        #expect(hours.last?.precipitation == 0.1)
        #expect(hours.last?.weatherCode == 71 && hours.last?.condition == "Slight snow fall")
        #expect(forecast.units.precipitation == "mm")
        #expect(forecast.units.temperature == "°C")
        #expect(
            forecast.today
                == Forecast.Day(
                    date: "2026-02-06", high: -0.2, low: -9.2, precipitation: 0, weatherCode: 3,
                    sunrise: try Self.instant("2026-02-06T07:00", offset: -18000),
                    sunset: try Self.instant("2026-02-06T17:19", offset: -18000)))
        // The recording's 7 days, all published (the request asks for `Days=`; the answer is kept).
        #expect(forecast.days?.map(\.date).last == "2026-02-12" && forecast.days?.count == 7)
        #expect(forecast.days?[5].precipitation == 2.6 && forecast.days?[5].condition == "Slight snow fall")
        #expect(forecast.timeZone == "America/New_York" && forecast.nauticalTime == nil)
        #expect(forecast.tomorrow?.date == "2026-02-07")
        #expect(forecast.tomorrow?.high == -5.3 && forecast.tomorrow?.low == -17.7)
        #expect(try forecast.tomorrow?.sunrise == Self.instant("2026-02-07T06:59", offset: -18000))
        // Neither gusts nor pressure were asked for in this recording.
        #expect(forecast.windGusts == nil && forecast.seaLevelPressure == nil && forecast.pressureTendency == nil)
    }

    @Test func zagrebPrecipitationProbabilityAndAHighWithoutLow() throws {
        let (_, forecast) = try Self.decode(Self.zagreb)
        let hours = try #require(forecast.hours)
        let expected = try Self.expectedHours(Self.zagreb, "precipitation_probability")
        #expect(hours.count == 12)
        #expect(hours.map(\.time) == expected.map(\.0))
        #expect(hours.map(\.precipitationProbability) == expected.map { $0.1 as? Double })
        #expect(forecast.units.precipitationProbability == "%")
        let today = try #require(forecast.today)
        #expect(today.date == "2026-09-29" && today.high == 25.0 && today.low == nil)
        #expect(try today.sunrise == Self.instant("2026-09-29T06:46", offset: 7200))
        #expect(
            try forecast.tomorrow?.high == 25.6
                && forecast.tomorrow?.sunset == Self.instant("2026-09-30T18:33", offset: 7200))
    }

    @Test func berlinWeatherCodesOnlyAndNoDayValues() throws {
        let (_, forecast) = try Self.decode(Self.berlin)
        let hours = try #require(forecast.hours)
        let expected = try Self.expectedHours(Self.berlin, "weather_code")
        #expect(hours.map(\.weatherCode) == expected.map { $0.1 as? Int })
        #expect(hours.allSatisfy { $0.temperature == nil })
        // `daily` has only weather_code: the days carry it alone, nothing else is invented.
        #expect(forecast.days?.map(\.weatherCode) == [80, 80, 80, 80, 80, 61, 61])
        #expect(forecast.days?.allSatisfy { $0.high == nil && $0.low == nil && $0.sunrise == nil } == true)
        #expect(forecast.units == Forecast.Units())
        #expect(forecast.utcOffsetSeconds == 0)
    }

    /// The legacy `current_weather` block is not read (the daemon asks for `current`): the
    /// answer is refused by name. Its unix-time `hourly`/`daily` decode once `current` is there.
    @Test func munichLegacyBlockIsRefusedAndUnixTimeSeriesDecode() throws {
        #expect(throws: WeatherError.decoding(message: "missing member 'current'")) {
            try OpenMeteoProvider.decode(status: 200, body: Fixtures.bytes(Self.munich))
        }
        let body = try Fixtures.edited(Self.munich) { json in
            let legacy = json["current_weather"] as! [String: Any]
            json["current"] = ["time": legacy["time"]!]
        }
        let forecast = try #require(try OpenMeteoProvider.decode(status: 200, body: body).forecast)
        let hours = try #require(forecast.hours)
        #expect(hours.first?.time == Date(timeIntervalSince1970: 1_770_480_000))
        #expect(hours.map(\.temperature) == [8.2, 7.2, 6.4, 5.5, 5.1, 4.7, 4.9, 4.5, 4.5, 4.5, 4.7, 3.8])
        // Observed 2026-02-07 16:15 CET; daily.time[0] is that day's local midnight (23:00 UTC).
        #expect(
            forecast.today
                == Forecast.Day(
                    date: "2026-02-07", high: 9.5, low: 4.7, sunrise: Date(timeIntervalSince1970: 1_770_445_978),
                    sunset: Date(timeIntervalSince1970: 1_770_481_348)))
        #expect(forecast.tomorrow?.date == "2026-02-08" && forecast.tomorrow?.high == 6.8)
        #expect(Forecast.clockReading(try #require(forecast.today?.sunrise), utcOffsetSeconds: 3600) == (7, 32))
    }
}
