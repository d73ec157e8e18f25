import Foundation
import Testing
import WundercastModel
import WundercastProviders
import WundercastFormats
import WundercastTestSupport

/// Variants of the recorded New York answer, built here: missing and `null` blocks and values,
/// an empty series, the API's misspelled and unknown symbols, other units, wrong types, a
/// series too short for tomorrow, no known time zone.
@Suite struct MetNorwayVariantTests {
    static let newYork = MetNorwayRecordingTests.newYork
    static let place = Coordinate(latitude: 40.7, longitude: -74)
    static let edt = -4 * 3600

    static func decode(
        _ body: [UInt8], units: UnitSystem = .metric, utcOffset: Int? = edt
    ) throws(WeatherError) -> Weather {
        try MetNorwayProvider.decode(
            status: 200, body: body, at: place, requested: units, utcOffset: { _ in utcOffset })
    }

    /// The New York body with its steps changed by `edit`.
    static func steps(_ edit: @escaping (inout [[String: Any]]) -> Void) throws -> [UInt8] {
        try MetNorwayRecordingTests.body(newYork) { json in
            var properties = json["properties"] as! [String: Any]
            var steps = properties["timeseries"] as! [[String: Any]]
            edit(&steps)
            properties["timeseries"] = steps
            json["properties"] = properties
        }
    }

    /// The New York body with member `path` (e.g. `["data", "next_1_hours"]`) of the first step set to `value`
    /// (`nil` removes it).
    static func firstStep(_ path: [String], _ value: Any?) throws -> [UInt8] {
        try steps { steps in steps[0] = setting(steps[0], path[...], value) }
    }

    static func setting(_ object: [String: Any], _ path: ArraySlice<String>, _ value: Any?) -> [String: Any] {
        var object = object
        guard let key = path.first else { return object }
        if path.count == 1 {
            object[key] = value
        } else {
            object[key] = setting(object[key] as? [String: Any] ?? [:], path.dropFirst(), value)
        }
        return object
    }

    static func decodingError(_ body: [UInt8]) -> String? {
        do {
            _ = try decode(body)
            return nil
        } catch {
            if case .decoding(let message) = error { return message }
            return "\(error)"
        }
    }

    @Test func withoutNextHourTheSixHourSymbolThenTheTwelveHourOne() throws {
        var body = try Self.steps { steps in
            steps[0] = Self.setting(steps[0], ["data", "next_1_hours"], nil)
            steps[0] = Self.setting(steps[0], ["data", "next_6_hours", "summary", "symbol_code"], "rain")
        }
        #expect(try Self.decode(body).symbolCode == "rain")
        body = try Self.steps { steps in
            steps[0] = Self.setting(steps[0], ["data", "next_1_hours"], NSNull())
            steps[0] = Self.setting(steps[0], ["data", "next_6_hours", "summary"], NSNull())
            steps[0] = Self.setting(steps[0], ["data", "next_12_hours", "summary", "symbol_code"], "fog")
            steps[0] = Self.setting(steps[0], ["data", "next_12_hours", "details"], [String: Any]())
        }
        let weather = try Self.decode(body)
        #expect(weather.symbolCode == "fog" && weather.condition == "Fog")
    }

    @Test func withoutAnyPeriodBlockThereIsNoConditionAndTheSunSaysDayOrNight() throws {
        let body = try Self.steps { steps in
            for block in ["next_1_hours", "next_6_hours", "next_12_hours"] {
                steps[0] = Self.setting(steps[0], ["data", block], nil)
            }
        }
        let weather = try Self.decode(body)
        #expect(weather.symbolCode == nil && weather.condition == nil && weather.icon == nil)
        #expect(weather.conditionModel.kind == .unknown)
        let time = try #require(weather.time)
        #expect(weather.isDay == Sun.isDay(at: Self.place, time: time))
        #expect(weather.isDay == true)  // 07:00 in New York in July
        #expect(weather.temperature == 26.5)
    }

    @Test func anEmptySeriesOrNoSeriesIsADecodingError() throws {
        let empty = try Self.steps { $0 = [] }
        #expect(Self.decodingError(empty)?.contains("properties.timeseries has no steps") == true)
        let missing = try MetNorwayRecordingTests.body(Self.newYork) { $0["properties"] = [String: Any]() }
        #expect(Self.decodingError(missing) == "missing member 'properties.timeseries'")
        let noProperties = try MetNorwayRecordingTests.body(Self.newYork) { $0["properties"] = nil }
        #expect(Self.decodingError(noProperties) == "missing member 'properties'")
        let onlyNullTimes = try Self.steps { steps in steps = [Self.setting(steps[0], ["time"], NSNull())] }
        #expect(Self.decodingError(onlyNullTimes)?.contains("no steps") == true)
    }

    @Test func nullValuesAreLeftOut() throws {
        let body = try Self.steps { steps in
            steps[0] = Self.setting(steps[0], ["data", "instant", "details", "air_temperature"], NSNull())
            steps[0] = Self.setting(steps[0], ["data", "instant", "details", "air_pressure_at_sea_level"], NSNull())
            steps[1] = Self.setting(steps[1], ["data", "instant", "details", "air_temperature"], NSNull())
            steps[1] = Self.setting(steps[1], ["data", "next_1_hours", "details", "precipitation_amount"], NSNull())
            steps[2] = Self.setting(steps[2], ["time"], NSNull())
        }
        let weather = try Self.decode(body)
        #expect(weather.temperature == nil && weather.relativeHumidity == 81.3)
        #expect(weather.forecast?.seaLevelPressure == nil)
        let hours = try #require(weather.forecast?.hours)
        #expect(hours.count == 11, "the step whose time is null is skipped")
        #expect(hours[0].temperature == nil && hours[0].precipitation == 0)
        #expect(hours[1].precipitation == nil, "the hour after a null amount")
        let json = String(decoding: try JSONEncoder().encode(weather), as: UTF8.self)
        #expect(!json.contains("null"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(object["temperature"] == nil && object["relativeHumidity"] as? Double == 81.3)
    }

    /// The API's two misspellings read as the correct codes; with or without a suffix.
    @Test(arguments: [
        "lightssleetshowersandthunder", "lightssnowshowersandthunder", "lightssleetshowersandthunder_day",
        "lightssnowshowersandthunder_night", "lightsleetshowersandthunder_polartwilight",
    ])
    func misspelledCodesAreThunderstorms(_ code: String) throws {
        let weather = try Self.decode(try Self.firstStep(["data", "next_1_hours", "summary", "symbol_code"], code))
        #expect(weather.symbolCode == code)
        #expect(weather.conditionModel == WeatherCondition(kind: .thunderstorm, isSevere: true))
        #expect(weather.condition == "Thunderstorm" && weather.icon == "weather-storm")
        #expect(weather.isDay == (MetNorwaySymbol(code: code).isDay ?? true))
    }

    @Test(arguments: ["meteorshower_day", "rain_dusk", "x" + String(repeating: "y", count: 100)])
    func unknownSymbolsGiveAnUnknownConditionNotAnError(_ code: String) throws {
        let weather = try Self.decode(try Self.firstStep(["data", "next_1_hours", "summary", "symbol_code"], code))
        #expect(weather.conditionModel.kind == .unknown)
        #expect(weather.condition == nil && weather.icon == nil)
        #expect(weather.symbolCode == (code.count > 64 ? String(code.prefix(63)) + "…" : code))
        var state = WeatherState(status: .fresh, provider: "metno")
        state.weather = weather
        let item = BarItem(state: state, now: Date(timeIntervalSince1970: 1_595_243_000))
        #expect(item.alt == "unknown" && item.hasWeather)
    }

    @Test func anEmptySymbolCountsAsNone() throws {
        let weather = try Self.decode(try Self.firstStep(["data", "next_1_hours", "summary", "symbol_code"], " "))
        #expect(weather.symbolCode == "partlycloudy_day", "from next_6_hours")
    }

    @Test func controlCharactersInASymbolAreRemoved() throws {
        let weather = try Self.decode(
            try Self.firstStep(["data", "next_1_hours", "summary", "symbol_code"], "rain\u{1B}[2J\n_day"))
        let code = try #require(weather.symbolCode)
        #expect(!code.unicodeScalars.contains { $0.value < 0x20 })
    }

    @Test func wrongTypesAreDecodingErrorsNamingTheMember() throws {
        let first = "properties.timeseries[0]"
        let cases: [([String], Any, String)] = [
            (
                ["data", "instant", "details", "air_temperature"], "hot",
                "\(first).data.instant.details.air_temperature"
            ),
            (["data", "next_1_hours", "summary", "symbol_code"], 5, "\(first).data.next_1_hours.summary.symbol_code"),
            (["data", "next_6_hours"], [1, 2], "\(first).data.next_6_hours"),
            (["time"], "yesterday", "\(first).time"),
            (["time"], 1_595_242_800, "\(first).time"),
        ]
        for (path, value, member) in cases {
            let message = Self.decodingError(try Self.firstStep(path, value))
            #expect(message?.hasPrefix(member + " is ") == true, "\(path): \(message ?? "no error")")
        }
        let units = try MetNorwayRecordingTests.body(Self.newYork) { json in
            json["properties"] = Self.setting(json["properties"] as! [String: Any], ["meta", "units"], "SI")
        }
        #expect(Self.decodingError(units) == "properties.meta.units is a string, expected an object")
    }

    @Test func aBodyThatIsNotJSONAndStatuses() throws {
        let html = Array("<html><body>Service Unavailable</body></html>".utf8)
        #expect(throws: WeatherError.notJSON(status: 200, bytes: html.count, contentType: "text/html")) {
            try MetNorwayProvider.decode(status: 200, body: html, at: Self.place, contentType: "text/html")
        }
        #expect(throws: WeatherError.http(status: 500, reason: nil, retryAfter: nil)) {
            try MetNorwayProvider.decode(status: 500, body: html, at: Self.place)
        }
        let body = try MetNorwayRecordingTests.body(Self.newYork)
        let deprecated = try MetNorwayProvider.decode(status: 203, body: body, at: Self.place)
        #expect(deprecated == (try MetNorwayProvider.decode(status: 200, body: body, at: Self.place)))
    }

    /// Units come from `meta.units`, whatever they are; an unknown one is kept with its label.
    @Test func theAnswersUnitsDriveTheConversion() throws {
        let body = try MetNorwayRecordingTests.body(Self.newYork) { json in
            var properties = json["properties"] as! [String: Any]
            properties = Self.setting(properties, ["meta", "units", "air_temperature"], "fahrenheit")
            properties = Self.setting(properties, ["meta", "units", "wind_speed"], "kn")
            properties = Self.setting(properties, ["meta", "units", "relative_humidity"], "furlongs\u{7}")
            json["properties"] = properties
        }
        let metric = try Self.decode(body)
        #expect(metric.temperature == -3.06)  // 26.5 °F
        #expect(metric.windSpeed == 7.04)  // 3.8 kn
        #expect(metric.units.relativeHumidity == "furlongs" && metric.relativeHumidity == 81.3)
        let imperial = try Self.decode(body, units: .imperial)
        #expect(imperial.temperature == 26.5 && imperial.units.temperature == "°F")
        #expect(imperial.windSpeed == 4.37)  // 3.8 kn in mph
        let withoutUnits = try MetNorwayRecordingTests.body(Self.newYork) { json in
            json["properties"] = Self.setting(json["properties"] as! [String: Any], ["meta"], nil)
        }
        #expect(try Self.decode(withoutUnits) == (try Self.decode(MetNorwayRecordingTests.body(Self.newYork))))
    }

    @Test func gustsWhenPresentInTheUnitOfTheWind() throws {
        let weather = try Self.decode(
            try Self.firstStep(["data", "instant", "details", "wind_speed_of_gust"], 10.5), units: .imperial)
        #expect(weather.forecast?.windGusts == 23.49)  // 10.5 m/s
        #expect(weather.forecast?.units.windGusts == "mph")
    }

    @Test func minusZeroIsZero() throws {
        var text = String(
            decoding: try Self.firstStep(["data", "instant", "details", "air_temperature"], 12345.5), as: UTF8.self)
        text = text.replacingOccurrences(of: "12345.5", with: "-0")
        let weather = try Self.decode(Array(text.utf8))
        #expect(weather.temperature == 0 && weather.temperature?.sign == .plus)
    }

    /// Without the place's time zone (far from any city) the days follow the nautical zone of
    /// the longitude (74° W: UTC−5), marked as such.
    @Test func withoutATimeZoneTheDaysFollowTheNauticalZone() throws {
        let weather = try Self.decode(try MetNorwayRecordingTests.body(Self.newYork), utcOffset: nil)
        let forecast = try #require(weather.forecast)
        #expect(forecast.nauticalTime == true && forecast.utcOffsetSeconds == -18000)
        #expect(forecast.days?.map(\.date) == ["2020-07-20", "2020-07-21", "2020-07-22"])
        #expect(forecast.hours?.count == 12)
    }

    /// A series that ends early: tomorrow, which it does not reach to within 6 hours of its
    /// end, is not published at all (no high or low of a part of it).
    @Test func aSeriesTooShortForTomorrow() throws {
        let weather = try Self.decode(try Self.steps { $0 = Array($0.prefix(20)) })
        #expect(weather.forecast?.today?.high == 36)
        #expect(weather.forecast?.today?.partial == true)
        #expect(weather.forecast?.tomorrow == nil && weather.forecast?.days?.count == 1)
    }

    @Test func stepsInAnyOrder() throws {
        let body = try MetNorwayRecordingTests.body(Self.newYork)
        #expect(try Self.decode(Self.steps { $0.reverse() }) == (try Self.decode(body)))
    }

    /// A step dated 1999 (a clock never set) is dropped, not taken as the earliest, the current
    /// weather; a step given twice counts once (the hours and the days are the recording's).
    @Test func aStepOutsideTheCenturyOrRepeatedIsIgnored() throws {
        let body = try MetNorwayRecordingTests.body(Self.newYork)
        let stray = try Self.steps { steps in
            var old = steps[5]
            old["time"] = "1999-12-31T12:00:00Z"
            steps.insert(old, at: 3)
            steps += steps.prefix(4)
        }
        #expect(try Self.decode(stray) == (try Self.decode(body)))
    }
}
