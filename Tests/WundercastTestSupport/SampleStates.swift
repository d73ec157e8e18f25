import Foundation
import WundercastModel
import WundercastProtocol

/// `WEATHER` states for format and `wundercastctl` tests, built as the daemon builds them.
public enum SampleStates {
    /// A fixed wall-clock time the samples are stamped against.
    public static let now = Date(timeIntervalSince1970: 1_800_000_000)

    /// Weather with WMO code `code`, fetched `fetchedAgo` seconds before `now`, at 49.12,12.2
    /// with the nearest place 12.4 km NE of Regensburg.
    public static func weather(
        code: Int? = 0, isDay: Bool = true, status: WeatherState.Status = .fresh, temperature: Double? = -5.3,
        condition: String? = nil, error: WeatherState.ErrorInfo? = nil, fetchedAgo: TimeInterval = 120,
        now: Date = SampleStates.now,
        place: WeatherState.Place? = WeatherState.Place(
            name: "Regensburg", region: "Bavaria", country: "DE", distance: 12_400, bearing: "NE",
            timeZone: "Europe/Berlin")
    ) -> WeatherState {
        var state = WeatherState(status: status, provider: "open-meteo", authorization: .authorizedAlways)
        var weather = Weather(
            temperature: temperature, apparentTemperature: -9.2, relativeHumidity: 72, windSpeed: 4.7,
            windDirection: 81, weatherCode: code, isDay: isDay, time: now.addingTimeInterval(-fetchedAgo),
            units: WeatherUnits(temperature: "°C", windSpeed: "km/h"))
        if let condition { weather.condition = condition }
        state.weather = weather
        state.fetchedAt = now.addingTimeInterval(-fetchedAgo)
        var location = WeatherState.Location(
            latitude: 49.12, longitude: 12.2, mode: 3, source: .gpsd, receivedAt: now.addingTimeInterval(-3))
        location.status = .current
        location.place = place
        state.location = location
        state.error = error
        return state
    }

    /// An invented forecast with every member, for the observation time `observed`, in Central
    /// European Time: gusts 12.2 km/h, 1034.7 hPa rising 1.3 hPa in 3 h, 20% chance of
    /// precipitation in the next hour, today -0.2 / -9.2 °C, sunrise 07:32, sunset 17:22.
    public static func forecast(observed: Date = SampleStates.now) -> Forecast {
        let day = Forecast.localDay(of: observed, utcOffsetSeconds: 3600)
        let midnight = Date(timeIntervalSince1970: Double(day * 86_400 - 3600))
        let hours = (1...12).map {
            Forecast.Hour(
                time: observed.addingTimeInterval(Double($0) * 3600), temperature: -5.3 - Double($0) / 10,
                precipitationProbability: 20, precipitation: 0.4, weatherCode: 61, isDay: false)
        }
        return Forecast(
            hours: hours,
            days: [
                .init(
                    date: Forecast.dateText(day: day), high: -0.2, low: -9.2,
                    sunrise: midnight.addingTimeInterval(27_120),
                    sunset: midnight.addingTimeInterval(62_520)),
                .init(date: Forecast.dateText(day: day + 1), high: 2, low: -3.5),
            ],
            windGusts: 12.2, seaLevelPressure: 1034.7, pressureTendency: PressureTendency(change: 1.3, source: .hourly),
            utcOffsetSeconds: 3600,
            units: .init(
                temperature: "°C", precipitation: "mm", precipitationProbability: "%", windGusts: "km/h",
                seaLevelPressure: "hPa"))
    }

    /// A state without weather (`noLocation`, `offline`, `error`, `fetching`).
    public static func withoutWeather(
        _ status: WeatherState.Status, error: WeatherState.ErrorInfo? = nil
    )
        -> WeatherState
    {
        var state = WeatherState(status: status, provider: "open-meteo", authorization: .authorizedAlways)
        state.error = error
        return state
    }

    /// The state as the daemon sends it: one JSON line (without its newline), stamped at `now`.
    public static func line(_ state: WeatherState, now: Date = SampleStates.now) -> String {
        let bytes = SocketProtocol.line(state.stamped(now: now))
        return String(decoding: bytes.dropLast(), as: UTF8.self)
    }

    /// A provider text meant to harm: an escape sequence, a forged line, and `size` bytes more.
    public static func hostileText(size: Int = 1_000_000) -> String {
        "\u{1B}[31mEVIL\u{1B}[0m\nweather: 25°C Sunny\r\u{07}\u{9B}2J" + String(repeating: "x", count: size)
    }
}
