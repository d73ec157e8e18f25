import Foundation
import Testing
import WundercastModel
import WundercastProviders
import WundercastTestSupport

/// Every recorded MET Norway answer in `Tests/Fixtures/weather/metno/`, decoded and compared
/// with the same answer read here with `JSONSerialization`: the first step is the current
/// weather, the twelve after it the hours, the place's local days give today and tomorrow.
@Suite struct MetNorwayRecordingTests {
    /// A recording, the place's UTC offset in its season, and its coordinate (`geometry`).
    struct Recording: Sendable, CustomTestStringConvertible {
        var file: String
        var utcOffset: Int
        var testDescription: String { file }
    }

    static let newYork = "weather/metno/compact_newyork.wrapped.json"
    static let recordings = [
        Recording(file: newYork, utcOffset: -4 * 3600),  // EDT
        Recording(file: "weather/metno/compact_beijing.wrapped.json", utcOffset: 8 * 3600),
        Recording(file: "weather/metno/complete_london.wrapped.json", utcOffset: 3600),  // BST
        Recording(file: "weather/metno/compact_oslo_snow.json", utcOffset: 3600),  // CET
    ]

    /// The body of a recording (`data` of a `.wrapped.json`), changed by `edit`.
    static func body(_ file: String, _ edit: (inout [String: Any]) -> Void = { _ in }) throws -> [UInt8] {
        var json = try #require(try JSONSerialization.jsonObject(with: Data(Fixtures.bytes(file))) as? [String: Any])
        if file.hasSuffix(".wrapped.json") { json = try #require(json["data"] as? [String: Any]) }
        edit(&json)
        return [UInt8](try JSONSerialization.data(withJSONObject: json))
    }

    /// The steps of a body, read without the decoder under test.
    static func steps(_ body: [UInt8]) throws -> [[String: Any]] {
        let json = try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])
        return try #require((json["properties"] as? [String: Any])?["timeseries"] as? [[String: Any]])
    }

    static func coordinate(_ body: [UInt8]) throws -> Coordinate {
        let json = try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])
        let point = try #require((json["geometry"] as? [String: Any])?["coordinates"] as? [Double])
        return Coordinate(latitude: point[1], longitude: point[0])
    }

    static func time(_ step: [String: Any]) throws -> Date {
        let text = try #require(step["time"] as? String)
        return try Date(text, strategy: .iso8601)
    }

    static func instant(_ step: [String: Any], _ key: String) -> Double? {
        (((step["data"] as? [String: Any])?["instant"] as? [String: Any])?["details"] as? [String: Any])?[key]
            as? Double
    }

    static func block(_ step: [String: Any], _ name: String) -> [String: Any]? {
        (step["data"] as? [String: Any])?[name] as? [String: Any]
    }

    static func decode(_ recording: Recording, units: UnitSystem = .metric) throws -> (Weather, [UInt8]) {
        let body = try body(recording.file)
        let weather = try MetNorwayProvider.decode(
            status: 200, body: body, at: try coordinate(body), requested: units, utcOffset: { _ in recording.utcOffset }
        )
        return (weather, body)
    }

    @Test(arguments: recordings) func theFirstStepIsTheCurrentWeather(_ recording: Recording) throws {
        let (weather, body) = try Self.decode(recording)
        let first = try #require(try Self.steps(body).first)
        #expect(weather.time == (try Self.time(first)))
        #expect(weather.temperature == Self.instant(first, "air_temperature"))
        #expect(weather.relativeHumidity == Self.instant(first, "relative_humidity"))
        #expect(weather.windDirection == Self.instant(first, "wind_from_direction"))
        let metresPerSecond = try #require(Self.instant(first, "wind_speed"))
        #expect(abs(try #require(weather.windSpeed) - metresPerSecond * 3.6) < 0.006)
        #expect(weather.units == WeatherUnits(temperature: "°C", windSpeed: "km/h"))
        let symbol = (Self.block(first, "next_1_hours")?["summary"] as? [String: Any])?["symbol_code"] as? String
        #expect(weather.symbolCode == symbol && symbol != nil)
        #expect(weather.condition == WeatherCondition(metNorwaySymbolCode: symbol).kind.name)
        #expect(weather.weatherCode == nil && weather.apparentTemperature == nil)
        let forecast = try #require(weather.forecast)
        #expect(forecast.seaLevelPressure == Self.instant(first, "air_pressure_at_sea_level"))
        #expect(forecast.units.seaLevelPressure == "hPa")
        #expect(forecast.windGusts == nil, "the recordings have no gusts")
        // The series starts at the observation: no value 3 h before it for a tendency.
        #expect(forecast.pressureTendency == nil)
    }

    @Test(arguments: recordings) func theTwelveHoursAfterTheFirstStep(_ recording: Recording) throws {
        let (weather, body) = try Self.decode(recording)
        let steps = try Self.steps(body)
        let observed = try Self.time(steps[0])
        let hours = try #require(weather.forecast?.hours)
        #expect(hours.map(\.time) == (1...12).map { observed.addingTimeInterval(Double($0) * 3600) })
        for (index, hour) in hours.enumerated() {
            let step = steps[index + 1]
            #expect(hour.temperature == Self.instant(step, "air_temperature"))
            // The amount of the hour before: the previous step's next_1_hours.
            let before = Self.block(steps[index], "next_1_hours")?["details"] as? [String: Any]
            #expect(hour.precipitation == before?["precipitation_amount"] as? Double)
            #expect(hour.precipitationProbability == nil, "compact sends no probability")
            let symbol = (Self.block(step, "next_1_hours")?["summary"] as? [String: Any])?["symbol_code"] as? String
            #expect(hour.symbolCode == symbol)
            if let isDay = MetNorwaySymbol(code: symbol).isDay { #expect(hour.isDay == isDay) }
        }
        #expect(weather.forecast?.units.temperature == "°C" && weather.forecast?.units.precipitation == "mm")
        #expect(weather.forecast?.units.precipitationProbability == nil)
    }

    @Test(arguments: recordings) func todayAndTomorrowAreThePlacesLocalDays(_ recording: Recording) throws {
        let (weather, body) = try Self.decode(recording)
        let steps = try Self.steps(body)
        let observed = try Self.time(steps[0])
        var byDay: [Int: [Double]] = [:]
        for step in steps {
            let day = Int(((try Self.time(step)).timeIntervalSince1970 + Double(recording.utcOffset)) / 86_400)
            if let t = Self.instant(step, "air_temperature") { byDay[day, default: []].append(t) }
        }
        let today = Int((observed.timeIntervalSince1970 + Double(recording.utcOffset)) / 86_400)
        let forecast = try #require(weather.forecast)
        #expect(forecast.utcOffsetSeconds == recording.utcOffset)
        for (day, number) in [(forecast.today, today), (forecast.tomorrow, today + 1)] {
            let day = try #require(day)
            #expect(day.date == Forecast.dateText(day: number))
            #expect(day.high == byDay[number]?.max() && day.low == byDay[number]?.min())
            // Computed by the daemon, inside the local day or the night after it.
            let start = Date(timeIntervalSince1970: Double(number * 86_400 - recording.utcOffset))
            let sunrise = try #require(day.sunrise)
            let sunset = try #require(day.sunset)
            #expect(sunrise > start && sunrise < sunset && sunset < start.addingTimeInterval(30 * 3600))
        }
    }

    /// Published for New York City on 20 July 2020 (US Naval Observatory): sunrise 05:42 EDT,
    /// sunset 20:23 EDT; the computed times agree within the tables' minute.
    @Test func newYorkInDetail() throws {
        let (weather, _) = try Self.decode(Self.recordings[0])
        #expect(weather.temperature == 26.5 && weather.windSpeed == 13.68)
        #expect(weather.symbolCode == "partlycloudy_day" && weather.isDay == true)
        #expect(weather.condition == "Partly cloudy" && weather.icon == "weather-few-clouds")
        let today = try #require(weather.forecast?.today)
        #expect(today.date == "2020-07-20" && today.high == 36 && today.low == 26.5)
        let sunrise = try #require(today.sunrise).timeIntervalSince1970
        let sunset = try #require(today.sunset).timeIntervalSince1970
        #expect(abs(sunrise - 1_595_238_120) < 90)  // 2020-07-20T09:42:00Z
        #expect(abs(sunset - 1_595_290_980) < 90)  // 2020-07-21T00:23:00Z
    }

    @Test func imperialConvertsFromTheUnitsOfTheAnswer() throws {
        let (weather, _) = try Self.decode(Self.recordings[0], units: .imperial)
        #expect(weather.units == WeatherUnits(temperature: "°F", windSpeed: "mph"))
        #expect(weather.temperature == 79.7)  // 26.5 °C
        #expect(weather.windSpeed == 8.5)  // 3.8 m/s
        #expect(weather.forecast?.today?.high == 96.8)  // 36.0 °C
        #expect(weather.forecast?.units.temperature == "°F")
        #expect(weather.forecast?.units.precipitation == "mm" && weather.forecast?.units.seaLevelPressure == "hPa")
    }

    /// A symbol without a day/night suffix (`snow`): day or night comes from the sun at the place.
    @Test func osloAtNightInSnow() throws {
        let (weather, _) = try Self.decode(Self.recordings[3])
        #expect(weather.symbolCode == "snow" && weather.condition == "Snow" && weather.icon == "weather-snow")
        #expect(weather.isDay == false)  // 21:00 UTC, 22:00 in Oslo in February
        #expect(weather.temperature == -5.8)
        #expect(weather.forecast?.hours?.first?.precipitation == 0.5)
    }

    @Test func theNearestPeriodBlockGivesTheSymbol() throws {
        // Beijing's first step: next_1_hours clearsky_day, next_6_hours partlycloudy_night, next_12_hours cloudy.
        let (weather, _) = try Self.decode(Self.recordings[1])
        #expect(weather.symbolCode == "clearsky_day" && weather.isDay == true)
    }
}
