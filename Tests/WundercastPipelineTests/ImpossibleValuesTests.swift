import Foundation
import Testing
import WundercastModel
import WundercastPipeline
import WundercastProviders
import WundercastTestSupport

/// Values no weather has are left out where a provider's answer is converted
/// (``Weather/published(in:)``, in the answer's own units), in any unit; plausible ones,
/// extremes included, stay as given.
@Suite struct ImpossibleValuesTests {
    static func hour(
        _ temperature: Double?, probability: Double?, amount: Double?,
        time: Date = Date(timeIntervalSince1970: 1_700_000_000)
    ) -> Forecast.Hour {
        Forecast.Hour(
            time: time, temperature: temperature, precipitationProbability: probability, precipitation: amount)
    }

    static func weather(units: WeatherUnits) -> Weather {
        var weather = Weather(
            temperature: 298, apparentTemperature: -40, relativeHumidity: 250, windSpeed: -5, windDirection: 720,
            weatherCode: 0, isDay: true, units: units)
        var forecast = Forecast(units: .init(temperature: units.temperature, precipitation: "mm"))
        forecast.hours = [hour(20, probability: 250, amount: 1e9), hour(-30, probability: 40, amount: 0.4)]
        forecast.windGusts = -3
        forecast.units.windGusts = units.windSpeed
        forecast.seaLevelPressure = 1e6
        forecast.units.seaLevelPressure = "hPa"
        forecast.pressureTendency = PressureTendency(change: 1.2, source: .hourly)
        forecast.days = [.init(date: "2026-01-01", high: 120, low: -120)]
        weather.forecast = forecast
        return weather
    }

    /// A high below the low: one of them is wrong, which cannot be told, so neither is kept.
    @Test func anInvertedHighAndLowAreBothLeftOut() throws {
        var weather = Self.weather(units: .requested(.metric))
        weather.forecast?.days = [
            .init(date: "2026-01-01", high: 3, low: 10), .init(date: "2026-01-02", high: 10, low: 3),
        ]
        let days = weather.withoutImpossibleValues().forecast?.days
        #expect(days?[0].high == nil && days?[0].low == nil)
        #expect(days?[1].high == 10 && days?[1].low == 3)
    }

    @Test func impossibleValuesAreLeftOutPossibleOnesKept() throws {
        let clean = Self.weather(units: .requested(.metric)).withoutImpossibleValues()
        #expect(clean.temperature == nil, "298 °C")
        #expect(clean.apparentTemperature == -40)
        #expect(clean.relativeHumidity == nil && clean.windSpeed == nil && clean.windDirection == nil)
        let forecast = try #require(clean.forecast)
        #expect(forecast.hours?.map(\.temperature) == [20, -30])
        #expect(forecast.hours?.map(\.precipitationProbability) == [nil, 40])
        #expect(forecast.hours?.map(\.precipitation) == [nil, 0.4])
        #expect(forecast.windGusts == nil)
        #expect(forecast.seaLevelPressure == nil && forecast.pressureTendency == nil)
        #expect(forecast.today?.high == nil && forecast.today?.low == nil)
    }

    /// A time before 2000 or from 2100 on (a clock never set, a hostile year −1199) is left
    /// out: the observation time, sunrise and sunset; a forecast hour at such a time is dropped.
    /// The edges are kept.
    @Test func timesOutsideTheCenturyAreLeftOut() throws {
        let edges = Weather.plausibleTimes
        for (time, kept) in [
            (Date(timeIntervalSince1970: -99_999_999_999), false), (Date(timeIntervalSince1970: 0), false),
            (edges.lowerBound, true), (Date(timeIntervalSince1970: 1_700_000_000), true), (edges.upperBound, true),
            (edges.upperBound.addingTimeInterval(1), false), (Date(timeIntervalSince1970: 1e12), false),
        ] {
            var weather = Weather(temperature: 3, time: time, units: .requested(.metric))
            var forecast = Forecast(units: .init(temperature: "°C"))
            forecast.hours = [
                Self.hour(1, probability: nil, amount: nil, time: time), Self.hour(2, probability: nil, amount: nil),
            ]
            forecast.days = [.init(date: "2026-12-02", sunrise: time, sunset: time)]
            weather.forecast = forecast
            let clean = weather.withoutImpossibleValues()
            #expect((clean.time != nil) == kept, "\(time)")
            #expect(clean.forecast?.hours?.map(\.temperature) == (kept ? [1, 2] : [2]), "\(time)")
            #expect((clean.forecast?.today?.sunrise != nil) == kept && (clean.forecast?.today?.sunset != nil) == kept)
            #expect(clean.temperature == 3)
        }
    }

    /// A day dated outside the century (a provider's clock at 2200 or 1900) is no coming day:
    /// it is dropped, as a forecast hour at such a time is; the edges are kept.
    @Test func daysOutsideTheCenturyAreDropped() throws {
        var forecast = Forecast(units: .init(temperature: "°C"))
        forecast.days = ["1999-12-31", "2000-01-01", "2026-12-06", "2099-12-31", "2100-01-01", "2200-03-01", "soon"]
            .map { Forecast.Day(date: $0, high: 5) }
        #expect(forecast.withoutImpossibleValues().days?.map(\.date) == ["2000-01-01", "2026-12-06", "2099-12-31"])
    }

    /// The wind's direction goes with an impossible speed (now and a day's strongest); given
    /// without a speed it stays.
    @Test func aDirectionGoesWithAnImpossibleSpeed() throws {
        let impossible = Weather(temperature: 3, windSpeed: 600, windDirection: 270, units: .requested(.metric))
        #expect(impossible.withoutImpossibleValues().windDirection == nil)
        let alone = Weather(temperature: 3, windDirection: 270, units: .requested(.metric))
        #expect(alone.withoutImpossibleValues().windDirection == 270)
    }

    /// Values at the limits, converted and rounded to 4 decimals (150 m/s is 291.5767 kn; 1100 hPa
    /// 32.4830 inHg; 1000 mm 39.3701 in), are still possible when the state is read back (a
    /// restart must not set aside the weather it kept).
    @Test func limitsSurviveConversionAndRounding() throws {
        var weather = Weather(temperature: 3, windSpeed: 291.5767, units: .requested(.metric))
        weather.units.windSpeed = "kn"
        var forecast = Forecast(units: .init(precipitation: "inch", seaLevelPressure: "inHg"))
        forecast.hours = [Self.hour(nil, probability: nil, amount: 39.3701)]
        forecast.seaLevelPressure = 32.4830
        weather.forecast = forecast
        #expect(weather.withoutImpossibleValues() == weather)
        weather.windSpeed = 291.6
        #expect(weather.withoutImpossibleValues().windSpeed == nil, "150.01 m/s")
    }

    @Test func theUnitDecides() {
        // 298 K is 24.85 °C: kept; 120 °F is 48.9 °C: kept; 300 km/h is 83 m/s: kept.
        var kelvin = Weather(temperature: 298, windSpeed: 300, units: WeatherUnits(temperature: "K", windSpeed: "km/h"))
        kelvin = kelvin.withoutImpossibleValues()
        #expect(kelvin.temperature == 298 && kelvin.windSpeed == 300)
        let hot = Weather(temperature: 120, units: WeatherUnits(temperature: "°F", windSpeed: "mph"))
        #expect(hot.withoutImpossibleValues().temperature == 120)
        let unknown = Weather(temperature: 500, units: WeatherUnits(temperature: "gradus", windSpeed: "?"))
        #expect(unknown.withoutImpossibleValues().temperature == 500, "an unknown unit is not judged")
    }

    @Test func theProviderLeavesThemOut() async throws {
        let provider = ScriptedWeatherProvider()
        let queue = ProviderQueue(UnitConvertingProvider(provider, to: .metric))
        async let answer = queue.currentWeather(at: Coordinate(latitude: 1, longitude: 2))
        try await provider.waitForRequests(1)
        provider.answerNext(with: .success(Self.weather(units: .requested(.metric))))
        let weather = try await answer
        #expect(weather.relativeHumidity == nil && weather.forecast?.seaLevelPressure == nil)
    }

    /// An answer whose every measured value is impossible is not weather: a decoding error (the
    /// last good weather stays, stale), not fresh weather with nothing in it.
    @Test func anAnswerWithNoPossibleValueIsADecodingError() async throws {
        var nothing = Self.weather(units: .requested(.metric))
        nothing.apparentTemperature = 999
        nothing.weatherCode = nil
        #expect(throws: WeatherError.self) { try nothing.checkedForImpossibleValues() }
        let provider = ScriptedWeatherProvider()
        let queue = ProviderQueue(UnitConvertingProvider(provider, to: .metric))
        async let answer = queue.currentWeather(at: Coordinate(latitude: 1, longitude: 2))
        try await provider.waitForRequests(1)
        provider.answerNext(with: .success(nothing))
        do {
            _ = try await answer
            Issue.record("an answer without a possible value was taken")
        } catch {
            #expect((error as? WeatherError)?.kind == .decoding, "\(error)")
        }
        // One possible value (or a condition) is enough to be weather.
        var one = nothing
        one.relativeHumidity = 50
        #expect(try one.checkedForImpossibleValues().relativeHumidity == 50)
        var coded = nothing
        coded.weatherCode = 3
        #expect(try coded.checkedForImpossibleValues().weatherCode == 3)
        // An answer with every value missing is no weather either.
        #expect(throws: WeatherError.self) {
            try Weather(units: WeatherUnits(temperature: "°C", windSpeed: "km/h")).checkedForImpossibleValues()
        }
    }
}
