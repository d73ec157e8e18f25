import Foundation
import Testing
import WundercastModel
import WundercastProviders
import WundercastPipeline
import WundercastTestSupport

/// ``Weather/converted(to:)`` on recorded answers and variants of them: every value of the
/// current weather and its forecast follows its own unit string.
@Suite struct WeatherConversionTests {
    static let bucharest = "weather/open-meteo/current_bucharest_metric.json"
    static let newYork = "weather/open-meteo/forecast_newyork_daily.json"
    static let sailor = UnitPreferences(temperature: .fahrenheit, windSpeed: .kn, pressure: .inHg, precipitation: .inch)

    static func metric(_ path: String, body: [UInt8]? = nil) throws -> Weather {
        try OpenMeteoProvider.decode(status: 200, body: body ?? Fixtures.bytes(path))
    }

    @Test func currentValuesGustsPressureAndTendency() throws {
        let metric = try Self.metric(Self.bucharest)
        let converted = metric.converted(to: Self.sailor)
        #expect(converted.temperature == 22.46)  // -5.3 °C
        #expect(converted.apparentTemperature == 15.44)  // -9.2 °C
        #expect(converted.windSpeed == 2.5378)  // 4.7 km/h
        #expect(converted.units == WeatherUnits(temperature: "°F", windSpeed: "kn"))
        // Quantities without units to convert stay exactly as recorded.
        #expect(converted.relativeHumidity == metric.relativeHumidity && converted.windDirection == 81)
        #expect(converted.weatherCode == metric.weatherCode && converted.time == metric.time)
        let forecast = try #require(converted.forecast)
        #expect(forecast.windGusts == 6.5875)  // 12.2 km/h
        #expect(forecast.seaLevelPressure == 30.5547)  // 1034.7 hPa
        #expect(forecast.units.windGusts == "kn" && forecast.units.seaLevelPressure == "inHg")
        let tendency = try #require(forecast.pressureTendency)
        #expect(tendency.change == 0.0384 && tendency.unit == "inHg")  // 1.3 hPa
        #expect(tendency.trend == .rising && tendency.source == .hourly)  // classified in hPa
        // Each hour's temperature, converted from the recording's own series.
        let hours = try #require(forecast.hours)
        let original = try #require(metric.forecast?.hours)
        #expect(hours.count == original.count && !hours.isEmpty)
        for (hour, before) in zip(hours, original) {
            let celsius = try #require(before.temperature)
            #expect(hour.temperature == TemperatureUnit.celsius.convert(celsius, to: .fahrenheit))
            #expect(hour.time == before.time && hour.weatherCode == before.weatherCode)
        }
        #expect(forecast.units.temperature == "°F")
    }

    @Test func highsAndLowsOfBothDays() throws {
        let metric = try Self.metric(Self.newYork)
        let converted = metric.converted(to: Self.sailor)
        let before = try #require(metric.forecast)
        let after = try #require(converted.forecast)
        for (old, new) in [(before.today, after.today), (before.tomorrow, after.tomorrow)] {
            let old = try #require(old)
            let new = try #require(new)
            #expect(new.high == old.high.map { TemperatureUnit.celsius.convert($0, to: .fahrenheit) })
            #expect(new.low == old.low.map { TemperatureUnit.celsius.convert($0, to: .fahrenheit) })
            #expect(new.sunrise == old.sunrise && new.date == old.date)
        }
        #expect(after.today?.high == 31.64)  // -0.2 °C
    }

    /// A variant of the Bucharest recording with amounts in its hourly series.
    @Test func precipitationAmounts() throws {
        let body = try Fixtures.edited(Self.bucharest) { json in
            var hourly = json["hourly"] as! [String: Any]
            let count = (hourly["time"] as! [Any]).count
            hourly["precipitation"] = (0..<count).map { $0 % 2 == 0 ? 1.3 : 0 }
            json["hourly"] = hourly
            var units = json["hourly_units"] as! [String: Any]
            units["precipitation"] = "mm"
            json["hourly_units"] = units
        }
        let converted = try Self.metric(Self.bucharest, body: body).converted(to: Self.sailor)
        let amounts = try #require(converted.forecast?.hours).compactMap(\.precipitation)
        #expect(Set(amounts) == [0.0512, 0])  // 1.3 mm
        #expect(converted.forecast?.units.precipitation == "in")
    }

    /// Values in the wanted units are not touched (no rounding, no relabelling but the spelling).
    @Test func wantedUnitsAreLeftExactly() throws {
        let metric = try Self.metric(Self.bucharest)
        #expect(metric.converted(to: .metric) == metric)
        var odd = metric
        odd.temperature = -5.333333333
        #expect(odd.converted(to: .metric).temperature == -5.333333333)
    }

    /// OpenWeatherMap's default: Kelvin and m/s. A label of another provider's spelling is read.
    @Test func kelvinAndMetresPerSecond() {
        let owm = Weather(
            temperature: 271.37, apparentTemperature: 266.15, windSpeed: 3.6,
            units: WeatherUnits(temperature: "K", windSpeed: "m/s"))
        let converted = owm.converted(to: .metric)
        #expect(converted.temperature == -1.78)
        #expect(converted.apparentTemperature == -7)
        #expect(converted.windSpeed == 12.96)
        #expect(converted.units == WeatherUnits(temperature: "°C", windSpeed: "km/h"))
    }

    /// A unit string the daemon does not know leaves that value and its label as they came; the
    /// others are still converted.
    @Test func unknownStringsAreNeverRelabelled() {
        var forecast = Forecast(
            hours: [.init(time: Date(timeIntervalSince1970: 0), temperature: 3, precipitation: 2)], windGusts: 5,
            seaLevelPressure: 30.1, pressureTendency: PressureTendency(change: 1.3, source: .history),
            units: .init(temperature: "degrees", precipitation: "l/m²", windGusts: "Bft", seaLevelPressure: "atm×30"))
        forecast.pressureTendency?.unit = "furlongs"
        let weather = Weather(
            temperature: 3, windSpeed: 4, units: WeatherUnits(temperature: "°C", windSpeed: "Bft"), forecast: forecast)
        let converted = weather.converted(to: Self.sailor)
        #expect(converted.temperature == 37.4 && converted.units.temperature == "°F")
        #expect(converted.windSpeed == 4 && converted.units.windSpeed == "Bft")
        #expect(converted.forecast == forecast)
    }

    /// `-0` (which Open-Meteo sends) never reaches the JSON state: not from a recorded body's
    /// series (a variant with `-0` in every forecast member), nor from a provider that sets one
    /// directly, converted or not.
    @Test func noNegativeZeroInTheStateJSON() throws {
        let body = try Fixtures.edited(Self.newYork, replacing: ["-987654": "-0", "-987655": "-0.0"]) { json in
            var hourly = json["hourly"] as! [String: Any]
            hourly["temperature_2m"] = (hourly["temperature_2m"] as! [Any]).map { _ in -987654 }
            hourly["precipitation"] = (hourly["temperature_2m"] as! [Any]).map { _ in -987655 }
            json["hourly"] = hourly
            var daily = json["daily"] as! [String: Any]
            daily["temperature_2m_max"] = (daily["temperature_2m_max"] as! [Any]).map { _ in -987654 }
            daily["temperature_2m_min"] = (daily["temperature_2m_min"] as! [Any]).map { _ in -987655 }
            json["daily"] = daily
            var current = json["current"] as! [String: Any]
            current["temperature_2m"] = -987654
            current["wind_gusts_10m"] = -987655
            json["current"] = current
        }
        func json(_ weather: Weather) throws -> String {
            String(decoding: try JSONEncoder().encode(weather), as: UTF8.self)
        }
        /// A JSON number `-0` (or `-0.0`) as a member or array value.
        func negativeZero(_ text: String) -> Bool {
            text.range(of: #"[:\[,]-0(\.0+)?[,\]}]"#, options: .regularExpression) != nil
        }
        for wanted in [UnitPreferences.metric, .imperial, Self.sailor] {
            let weather = try OpenMeteoProvider.decode(status: 200, body: body, requested: wanted)
            #expect(weather.forecast?.hours?.count == 12 && weather.forecast?.today?.high != nil)
            let text = try json(weather)
            #expect(!negativeZero(text), "\(text)")
        }
        var direct = Weather(units: WeatherUnits(temperature: "°C", windSpeed: "km/h"))
        direct.temperature = -0.0
        direct.windSpeed = -0.0
        var forecast = Forecast(
            hours: [.init(time: Date(timeIntervalSince1970: 0))], days: [.init(date: "1970-01-01", high: 1)],
            units: .init(temperature: "°C", precipitation: "mm", windGusts: "km/h", seaLevelPressure: "hPa"))
        forecast.hours?[0].temperature = -0.0
        forecast.hours?[0].precipitation = -0.0
        forecast.today?.low = -0.0
        forecast.windGusts = -0.0
        forecast.seaLevelPressure = -0.0
        direct.forecast = forecast
        #expect(negativeZero(try json(direct)))  // the check below can fail
        for wanted in [UnitPreferences.metric, .imperial] {
            let text = try json(direct.converted(to: wanted))
            #expect(!negativeZero(text), "\(text)")
        }
    }

    @Test func tendencyWithoutUnitInOldStatesIsHectopascals() throws {
        let decoded = try JSONDecoder().decode(
            PressureTendency.self, from: Data(#"{"trend":"falling","change":-2.1,"source":"hourly"}"#.utf8))
        #expect(decoded == PressureTendency(change: -2.1, source: .hourly))
        #expect(decoded.unit == "hPa")
        let encoded = String(decoding: try JSONEncoder().encode(decoded.converted(to: .mmHg)), as: UTF8.self)
        #expect(encoded.contains(#""unit":"mmHg""#) && encoded.contains(#""change":-1.5751"#))
    }

    /// The daemon's own history is kept in hPa whatever the published unit, and its tendency is
    /// published in that unit.
    @Test func historyTendencyInThePublishedUnit() {
        let start = Date(timeIntervalSince1970: 1_768_590_000)
        let store = StateStore(provider: "scripted", authorization: .authorizedAlways)
        for (hours, hPa) in [(0.0, 1020.0), (3.0, 1017.8)] {
            let weather = Weather(
                temperature: 10, time: start.addingTimeInterval(hours * 3600), units: .requested(.metric),
                forecast: Forecast(seaLevelPressure: hPa, units: .init(seaLevelPressure: "hPa")))
            store.publishWeather(weather.converted(to: .imperial), fetchedAt: start)
        }
        let tendency = store.current.weather?.forecast?.pressureTendency
        #expect(tendency?.trend == .falling && tendency?.source == .history)
        #expect(tendency?.unit == "inHg" && tendency?.change == -0.065)  // -2.2 hPa
        #expect(store.current.weather?.forecast?.seaLevelPressure == 30.0556)  // 1017.8 hPa
    }

    /// A pressure in a unit the daemon does not know is not recorded (no tendency from it).
    @Test func historyIgnoresUnknownPressureUnits() {
        let start = Date(timeIntervalSince1970: 1_768_590_000)
        let store = StateStore(provider: "scripted", authorization: .authorizedAlways)
        for hours in [0.0, 3.0] {
            store.publishWeather(
                Weather(
                    time: start.addingTimeInterval(hours * 3600), units: .requested(.metric),
                    forecast: Forecast(seaLevelPressure: 1020 - hours, units: .init(seaLevelPressure: "bananas"))),
                fetchedAt: start)
        }
        #expect(store.current.weather?.forecast?.pressureTendency == nil)
    }
}
