import Foundation
import Testing
import WundercastModel
import WundercastProviders
import WundercastTestSupport

/// `/data/2.5/weather` decoding on the recorded answers and on variants built from them
/// (issue 7, points 1 and 5): units, optional blocks, the `weather` array, `cod`, nulls, `-0`.
@Suite struct OpenWeatherMapCurrentTests {
    static let zocca = OpenWeatherMapVariants.weatherPath
    static let davis = "weather/openweathermap/weather_davis_kelvin.json"

    static func decode(
        _ body: [UInt8], status: Int = 200, asked: OpenWeatherMapUnits = .standard, units: UnitSystem = .metric
    ) throws(WeatherError) -> OpenWeatherMapCurrent {
        try OpenWeatherMapCurrent(HTTPResponse(status: status, headers: [:], body: body), asked: asked, units: units)
    }

    static func edited(_ path: String = zocca, _ edit: (inout [String: Any]) -> Void) throws -> [UInt8] {
        try Fixtures.edited(path, edit)
    }

    static func error(_ body: [UInt8], status: Int = 200) -> WeatherError? {
        do {
            _ = try decode(body, status: status)
            return nil
        } catch {
            return error
        }
    }

    @Test func zoccaInKelvinComesOutInCelsiusAndKilometresPerHour() throws {
        let current = try Self.decode(try Fixtures.bytes(Self.zocca))
        let w = current.weather
        #expect(w.temperature == 25.33)  // 298.48 K
        #expect(w.apparentTemperature == 25.59)  // 298.74 K
        #expect(w.relativeHumidity == 64)
        #expect(w.windSpeed == 2.232)  // 0.62 m/s
        #expect(w.windDirection == 349)
        #expect(w.units == WeatherUnits(temperature: "°C", windSpeed: "km/h"))
        #expect(w.weatherCode == nil, "an OpenWeatherMap id is never turned into a WMO code")
        #expect(w.openWeatherMapID == 501)
        #expect(w.conditionModel.kind == .rain)
        #expect(w.condition == "moderate rain")
        #expect(w.isDay == true)  // icon 10d
        #expect(w.icon == "weather-showers")
        #expect(w.time == Date(timeIntervalSince1970: OpenWeatherMapVariants.zoccaTime))
        #expect(current.windGusts == 4.248)  // 1.18 m/s
        #expect(current.seaLevelPressure == 1015)
        #expect(current.clock.utcOffsetSeconds == 7200)
        #expect(current.clock.sunrise == Date(timeIntervalSince1970: OpenWeatherMapVariants.zoccaSunrise))
        #expect(current.clock.sunset == Date(timeIntervalSince1970: OpenWeatherMapVariants.zoccaSunset))
    }

    @Test func zoccaInKelvinComesOutInFahrenheitAndMilesPerHour() throws {
        let w = try Self.decode(try Fixtures.bytes(Self.zocca), units: .imperial).weather
        #expect(w.temperature == 77.594)
        #expect(w.windSpeed == 1.387)  // 0.62 / 0.44704
        #expect(w.units == WeatherUnits(temperature: "°F", windSpeed: "mph"))
    }

    /// Davis: no `feels_like`, no `sea_level` (its `pressure` is taken), no gust, negative offset.
    @Test func davisLeavesOutWhatItLacks() throws {
        let current = try Self.decode(try Fixtures.bytes(Self.davis))
        #expect(current.weather.temperature == 19.08)
        #expect(current.weather.apparentTemperature == nil)
        #expect(current.weather.windSpeed == 7.56)
        #expect(current.weather.conditionModel.kind == .clear)
        #expect(current.weather.condition == "clear sky")
        #expect(current.windGusts == nil)
        #expect(current.seaLevelPressure == 1018)
        #expect(current.clock.utcOffsetSeconds == -28800)
    }

    /// The same weather asked in metric or imperial units decodes to the same published values
    /// as the recorded Kelvin answer (the answer carries no unit: what was asked decides).
    @Test(arguments: [OpenWeatherMapUnits.metric, .imperial], [UnitSystem.metric, .imperial])
    func everyAskedUnitGivesTheSameWeather(_ asked: OpenWeatherMapUnits, _ units: UnitSystem) throws {
        let kelvin = try Self.decode(try Fixtures.bytes(Self.zocca), units: units)
        let variant = try Self.edited { json in
            var main = json["main"] as! [String: Any]
            for key in ["temp", "feels_like"] {
                let k = (main[key] as! NSNumber).doubleValue
                main[key] = asked == .metric ? k - 273.15 : (k - 273.15) * 9 / 5 + 32
            }
            json["main"] = main
            var wind = json["wind"] as! [String: Any]
            for key in ["speed", "gust"] where asked == .imperial {
                wind[key] = (wind[key] as! NSNumber).doubleValue / 0.44704
            }
            json["wind"] = wind
        }
        let converted = try Self.decode(variant, asked: asked, units: units)
        #expect(abs(converted.weather.temperature! - kelvin.weather.temperature!) < 0.002)
        #expect(abs(converted.weather.apparentTemperature! - kelvin.weather.apparentTemperature!) < 0.002)
        #expect(abs(converted.weather.windSpeed! - kelvin.weather.windSpeed!) < 0.002)
        #expect(abs(converted.windGusts! - kelvin.windGusts!) < 0.002)
        #expect(converted.weather.units == kelvin.weather.units)
    }

    @Test func anEmptyWeatherArrayGivesNoConditionAndTheSunSaysDayOrNight() throws {
        let day = try Self.decode(try Self.edited { $0["weather"] = [] }).weather
        #expect(day.openWeatherMapID == nil && day.condition == nil && day.icon == nil)
        #expect(!day.hasConditionCode)
        #expect(day.isDay == true, "16:43 local time in August at Zocca")
        let night = try Self.decode(
            try Self.edited {
                $0["weather"] = []
                $0["dt"] = OpenWeatherMapVariants.zoccaTime + 8 * 3600  // 00:43 local time
            }
        ).weather
        #expect(night.isDay == false)
    }

    @Test func theFirstOfSeveralConditionsIsTheMainOne() throws {
        let w = try Self.decode(
            try Self.edited {
                $0["weather"] = [
                    ["id": 211, "main": "Thunderstorm", "description": "thunderstorm", "icon": "11n"],
                    ["id": 501, "main": "Rain", "description": "moderate rain", "icon": "10d"], ["id": "junk"],
                ]
            }
        ).weather
        #expect(w.openWeatherMapID == 211)
        #expect(w.conditionModel.kind == .thunderstorm && w.conditionModel.isSevere)
        #expect(w.isDay == false)
        #expect(w.icon == "weather-storm")
    }

    @Test func aConditionTextIsBoundedAndStrippedOfControlCharacters() throws {
        let w = try Self.decode(
            try Self.edited {
                $0["weather"] = [
                    ["id": 803, "description": "broken\u{1B}[31m clouds\n" + String(repeating: "x", count: 500)]
                ]
            }
        ).weather
        let text = try #require(w.condition)
        #expect(!text.unicodeScalars.contains { $0.value < 0x20 })
        #expect(text.unicodeScalars.count <= 60)
        #expect(text.hasPrefix("broken [31m clouds"))
        #expect(w.isDay == true, "no icon: the sun at Zocca in the afternoon")
    }

    @Test func missingBlocksAndNullsAreLeftOut() throws {
        let w = try Self.decode(
            try Self.edited {
                for key in ["wind", "sys", "rain", "visibility", "timezone", "clouds", "coord"] {
                    $0.removeValue(forKey: key)
                }
                $0["main"] = ["temp": NSNull(), "humidity": 50]
                $0["weather"] = NSNull()
            })
        #expect(w.weather.temperature == nil && w.weather.apparentTemperature == nil)
        #expect(w.weather.relativeHumidity == 50)
        #expect(w.weather.windSpeed == nil && w.weather.windDirection == nil)
        #expect(w.weather.isDay == nil, "no icon and no place: day or night is unknown")
        #expect(w.windGusts == nil && w.seaLevelPressure == nil && w.clock == OpenWeatherMapClock())
    }

    @Test(arguments: ["-0", "-0.0"])
    func negativeZeroIsZero(_ literal: String) throws {
        let body = try Fixtures.edited(Self.zocca, replacing: ["1234.5678": literal]) {
            $0["main"] = ["temp": 1234.5678, "feels_like": 273.15]
            $0["wind"] = ["speed": 1234.5678, "deg": 1234.5678]
        }
        let current = try Self.decode(body, asked: .metric)
        #expect(current.weather.temperature == 0 && current.weather.temperature?.sign == .plus)
        #expect(current.weather.windSpeed?.sign == .plus && current.weather.windDirection?.sign == .plus)
        let kelvin = try Self.decode(body, asked: .standard)
        #expect(kelvin.weather.apparentTemperature == 0 && kelvin.weather.apparentTemperature?.sign == .plus)
    }

    @Test(arguments: [
        (#"{"cod":200,"main":{"temp":280}}"#, 6.85), (#"{"cod":"200","main":{"temp":280}}"#, 6.85),
        (#"{"main":{"temp":280}}"#, 6.85), (#"{"cod":null,"main":{"temp":280}}"#, 6.85),
    ])
    func aSuccessCodIsANumberAStringOrAbsent(_ body: String, _ celsius: Double) throws {
        #expect(try Self.decode(Array(body.utf8)).weather.temperature == celsius)
    }

    @Test(arguments: [
        (#"{"cod":"404","message":"city not found"}"#, "404", "city not found"),
        (#"{"cod":401,"message":"Invalid API key."}"#, "401", "Invalid API key."),
        (#"{"cod":"404","message":""}"#, "404", nil), (#"{"cod":500.0}"#, "500", nil),
    ])
    func anErrorCodUnderHTTP200IsAnErrorBody(_ body: String, _ code: String, _ reason: String?) {
        #expect(Self.error(Array(body.utf8)) == .errorBody(status: 200, providerCode: code, reason: reason))
    }

    @Test(arguments: [
        (#"{"cod":true,"main":{}}"#, "cod is a boolean, expected a number or a string"),
        (#"{"cod":200}"#, "missing member 'main'"),
        (#"{"main":[]}"#, "main is an array, expected an object"),
        (#"{"main":{"temp":"hot"}}"#, "main.temp is a string, expected a number"),
        (#"{"main":{},"weather":{"id":800}}"#, "weather is an object, expected an array"),
        (#"{"main":{},"weather":["clear"]}"#, "weather[0] is a string, expected an object"),
        (#"{"main":{},"weather":[{"id":800.5}]}"#, "weather[0].id is 800.5, expected a condition id"),
        (#"{"main":{},"timezone":90000}"#, "timezone is 90000.0, expected whole seconds within ±18 h"),
        (#"{"main":{},"dt":1e300}"#, "dt is 1e+300, beyond any plausible value"),
        (#"{"main":{},"dt":-5e11}"#, "dt is -500000000000.0, expected unix seconds"),
        (#"[1,2]"#, "body is an array, expected a JSON object"),
    ])
    func wrongShapesAreDecodingErrorsNamingTheMember(_ body: String, _ message: String) {
        #expect(Self.error(Array(body.utf8)) == .decoding(message: message))
    }

    @Test func aBodyThatIsNotJSONUnderASuccessIsNotJSON() {
        #expect(Self.error(Array("<html>portal</html>".utf8)) == .notJSON(status: 200, bytes: 19, contentType: nil))
        #expect(Self.error([]) == .notJSON(status: 200, bytes: 0, contentType: nil))
    }
}
