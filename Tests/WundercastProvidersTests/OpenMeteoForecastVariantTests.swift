import Foundation
import Testing
import WundercastModel
import WundercastProviders
import WundercastProtocol
import WundercastFormats
import WundercastTestSupport

/// Variants of recorded answers, built here: nulls, missing blocks, series of the wrong length
/// or type, `-0`, observation times on an hour and late in the local day, a daylight-saving
/// change between today and tomorrow, a 3-hourly series.
@Suite struct OpenMeteoForecastVariantTests {
    static let bucharest = OpenMeteoForecastRecordingTests.bucharest
    static let newYork = OpenMeteoForecastRecordingTests.newYork
    static let munich = OpenMeteoForecastRecordingTests.munich

    static func forecast(_ body: [UInt8]) throws -> Forecast? {
        try OpenMeteoProvider.decode(status: 200, body: body).forecast
    }

    /// Changes member `key` of block `block` of the parsed body.
    static func setting(_ block: String, _ key: String, _ json: inout [String: Any], _ change: (inout Any?) -> Void) {
        var inner = json[block] as! [String: Any]
        var value = inner[key]
        change(&value)
        inner[key] = value
        json[block] = inner
    }

    /// Hourly temperatures and gusts no weather has (a variant of the recorded Bucharest answer)
    /// are left out of the state, and so are their units: `forecast.units` names only the
    /// pressure's, whose value is there.
    @Test func unitsOfValuesLeftOutAreNotPublished() throws {
        let body = try Fixtures.edited(Self.bucharest) { json in
            Self.setting("current", "wind_gusts_10m", &json) { $0 = 9999 }
            Self.setting("hourly", "temperature_2m", &json) { $0 = ($0 as! [Any]).map { _ in 999 } }
        }
        let weather = try OpenMeteoProvider.decode(status: 200, body: body).checkedForImpossibleValues()
        let forecast = try #require(weather.forecast)
        #expect(forecast.hours?.allSatisfy { $0.temperature == nil } == true && forecast.windGusts == nil)
        #expect(forecast.unitsOfPresentValues == Forecast.Units(seaLevelPressure: "hPa"))
        var state = WeatherState(status: .fresh, provider: "open-meteo", authorization: .authorizedAlways)
        state.weather = weather
        let line = SocketProtocol.line(state)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])
        let published = try #require(((json["weather"] as? [String: Any])?["forecast"] as? [String: Any]))
        #expect(published["units"] as? [String: String] == ["seaLevelPressure": "hPa"])
        #expect(published["windGusts"] == nil)
    }

    /// Without `is_day` (a variant of the recorded night in Bucharest), day or night comes from
    /// the sun at the answer's position; without a position it stays unknown.
    @Test func withoutIsDayTheSunDecides() throws {
        let recorded = try OpenMeteoProvider.decode(status: 200, body: Fixtures.bytes(Self.bucharest))
        #expect(recorded.isDay == false)
        let noFlag = try Fixtures.edited(Self.bucharest) { json in
            Self.setting("current", "is_day", &json) { $0 = nil }
            Self.setting("hourly", "is_day", &json) { $0 = nil }
        }
        let computed = try OpenMeteoProvider.decode(status: 200, body: noFlag)
        #expect(computed.isDay == false)
        #expect(computed.icon == "weather-clear-night")
        let hours = try #require(computed.forecast?.hours)
        #expect(hours.allSatisfy { $0.isDay != nil })
        #expect(hours.map(\.isDay) == recorded.forecast?.hours?.map(\.isDay))
        let nowhere = try Fixtures.edited(Self.bucharest) { json in
            Self.setting("current", "is_day", &json) { $0 = nil }
            json["latitude"] = nil
        }
        #expect(try OpenMeteoProvider.decode(status: 200, body: nowhere).isDay == nil)
    }

    @Test func nullsInASeriesLeaveOutThatValueAndANullTimeItsHour() throws {
        let body = try Fixtures.edited(Self.bucharest) { json in
            let times = (json["hourly"] as! [String: Any])["time"] as! [String]
            Self.setting("hourly", "time", &json) { values in
                var list = values as! [Any]
                list[times.firstIndex(of: "2026-01-17T01:00")!] = NSNull()
                values = list
            }
            Self.setting("hourly", "temperature_2m", &json) { values in
                var list = values as! [Any]
                list[times.firstIndex(of: "2026-01-16T23:00")!] = NSNull()
                values = list
            }
        }
        let hours = try #require(try Self.forecast(body)?.hours)
        #expect(hours.first?.temperature == nil)
        #expect(hours.first?.weatherCode == 0)
        #expect(hours.count == 11)  // 23:00 … 10:00 less 01:00
        #expect(
            !hours.map(\.time).contains(try OpenMeteoForecastRecordingTests.instant("2026-01-17T01:00", offset: 7200)))
    }

    @Test func missingBlocksAreLeftOut() throws {
        let withoutHourly = try Self.forecast(Fixtures.edited(Self.newYork) { $0["hourly"] = nil })
        #expect(withoutHourly?.hours == nil && withoutHourly?.today?.high == -0.2)
        let withoutDaily = try Self.forecast(Fixtures.edited(Self.newYork) { $0["daily"] = NSNull() })
        #expect(withoutDaily?.today == nil && withoutDaily?.hours?.count == 12)
        let neither = try OpenMeteoProvider.decode(
            status: 200,
            body: Fixtures.edited(Self.newYork) { json in
                json["hourly"] = nil
                json["daily"] = nil
                json["hourly_units"] = nil
            })
        #expect(neither.forecast == nil)
        #expect(neither.temperature == -1.4)
        let noPressureSeries = try Self.forecast(
            Fixtures.edited(Self.bucharest) { json in Self.setting("hourly", "pressure_msl", &json) { $0 = nil } })
        #expect(noPressureSeries?.pressureTendency == nil && noPressureSeries?.seaLevelPressure == 1034.7)
    }

    @Test func withoutAnObservationTimeNothingIsCountedFromTheWallClock() throws {
        let forecast = try Self.forecast(
            Fixtures.edited(Self.bucharest) { json in Self.setting("current", "time", &json) { $0 = NSNull() } })
        #expect(forecast?.hours == nil && forecast?.today == nil && forecast?.pressureTendency == nil)
        #expect(forecast?.windGusts == 12.2)
    }

    @Test func anHourAtTheObservationTimeHasBegun() throws {
        let body = try Fixtures.edited(Self.bucharest) { json in
            Self.setting("current", "time", &json) { $0 = "2026-01-16T22:00" }
        }
        let hours = try #require(try Self.forecast(body)?.hours)
        #expect(try hours.first?.time == OpenMeteoForecastRecordingTests.instant("2026-01-16T23:00", offset: 7200))
        #expect(hours.count == 12)
        #expect(try hours.last?.time == OpenMeteoForecastRecordingTests.instant("2026-01-17T10:00", offset: 7200))
    }

    @Test func todayIsThePlacesLocalDayNotTheUTCDay() throws {
        // 23:45 in New York is 04:45 UTC of the next day.
        let body = try Fixtures.edited(Self.newYork) { json in
            Self.setting("current", "time", &json) { $0 = "2026-02-06T23:45" }
        }
        let forecast = try #require(try Self.forecast(body))
        #expect(forecast.today?.date == "2026-02-06" && forecast.today?.low == -9.2)
        #expect(forecast.tomorrow?.date == "2026-02-07")
    }

    @Test func aDaylightSavingChangeBeforeTomorrowStillFindsTomorrow() throws {
        // Tomorrow's local midnight an hour earlier in UTC, as after a change to summer time.
        let body = try Fixtures.edited(Self.munich) { json in
            json["current"] = ["time": 1_770_477_300]
            Self.setting("daily", "time", &json) { times in
                var list = times as! [Int]
                list[1] -= 3600
                times = list
            }
        }
        let forecast = try #require(try Self.forecast(body))
        #expect(forecast.today?.date == "2026-02-07" && forecast.tomorrow?.date == "2026-02-08")
        #expect(forecast.tomorrow?.high == 6.8)
    }

    @Test func aThreeHourlySeriesGivesFourHoursInTwelve() throws {
        let body = try Fixtures.edited(Self.bucharest) { json in
            var hourly = json["hourly"] as! [String: Any]
            for (key, value) in hourly {
                hourly[key] = (value as! [Any]).enumerated().filter { $0.offset % 3 == 0 }.map(\.element)
            }
            json["hourly"] = hourly
        }
        let forecast = try #require(try Self.forecast(body))
        let hours = try #require(forecast.hours)
        #expect(hours.count == 4)
        #expect(zip(hours, hours.dropFirst()).allSatisfy { $1.time.timeIntervalSince($0.time) == 3 * 3600 })
        // The newest value before 22:15 is from 21:00, more than an hour old: no tendency is
        // claimed for the observation time.
        #expect(forecast.pressureTendency == nil)
    }

    @Test func negativeZeroBecomesZero() throws {
        let body = try Fixtures.edited(Self.newYork, replacing: ["9876.25": "-0", "8765.25": "-0.0"]) { json in
            Self.setting("hourly", "temperature_2m", &json) { values in
                values = (values as! [Double]).map { _ in 9876.25 }
            }
            Self.setting("daily", "temperature_2m_max", &json) { values in
                var list = values as! [Double]
                list[0] = 8765.25
                values = list
            }
        }
        let forecast = try #require(try Self.forecast(body))
        #expect(forecast.hours?.allSatisfy { $0.temperature == 0 && $0.temperature?.sign == .plus } == true)
        #expect(forecast.today?.high == 0 && forecast.today?.high?.sign == .plus)
    }

    @Test func aPressureSeriesInAnotherUnitGivesNoTendency() throws {
        let body = try Fixtures.edited(Self.bucharest) { json in
            Self.setting("hourly_units", "pressure_msl", &json) { $0 = "inHg" }
        }
        #expect(try Self.forecast(body)?.pressureTendency == nil)
    }

    /// `literal` is the JSON text put at `block.key` (or at `block` when `key` is empty).
    @Test(arguments: [
        ("hourly", "", #""soon""#, "hourly is a string, expected an object"),
        ("daily", "", "[]", "daily is an array, expected an object"),
        ("hourly", "time", "null", "missing member 'hourly.time'"),
        ("daily", "time", "7", "daily.time is a number, expected an array"),
        ("hourly", "temperature_2m", #""cold""#, "hourly.temperature_2m is a string, expected an array"),
        ("hourly", "temperature_2m", "[1, 2]", "hourly.temperature_2m has 2 values for 168 times"),
        ("hourly", "precipitation", #"[true]"#, "hourly.precipitation has 1 values for 168 times"),
        ("daily", "sunrise", "[1, 2, 3, 4, 5, 6]", "daily.sunrise has 6 values for 7 times"),
        ("hourly_units", "", "3", "hourly_units is a number, expected an object"),
        ("hourly_units", "temperature_2m", "[]", "hourly_units.temperature_2m is an array, expected a string"),
    ])
    func malformedBlocksNameTheMember(block: String, key: String, literal: String, message: String) throws {
        let value = try JSONSerialization.jsonObject(with: Data(literal.utf8), options: .fragmentsAllowed)
        let body = try Fixtures.edited(Self.newYork) { json in
            if key.isEmpty { json[block] = value } else { Self.setting(block, key, &json) { $0 = value } }
        }
        #expect(throws: WeatherError.decoding(message: message)) { try Self.forecast(body) }
    }

    @Test(arguments: [
        ("hourly", "temperature_2m", #""-3""#, "hourly.temperature_2m[5] is a string, expected a number"),
        ("hourly", "weather_code", "3.5", "hourly.weather_code[5] is 3.5, expected an integer"),
        (
            "hourly", "time", #""2026-02-06 05:00""#,
            #"hourly.time[5] is "2026-02-06 05:00", expected unix seconds or yyyy-MM-ddTHH:mm"#
        ),
        ("daily", "time", #""2026-02-30""#, #"daily.time[5] is "2026-02-30", expected unix seconds or yyyy-MM-dd"#),
        ("daily", "sunset", "false", "daily.sunset[5] is a boolean, expected a number or a string"),
    ])
    func aWrongEntryNamesItsIndex(block: String, key: String, literal: String, message: String) throws {
        let value = try JSONSerialization.jsonObject(with: Data(literal.utf8), options: .fragmentsAllowed)
        let body = try Fixtures.edited(Self.newYork) { json in
            Self.setting(block, key, &json) { series in
                var list = series as! [Any]
                list[5] = value
                series = list
            }
        }
        #expect(throws: WeatherError.decoding(message: message)) { try Self.forecast(body) }
    }

    @Test(arguments: CellSelection.allCases)
    func cellSelectionIsSent(cell: CellSelection) {
        let provider = OpenMeteoProvider(
            baseURL: "https://api.open-meteo.com", units: .metric, cell: cell, http: FakeHTTPClient())
        let url = provider.requestURL(for: Coordinate(latitude: 54.1, longitude: 7.9))
        #expect(url.contains("&cell_selection=\(cell.rawValue)&"))
        #expect(url.components(separatedBy: "cell_selection=").count == 2)
        #expect(url.contains("&timezone=auto&"))
    }
}

/// Numbers no weather answer has (an invented body): refused by name, the decoder's guard;
/// and the faces never trap on them where a state holds them anyway.
@Suite struct OpenMeteoAbsurdNumberTests {
    static let bucharest = OpenMeteoForecastRecordingTests.bucharest

    @Test(arguments: [("current", "wind_gusts_10m", -1e300), ("current", "relative_humidity_2m", 1e300)])
    func absurdValuesAreRefusedByName(_ block: String, _ member: String, _ value: Double) throws {
        let body = try Fixtures.edited(Self.bucharest) { json in
            OpenMeteoForecastVariantTests.setting(block, member, &json) { $0 = value }
        }
        #expect {
            try OpenMeteoProvider.decode(status: 200, body: body)
        } throws: {
            "\($0)".contains("\(block).\(member) is") && "\($0)".contains("beyond any plausible value")
        }
    }

    @Test func absurdValuesInAStateAreLeftOutOfTheFaces() throws {
        var state = SampleStates.weather()
        var weather = try OpenMeteoProvider.decode(status: 200, body: Fixtures.bytes(Self.bucharest))
        weather.relativeHumidity = 1e300
        weather.forecast?.seaLevelPressure = 1e300
        weather.forecast?.windGusts = -1e300
        state.weather = weather
        let values = Placeholder.values(state, now: SampleStates.now, icons: .emoji)
        #expect(values[.pressure] == nil && values[.gusts] == nil)
        #expect(SocketProtocol.line(state).count > 100)  // still encodes
        #expect(!HumanFormat.line(state, now: SampleStates.now).contains("humidity"))
        let item = BarItem(state: state, now: SampleStates.now)
        #expect(item.percentage == nil)
        #expect(!item.tooltip.contains { $0.contains("inf") || $0.contains("nan") || $0.contains("e+") })
    }
}

/// `[Weather] Days=` bounds what is published, whatever the answer gives.
@Suite struct OpenMeteoDaysLimitTests {
    @Test func anAnswerWithMoreDaysThanAskedPublishesNoMore() async throws {
        let body = try Fixtures.bytes("weather/open-meteo/forecast_newyork_daily.json")
        let all = try #require(try OpenMeteoProvider.decode(status: 200, body: body).forecast?.days)
        #expect(all.count > 2, "the recording has more days than asked below")
        let http = FakeHTTPClient(response: HTTPResponse(status: 200, headers: [:], body: body))
        let provider = OpenMeteoProvider(baseURL: "http://127.0.0.1:8080", units: .metric, http: http, days: 2)
        let weather = try await provider.currentWeather(at: Coordinate(latitude: 40.71, longitude: -74.01))
        #expect(weather.forecast?.days == Array(all.prefix(2)))
    }
}
