import Foundation
import Testing
import WundercastModel
import WundercastProviders
import WundercastTestSupport

/// `/data/2.5/forecast` decoding on the recorded answers and variants, and the forecast joined
/// from the two answers: 3-hourly hours, the place's local days, sunrise and sunset.
@Suite struct OpenWeatherMapForecastTests {
    static let moravska = OpenWeatherMapVariants.forecastPath
    static let kochi = "weather/openweathermap/forecast_kochi_2014.json"

    static func list(_ body: [UInt8], units: UnitSystem = .metric) throws(WeatherError) -> OpenWeatherMapForecastList {
        try OpenWeatherMapForecastList(
            HTTPResponse(status: 200, headers: [:], body: body), asked: .standard, units: units)
    }

    static func current(_ edit: (inout [String: Any]) -> Void = { _ in }) throws -> OpenWeatherMapCurrent {
        try OpenWeatherMapCurrent(
            HTTPResponse(
                status: 200, headers: [:], body: try Fixtures.edited(OpenWeatherMapVariants.weatherPath, edit)),
            asked: .standard, units: .metric)
    }

    /// The steps of a recorded list as JSONSerialization reads them: (dt, main.temp in K).
    static func recordedSteps(_ body: [UInt8]) throws -> [(dt: Double, kelvin: Double)] {
        let json = try JSONSerialization.jsonObject(with: Data(body)) as! [String: Any]
        return (json["list"] as! [[String: Any]]).map {
            (($0["dt"] as! NSNumber).doubleValue, (($0["main"] as! [String: Any])["temp"] as! NSNumber).doubleValue)
        }
    }

    @Test func moravskaHasFortyStepsInCelsiusWithSnowButNoRainAmounts() throws {
        let body = try Fixtures.bytes(Self.moravska)
        let list = try Self.list(body)
        let recorded = try Self.recordedSteps(body)
        #expect(list.steps.count == recorded.count && list.steps.count == 40)
        for (step, raw) in zip(list.steps, recorded) {
            #expect(step.time.timeIntervalSince1970 == raw.dt)
            #expect(abs(step.temperature! - (raw.kelvin - 273.15)) < 0.0006)
        }
        #expect(list.steps.allSatisfy { $0.precipitationProbability == nil }, "2015: no pop")
        // `"rain":{}` gives no amount; the last two steps carry `snow.3h` only.
        #expect(list.steps.dropLast(2).allSatisfy { $0.precipitation == nil || $0.precipitation! > 0 })
        #expect(list.steps.suffix(2).map(\.precipitation) == [0.085, 0.06])
        #expect(list.steps[0].openWeatherMapID == 801 && list.steps[0].isDay == true)  // 02d
        #expect(list.steps[1].conditionModel.kind == .clear && list.steps[1].isDay == false)  // 01n
        #expect(list.steps.last?.conditionModel.kind == .snow)
        #expect(list.clock == OpenWeatherMapClock(), "no city.timezone, sunrise or sunset in 2015")
    }

    @Test func kochiHasRainAmountsOfThreeHours() throws {
        let list = try Self.list(try Fixtures.bytes(Self.kochi))
        #expect(list.steps.count == 33)
        #expect(list.steps[3].precipitation == 2)  // rain.3h 2
        #expect(list.steps[0].precipitation == 0)  // rain.3h 0 is an amount, not nothing
        #expect(list.steps[3].condition == "light rain" && list.steps[3].isDay == false)
        #expect(zip(list.steps, list.steps.dropFirst()).allSatisfy { $0.time < $1.time })
    }

    @Test func popIsAPercentAndNothingOutsideZeroToOne() throws {
        let body = try OpenWeatherMapVariants.forecast(after: 0, pops: [0.29, 1, 0, 1.5, -0.2])
        let steps = try Self.list(body).steps
        #expect(steps.prefix(6).map(\.precipitationProbability) == [29, 100, 0, nil, nil, nil])
    }

    @Test func stepsWithoutTimeAreSkippedAndWrongShapesNamed() throws {
        let skipped = try Fixtures.edited(Self.moravska) { json in
            var list = json["list"] as! [[String: Any]]
            list[0]["dt"] = NSNull()
            list[1].removeValue(forKey: "dt")
            json["list"] = list
        }
        #expect(try Self.list(skipped).steps.count == 38)
        func failure(_ edit: @escaping (inout [String: Any]) -> Void) -> WeatherError? {
            do {
                _ = try Self.list(try Fixtures.edited(Self.moravska, edit))
                return nil
            } catch let error as WeatherError {
                return error
            } catch {
                return .decoding(message: "\(error)")
            }
        }
        #expect(failure { $0.removeValue(forKey: "list") } == .decoding(message: "missing member 'list'"))
        #expect(
            failure { json in
                var list = json["list"] as! [Any]
                list[2] = 7
                json["list"] = list
            } == .decoding(message: "list[2] is a number, expected an object"))
        #expect(
            failure { json in
                var list = json["list"] as! [[String: Any]]
                list[4]["main"] = ["temp": "cold"]
                json["list"] = list
            } == .decoding(message: "list[4].main.temp is a string, expected a number"))
        #expect(
            failure { $0["city"] = ["timezone": 3600.5] }
                == .decoding(message: "city.timezone is 3600.5, expected whole seconds within ±18 h"))
    }

    /// The two answers joined at Zocca's observation time with a forecast moved to follow it.
    @Test func theForecastIsTheNextFourStepsAndTheLocalDaysWithTheirSun() throws {
        let observed = OpenWeatherMapVariants.zoccaTime
        let body = try OpenWeatherMapVariants.forecast(
            after: observed, timezone: 7200, sunrise: OpenWeatherMapVariants.zoccaSunrise + 86_400,
            sunset: OpenWeatherMapVariants.zoccaSunset + 86_400, pops: [0.2, 0.4])
        let current = try Self.current()
        let weather = OpenWeatherMapProvider.weather(current: current, forecast: try Self.list(body))
        let forecast = try #require(weather.forecast)
        let hours = try #require(forecast.hours)
        #expect(hours.count == 4, "12 hours of 3-hourly steps")
        #expect(hours.first!.time.timeIntervalSince1970 > observed)
        #expect(hours.last!.time.timeIntervalSince1970 <= observed + 12 * 3600)
        #expect(zip(hours, hours.dropFirst()).allSatisfy { $1.time.timeIntervalSince($0.time) == 3 * 3600 })
        #expect(hours.prefix(2).map(\.precipitationProbability) == [20, 40])
        #expect(forecast.utcOffsetSeconds == 7200)
        #expect(forecast.windGusts == 4.248 && forecast.seaLevelPressure == 1015)
        #expect(forecast.pressureTendency == nil, "the daemon's history gives it, not the provider")
        #expect(
            forecast.units
                == Forecast.Units(
                    temperature: "°C", precipitation: "mm", precipitationProbability: "%", windGusts: "km/h",
                    seaLevelPressure: "hPa", windSpeed: "km/h"),
            "mm for the days' amounts (steps 6 and 10 on have `rain.3h`; the first hours' `rain` is `{}`)")
        #expect(forecast.hours?.allSatisfy { $0.precipitation == nil } == true)

        // Today and tomorrow are Zocca's local days (UTC+2), computed from the steps within them.
        let recorded = try Self.recordedSteps(body)
        func celsius(day: Int) -> [Double] {
            recorded.filter { Int((($0.dt + 7200) / 86_400).rounded(.down)) == day }.map { $0.kelvin - 273.15 }
        }
        let todayNumber = Int(((observed + 7200) / 86_400).rounded(.down))
        let today = try #require(forecast.today)
        #expect(today.date == "2022-08-30")
        let todays = celsius(day: todayNumber) + [25.33]
        #expect(abs(today.high! - todays.max()!) < 0.001 && abs(today.low! - todays.min()!) < 0.001)
        #expect(today.sunrise == Date(timeIntervalSince1970: OpenWeatherMapVariants.zoccaSunrise))
        #expect(today.sunset == Date(timeIntervalSince1970: OpenWeatherMapVariants.zoccaSunset))
        let tomorrow = try #require(forecast.tomorrow)
        #expect(tomorrow.date == "2022-08-31")
        let tomorrows = celsius(day: todayNumber + 1)
        #expect(tomorrows.count == 8)
        #expect(abs(tomorrow.high! - tomorrows.max()!) < 0.001 && abs(tomorrow.low! - tomorrows.min()!) < 0.001)
        #expect(tomorrow.sunrise == Date(timeIntervalSince1970: OpenWeatherMapVariants.zoccaSunrise + 86_400))
    }

    @Test func withoutAnOffsetThereAreHoursButNoDays() throws {
        let body = try OpenWeatherMapVariants.forecast(after: OpenWeatherMapVariants.zoccaTime)
        let weather = OpenWeatherMapProvider.weather(
            current: try Self.current { $0.removeValue(forKey: "timezone") }, forecast: try Self.list(body))
        let forecast = try #require(weather.forecast)
        #expect(forecast.hours?.count == 4)
        #expect(forecast.today == nil && forecast.tomorrow == nil && forecast.utcOffsetSeconds == nil)
    }

    @Test func theCurrentAnswersOffsetServesWhenTheCityHasNone() throws {
        let body = try OpenWeatherMapVariants.forecast(after: OpenWeatherMapVariants.zoccaTime)
        let forecast = try #require(
            OpenWeatherMapProvider.weather(current: try Self.current(), forecast: try Self.list(body)).forecast)
        #expect(forecast.utcOffsetSeconds == 7200)
        #expect(forecast.today?.date == "2022-08-30")
    }

    @Test func aForecastOfAnotherTimeGivesNoHoursAndNothingIsInvented() throws {
        // The recorded 2015 forecast beside the 2022 weather: no step falls after it within 12 h.
        let weather = OpenWeatherMapProvider.weather(
            current: try Self.current(), forecast: try Self.list(try Fixtures.bytes(Self.moravska)))
        let forecast = try #require(weather.forecast)
        #expect(forecast.hours == nil)
        #expect(forecast.days == nil, "no step reaches the end of today: no day, no high or low of a part of it")
        #expect(forecast.units.temperature == nil && forecast.units.precipitation == nil)
    }

    @Test func withoutAnObservationTimeThereIsNoHourAndNoDay() throws {
        let body = try OpenWeatherMapVariants.forecast(after: OpenWeatherMapVariants.zoccaTime, timezone: 7200)
        let weather = OpenWeatherMapProvider.weather(
            current: try Self.current { $0.removeValue(forKey: "dt") }, forecast: try Self.list(body))
        #expect(weather.forecast?.hours == nil && weather.forecast?.today == nil)
        #expect(weather.forecast?.seaLevelPressure == 1015)
    }
}
