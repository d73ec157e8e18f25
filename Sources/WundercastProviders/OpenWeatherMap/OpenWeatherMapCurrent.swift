#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WundercastModel

/// What one `/data/2.5/weather` answer says, converted to the units of `Units=`; the provider
/// joins it with the forecast (``OpenWeatherMapProvider/weather(current:forecast:)``).
///
/// Sources (units per ``OpenWeatherMapUnits``; every block but `main` may be missing):
/// - `weather` ← `main.temp`, `main.feels_like`, `main.humidity`, `wind.speed`, `wind.deg`,
///   `dt`; `openWeatherMapID`, `condition` (in `lang`), `isDay` ← the first entry of the
///   `weather` array, OpenWeatherMap's primary condition (others are ignored; an empty array
///   gives no condition); `isDay` from its icon's `d`/`n`, else computed from the sun at the
///   place and `dt` (``Sun/isDay(at:time:)``).
/// - `windGusts` ← `wind.gust`; `seaLevelPressure` ← `main.sea_level`, else `main.pressure`
///   (documented as sea-level pressure), hPa; `clock`: `utcOffsetSeconds` ← `timezone`,
///   `sunrise`, `sunset` ← `sys.sunrise`, `sys.sunset`.
/// - Not published: `rain`/`snow` (`1h`), `visibility`, `clouds`, `main.grnd_level`.
public struct OpenWeatherMapCurrent: Sendable, Equatable {
    /// The current weather, without a forecast.
    public var weather: Weather
    public var windGusts: Double?
    public var seaLevelPressure: Double?
    /// `timezone`, `sys.sunrise`, `sys.sunset`.
    public var clock: OpenWeatherMapClock

    /// Decodes a `/data/2.5/weather` answer (see ``OpenWeatherMapBody/object(_:)``
    /// for the failures a status, a non-JSON body or a `cod` give). Values are in `asked` units
    /// (what the request's `units=` said; `standard`, Kelvin, when it said none) and come out
    /// in `units`. `coordinate` is the place asked for (for the sun when the icon gives no day
    /// or night), else the body's `coord`.
    ///
    /// - Throws: ``WeatherError/decoding(message:)`` naming the member when `main` is missing,
    ///   or a member has the wrong type (`timezone` must be whole seconds within ±18 h).
    public init(
        _ response: HTTPResponse, asked: OpenWeatherMapUnits, units: UnitSystem, coordinate: Coordinate? = nil
    ) throws(WeatherError) {
        let root = try OpenWeatherMapBody.object(response)
        guard let main = try root.object("main") else { throw .decoding(message: "missing member 'main'") }
        let wind = try root.object("wind")
        let sys = try root.object("sys")
        let time = try root.instant("dt")
        let condition = try OpenWeatherMapCondition(root)
        let bodyPlace = try root.object("coord")?.coordinate()
        let place = coordinate ?? bodyPlace
        func temperature(_ key: String) throws(WeatherError) -> Double? {
            try main.number(key).map { asked.temperature($0, in: units) }
        }
        var weather = Weather(
            temperature: try temperature("temp"), apparentTemperature: try temperature("feels_like"),
            relativeHumidity: try main.number("humidity"),
            windSpeed: try wind?.number("speed").map { asked.windSpeed($0, in: units) },
            windDirection: try wind?.number("deg"), weatherCode: nil,
            isDay: condition.isDay(at: place, time: time, partOfDay: nil), time: time,
            units: WeatherUnits.requested(units))
        condition.apply(to: &weather)
        self.weather = weather
        windGusts = try wind?.number("gust").map { Weather.noNegativeZero(asked.windSpeed($0, in: units)) }
        let seaLevel = try main.number("sea_level")
        let pressure = try main.number("pressure")
        seaLevelPressure = (seaLevel ?? pressure).map(Weather.noNegativeZero)
        clock = try OpenWeatherMapClock(offsetIn: root, sunIn: sys)
    }
}
