import Foundation
import Testing
import WundercastModel
import WundercastProviders
import WundercastTestSupport

/// Recorded Open-Meteo responses (Tests/Fixtures/weather/open-meteo) and variants built by
/// editing their parsed JSON here; the fixture files themselves are never changed.
@Suite struct OpenMeteoDecodeTests {
    static let metric = "weather/open-meteo/current_bucharest_metric.json"
    static let imperial = "weather/open-meteo/current_bucharest_fahrenheit_mph.json"
    /// `current.time` "2026-01-16T22:15" in Bucharest (`utc_offset_seconds` 7200) is 20:15 UTC.
    static let observed = Date(timeIntervalSince1970: 1_768_594_500)

    @Test func metricRecording() throws {
        let weather = try OpenMeteoProvider.decode(status: 200, body: Fixtures.bytes(Self.metric))
        #expect(weather.temperature == -5.3)
        #expect(weather.apparentTemperature == -9.2)
        #expect(weather.relativeHumidity == 72)
        #expect(weather.windSpeed == 4.7)
        #expect(weather.windDirection == 81)
        #expect(weather.weatherCode == 0)
        #expect(weather.condition == "Clear sky")
        #expect(weather.isDay == false)
        #expect(weather.icon == "weather-clear-night")
        #expect(weather.time == Self.observed)
        #expect(
            weather.units
                == WeatherUnits(temperature: "°C", windSpeed: "km/h", windDirection: "°", relativeHumidity: "%"))
    }

    @Test func fahrenheitAndMilesPerHourRecording() throws {
        let weather = try OpenMeteoProvider.decode(
            status: 200, body: Fixtures.bytes(Self.imperial), requested: .imperial)
        #expect(weather.temperature == 22.5)
        #expect(weather.apparentTemperature == 15.5)
        #expect(weather.relativeHumidity == 72)
        #expect(weather.windSpeed == 2.9)
        #expect(weather.windDirection == 81)
        #expect(weather.weatherCode == 0)
        #expect(weather.isDay == false)
        #expect(weather.time == Self.observed)
        // The recording spells it "mp/h".
        #expect(weather.units == WeatherUnits(temperature: "°F", windSpeed: "mph"))
    }

    @Test func unitsComeFromTheBodyNotTheRequest() throws {
        // Asked for imperial, got metric: the labels in `current_units` say what the values are,
        // and they are converted from there.
        let weather = try OpenMeteoProvider.decode(status: 200, body: Fixtures.bytes(Self.metric), requested: .imperial)
        #expect(weather.units.temperature == "°F")
        #expect(weather.units.windSpeed == "mph")
        #expect(weather.temperature == 22.46)  // -5.3 °C
        #expect(weather.windSpeed == 2.9204)  // 4.7 km/h
        // The same request recorded in imperial agrees within the two recordings' precision
        // (each value rounded to 0.1 in its own unit: ±0.05 °C is ±0.09 °F, ±0.05 km/h ±0.03 mph).
        let recorded = try OpenMeteoProvider.decode(
            status: 200, body: Fixtures.bytes(Self.imperial), requested: .imperial)
        for (converted, real, tolerance) in [
            (weather.temperature, recorded.temperature, 0.09 + 0.05),
            (weather.apparentTemperature, recorded.apparentTemperature, 0.09 + 0.05),
            (weather.windSpeed, recorded.windSpeed, 0.03 + 0.05),
        ] {
            #expect(abs(try #require(converted) - (try #require(real))) <= tolerance)
        }
    }

    @Test func error400Recording() throws {
        let body = try Fixtures.bytes("weather/open-meteo/error_400.json")
        #expect(
            throws: WeatherError.http(
                status: 400,
                reason: "Cannot initialize WeatherVariable from invalid String value tempeture_2m for key hourly",
                retryAfter: nil)
        ) {
            try OpenMeteoProvider.decode(status: 400, body: body)
        }
    }

    @Test func errorStatusWithoutAnErrorBody() {
        #expect(throws: WeatherError.http(status: 502, reason: nil, retryAfter: nil)) {
            try OpenMeteoProvider.decode(status: 502, body: Array("<html>Bad Gateway</html>".utf8))
        }
        #expect(throws: WeatherError.http(status: 429, reason: nil, retryAfter: nil)) {
            try OpenMeteoProvider.decode(status: 429, body: [])
        }
    }

    @Test func errorBodyUnderStatus200() throws {
        let body = try Fixtures.bytes("weather/open-meteo/error_400.json")
        #expect(
            throws: WeatherError.errorBody(
                status: 200, providerCode: nil,
                reason: "Cannot initialize WeatherVariable from invalid String value tempeture_2m for key hourly")
        ) {
            try OpenMeteoProvider.decode(status: 200, body: body)
        }
    }

    @Test func nullsBecomeNilAndUndefinedUnitsFallBack() throws {
        let body = try Fixtures.edited(Self.metric) { json in
            var current = json["current"] as! [String: Any]
            var units = json["current_units"] as! [String: Any]
            for key in [
                "time", "temperature_2m", "apparent_temperature", "relative_humidity_2m", "wind_speed_10m",
                "wind_direction_10m", "weather_code", "is_day", "wind_gusts_10m", "pressure_msl",
            ] {
                current[key] = NSNull()
                units[key] = "undefined"
            }
            json["current"] = current
            json["current_units"] = units
        }
        for system in UnitSystem.allCases {
            let weather = try OpenMeteoProvider.decode(status: 200, body: body, requested: UnitPreferences(system))
            #expect(weather == Weather(units: WeatherUnits.requested(system)))
            #expect(weather.condition == nil && weather.icon == nil)
        }
    }

    @Test func missingValuesAndUnitsAreNil() throws {
        let body = try Fixtures.edited(Self.metric) { json in
            json["current"] = ["interval": 900]
            json["current_units"] = nil
        }
        let weather = try OpenMeteoProvider.decode(status: 200, body: body, requested: .imperial)
        #expect(weather == Weather(units: .requested(.imperial)))
    }

    @Test func negativeZeroBecomesZero() throws {
        let body = try Fixtures.edited(Self.metric, replacing: ["1234.25": "-0", "4321.25": "-0.0"]) { json in
            var current = json["current"] as! [String: Any]
            current["temperature_2m"] = 1234.25
            current["apparent_temperature"] = 4321.25
            json["current"] = current
        }
        #expect(String(decoding: body, as: UTF8.self).contains("\"temperature_2m\":-0,"))
        let weather = try OpenMeteoProvider.decode(status: 200, body: body)
        #expect(weather.temperature == 0)
        #expect(weather.temperature?.sign == .plus)
        #expect(weather.apparentTemperature?.sign == .plus)
    }

    @Test func weatherCodeAsADecimalNumberAndDayAsABoolean() throws {
        let body = try Fixtures.edited(Self.metric, replacing: ["7777.25": "3.0"]) { json in
            var current = json["current"] as! [String: Any]
            current["weather_code"] = 7777.25
            current["is_day"] = true
            json["current"] = current
        }
        let weather = try OpenMeteoProvider.decode(status: 200, body: body)
        #expect(weather.weatherCode == 3)
        #expect(weather.condition == "Overcast")
        #expect(weather.isDay == true)
    }

    /// 0 and 1 are numbers, not booleans, wherever a number is expected.
    @Test(arguments: [0.0, 1.0])
    func zeroAndOneAreNumbers(value: Double) throws {
        let body = try Fixtures.edited(Self.metric) { json in
            var current = json["current"] as! [String: Any]
            for key in ["temperature_2m", "wind_speed_10m", "wind_direction_10m", "is_day"] {
                current[key] = Int(value)
            }
            json["current"] = current
        }
        let weather = try OpenMeteoProvider.decode(status: 200, body: body)
        #expect(weather.temperature == value)
        #expect(weather.windSpeed == value)
        #expect(weather.windDirection == value)
        #expect(weather.isDay == (value == 1))
    }

    @Test func unixTime() throws {
        let body = try Fixtures.edited(Self.metric) { json in
            var current = json["current"] as! [String: Any]
            current["time"] = 1_768_594_500
            json["current"] = current
            json["utc_offset_seconds"] = 7200  // ignored for unix time
        }
        #expect(try OpenMeteoProvider.decode(status: 200, body: body).time == Self.observed)
    }

    @Test(arguments: [
        ("2026-01-16T22:15", 7200, 1_768_594_500.0),
        ("2026-01-16T22:15:30", 7200, 1_768_594_530.0),
        ("2026-01-16T20:15", 0, 1_768_594_500.0),
        ("2026-01-01T00:00", -18000, 1_767_243_600.0),  // New York, crosses the year back in UTC
    ])
    func localTimeWithOffset(time: String, offset: Int, expected: Double) throws {
        let body = try Fixtures.edited(Self.metric) { json in
            var current = json["current"] as! [String: Any]
            current["time"] = time
            json["current"] = current
            json["utc_offset_seconds"] = offset
        }
        #expect(try OpenMeteoProvider.decode(status: 200, body: body).time == Date(timeIntervalSince1970: expected))
    }

    @Test func missingCurrent() throws {
        let body = try Fixtures.edited(Self.metric) { json in json["current"] = nil }
        #expect(throws: WeatherError.decoding(message: "missing member 'current'")) {
            try OpenMeteoProvider.decode(status: 200, body: body)
        }
    }

    /// `literal` is the JSON text put at `path`.
    @Test(arguments: [
        ("current", "[]", "current is an array, expected an object"),
        ("current.temperature_2m", #""cold""#, "current.temperature_2m is a string, expected a number"),
        ("current.wind_speed_10m", "true", "current.wind_speed_10m is a boolean, expected a number"),
        ("current.relative_humidity_2m", #"["72"]"#, "current.relative_humidity_2m is an array, expected a number"),
        ("current.weather_code", #""0""#, "current.weather_code is a string, expected a number"),
        ("current.weather_code", "3.5", "current.weather_code is 3.5, expected an integer"),
        ("current.is_day", #""night""#, "current.is_day is a string, expected 0 or 1"),
        ("current.is_day", "2", "current.is_day is 2.0, expected 0 or 1"),
        ("current.time", #"{"t":1}"#, "current.time is an object, expected a number or a string"),
        ("current.time", #""yesterday""#, #"current.time is "yesterday", expected unix seconds or yyyy-MM-ddTHH:mm"#),
        (
            "current.time", #""2026-02-30T10:00""#,
            #"current.time is "2026-02-30T10:00", expected unix seconds or yyyy-MM-ddTHH:mm"#
        ),
        ("current_units", #""metric""#, "current_units is a string, expected an object"),
        ("current_units.temperature_2m", "1", "current_units.temperature_2m is a number, expected a string"),
        ("utc_offset_seconds", #""+02:00""#, "utc_offset_seconds is a string, expected a number"),
        // Numbers out of any range (invented): refused, never a trap converting them.
        ("utc_offset_seconds", "1e300", "utc_offset_seconds is 1e+300, expected whole seconds within ±18 h"),
        ("utc_offset_seconds", "3600.5", "utc_offset_seconds is 3600.5, expected whole seconds within ±18 h"),
        ("current.time", "1e300", "current.time is 1e+300, expected unix seconds"),
        ("hourly.time", "[1e300]", "hourly.time[0] is 1e+300, expected unix seconds"),
    ])
    func wrongTypeNamesTheMember(path: String, literal: String, message: String) throws {
        let value = try JSONSerialization.jsonObject(with: Data(literal.utf8), options: .fragmentsAllowed)
        let body = try Fixtures.edited(Self.metric) { json in
            let keys = path.split(separator: ".").map(String.init)
            if keys.count == 1 {
                json[keys[0]] = value
            } else {
                var inner = json[keys[0]] as! [String: Any]
                inner[keys[1]] = value
                json[keys[0]] = inner
            }
        }
        #expect(throws: WeatherError.decoding(message: message)) {
            try OpenMeteoProvider.decode(status: 200, body: body)
        }
    }

    @Test(arguments: ["", "<html><body>502 Bad Gateway</body></html>", "{\"current\":", "\u{1F}\u{8B}\u{08}garbage"])
    func bodyThatIsNotJSON(text: String) {
        let body = Array(text.utf8)
        #expect(throws: WeatherError.notJSON(status: 200, bytes: body.count, contentType: "text/html")) {
            try OpenMeteoProvider.decode(status: 200, body: body, contentType: "text/html")
        }
    }

    @Test func bodyThatIsNotAnObject() {
        #expect(throws: WeatherError.decoding(message: "body is not a JSON object")) {
            try OpenMeteoProvider.decode(status: 200, body: Array("[1,2,3]".utf8))
        }
    }
}

@Suite struct OpenMeteoRequestTests {
    let current =
        "current=temperature_2m,relative_humidity_2m,apparent_temperature,is_day,weather_code,wind_speed_10m,wind_direction_10m,wind_gusts_10m,pressure_msl"
        + "&hourly=temperature_2m,precipitation_probability,precipitation,weather_code,is_day,pressure_msl"
        + "&daily=weather_code,temperature_2m_max,temperature_2m_min,precipitation_sum,precipitation_probability_max,"
        + "wind_speed_10m_max,wind_direction_10m_dominant,sunrise,sunset"
        + "&timezone=auto&forecast_days=3&past_hours=4&forecast_hours=14"

    @Test func metricParameters() {
        let provider = OpenMeteoProvider(baseURL: "https://api.open-meteo.com", units: .metric, http: FakeHTTPClient())
        #expect(
            provider.requestURL(for: Coordinate(latitude: 44.44, longitude: 26.1))
                == "https://api.open-meteo.com/v1/forecast?latitude=44.44&longitude=26.1&\(current)"
                + "&cell_selection=land&timeformat=unixtime&temperature_unit=celsius&wind_speed_unit=kmh"
                + "&precipitation_unit=mm")
    }

    @Test func imperialParameters() {
        let provider = OpenMeteoProvider(baseURL: "http://127.0.0.1:8080/", units: .imperial, http: FakeHTTPClient())
        #expect(
            provider.requestURL(for: Coordinate(latitude: 44.44, longitude: 26.1))
                == "http://127.0.0.1:8080/v1/forecast?latitude=44.44&longitude=26.1&\(current)"
                + "&cell_selection=land&timeformat=unixtime&temperature_unit=fahrenheit&wind_speed_unit=mph"
                + "&precipitation_unit=inch")
    }

    @Test(arguments: [
        (44.44, 26.1, "latitude=44.44&longitude=26.1"),
        (44, 26, "latitude=44&longitude=26"),
        (-33.87, -151.21, "latitude=-33.87&longitude=-151.21"),
        (-0.5, 0, "latitude=-0.5&longitude=0"),
        (-0.0, -0.0, "latitude=0&longitude=0"),
        (52.2183, 6.8958, "latitude=52.2183&longitude=6.8958"),
        (0.1 + 0.2, 1e-7, "latitude=0.3&longitude=0"),  // binary noise is not printed
    ])
    func coordinatesCarryNoMoreDecimalsThanGiven(latitude: Double, longitude: Double, expected: String) {
        let provider = OpenMeteoProvider(baseURL: "https://api.open-meteo.com", units: .metric, http: FakeHTTPClient())
        let url = provider.requestURL(for: Coordinate(latitude: latitude, longitude: longitude))
        #expect(url.contains("?\(expected)&current="))
        #expect(!url.contains("e-") && !url.contains("e+"))
    }

    @Test func providerName() {
        #expect(OpenMeteoProvider(baseURL: "x", units: .metric, http: FakeHTTPClient()).name == "open-meteo")
    }
}

@Suite struct OpenMeteoFetchTests {
    @Test func currentWeatherEndToEnd() async throws {
        let http = FakeHTTPClient(
            response: HTTPResponse(
                status: 200, headers: ["content-type": "application/json"],
                body: try Fixtures.bytes("weather/open-meteo/current_bucharest_fahrenheit_mph.json")))
        let provider = OpenMeteoProvider(baseURL: "http://127.0.0.1:1", units: .imperial, http: http)
        let weather = try await provider.currentWeather(at: Coordinate(latitude: 44.44, longitude: 26.1))
        #expect(weather.temperature == 22.5)
        #expect(weather.units.windSpeed == "mph")
        let requests = http.requests
        #expect(requests.count == 1)
        #expect(requests.first?.url == provider.requestURL(for: Coordinate(latitude: 44.44, longitude: 26.1)))
        #expect(requests.first?.headers["Accept"] == "application/json")
    }

    @Test func httpErrorCarriesRetryAfter() async throws {
        let http = FakeHTTPClient(
            response: HTTPResponse(
                status: 429, headers: ["retry-after": "3"],
                body: Array(#"{"error":true,"reason":"Too many requests"}"#.utf8)))
        let provider = OpenMeteoProvider(baseURL: "http://127.0.0.1:1", units: .metric, http: http)
        await #expect(throws: WeatherError.http(status: 429, reason: "Too many requests", retryAfter: 3)) {
            try await provider.currentWeather(at: Coordinate(latitude: 1, longitude: 2))
        }
    }

    @Test func transportErrorsPassThrough() async {
        let http = FakeHTTPClient(error: .transport(code: 7, message: "Couldn't connect to server"))
        let provider = OpenMeteoProvider(baseURL: "http://127.0.0.1:1", units: .metric, http: http)
        await #expect(throws: WeatherError.transport(code: 7, message: "Couldn't connect to server")) {
            try await provider.currentWeather(at: Coordinate(latitude: 1, longitude: 2))
        }
    }

    @Test func cancelledTaskDoesNotFetch() async {
        let http = FakeHTTPClient()
        let provider = OpenMeteoProvider(baseURL: "http://127.0.0.1:1", units: .metric, http: http)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await provider.currentWeather(at: Coordinate(latitude: 1, longitude: 2))
        }
        await #expect(throws: WeatherError.cancelled) { try await task.value }
        #expect(http.requests.isEmpty)
    }
}
