#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WundercastSupport
import WundercastModel

/// Current weather and its forecast from OpenWeatherMap 2.5: **two** requests per fetch,
/// `GET /data/2.5/weather` (current) then `GET /data/2.5/forecast` (3-hourly steps), both with
/// `lat`, `lon`, `units` (`metric` or `imperial` after `Units=`), `lang` and `appid`, the key.
///
/// Both requests run inside one ``currentWeather(at:)``, so the ``ProviderQueue`` serves them
/// as one turn: no other request of the daemon comes between them. The forecast is asked only
/// after the current weather arrived, and a failure of either fails the fetch with that
/// failure (its kind, back-off and `Retry-After` apply; the state keeps the last good weather).
///
/// ``Weather`` members and their sources: ``OpenWeatherMapCurrent`` and
/// ``OpenWeatherMapForecastList``; how they are joined: ``weather(current:forecast:)``.
///
/// The key is the provider's ``secrets``: every answer is redacted with them as it arrives
/// (``RedactingHTTPClient`` around the client given: body, headers, error texts), before it is
/// decoded or cut, so no member of the weather or text of an error can carry the key or a part
/// of it. The daemon's logger redacts its own lines with them too.
public struct OpenWeatherMapProvider: WeatherProvider {
    /// `"openweathermap"`.
    public var name: String { WeatherProviderID.openWeatherMap.rawValue }
    /// The API key.
    public var secrets: Secrets { http.secrets }
    /// Base URL without a trailing slash, e.g. `https://api.openweathermap.org`.
    public let baseURL: String
    /// The units published (°C and km/h, or °F and mph); asked as `units=metric|imperial`.
    public let units: UnitSystem
    /// `lang=`, an ``OpenWeatherMapLanguage`` code chosen by `[Weather] Language=`; `nil`: not
    /// chosen, asked as `lang=en`. A chosen one is published as `weather.conditionLanguage`.
    public let language: String?
    /// The client given, inside a ``RedactingHTTPClient`` with ``secrets``.
    public let http: RedactingHTTPClient
    private let apiKey: String

    /// How many local days to publish at most (`[Weather] Days=`); the free forecast reaches 5.
    public let days: Int

    /// Steps of the forecast asked for (`cnt`): 8 per day (3 h each) for ``days`` days and the
    /// rest of today, at most 40 (the whole 5-day list): with the default 3 days, 32 steps.
    public var forecastSteps: Int { min(40, 8 * days + 8) }
    /// Decimal places printed for coordinates at most (they arrive rounded to `Precision=`).
    public static let maxCoordinateDecimals = 6

    public init(
        baseURL: String, apiKey: String, units: UnitSystem, language: String? = nil, http: any HTTPClient,
        days: Int = Forecast.defaultDays
    ) {
        self.days = Forecast.dayCount(days)
        var base = baseURL
        while base.hasSuffix("/") { base.removeLast() }
        self.baseURL = base
        self.apiKey = apiKey
        self.units = units
        self.language = language
        self.http = RedactingHTTPClient(http, secrets: Secrets([apiKey]))
    }

    /// `<base>/data/2.5/weather?lat=44.34&lon=10.99&units=metric&lang=en&appid=KEY`.
    public func currentURL(for coordinate: Coordinate) -> String {
        baseURL + "/data/2.5/weather?" + query(coordinate)
    }

    /// `<base>/data/2.5/forecast?lat=44.34&lon=10.99&units=metric&lang=en&cnt=32&appid=KEY` (``forecastSteps``).
    public func forecastURL(for coordinate: Coordinate) -> String {
        baseURL + "/data/2.5/forecast?" + query(coordinate, extra: "&cnt=\(forecastSteps)")
    }

    private func query(_ coordinate: Coordinate, extra: String = "") -> String {
        let latitude = Coordinate.text(coordinate.latitude, decimals: Self.maxCoordinateDecimals)
        let longitude = Coordinate.text(coordinate.longitude, decimals: Self.maxCoordinateDecimals)
        return "lat=\(latitude)&lon=\(longitude)&units=\(OpenWeatherMapUnits(units).rawValue)"
            + "&lang=\(Secrets.percentEncoded(language ?? "en"))" + extra + "&appid=\(Secrets.percentEncoded(apiKey))"
    }

    /// GETs ``currentURL(for:)``, then ``forecastURL(for:)``, and joins the two answers. A
    /// non-2xx answer throws ``WeatherError/http(status:reason:retryAfter:)`` with its
    /// `Retry-After` in seconds when sent; see ``OpenWeatherMapCurrent`` for the others.
    public func currentWeather(at coordinate: Coordinate) async throws(WeatherError) -> Weather {
        let asked = OpenWeatherMapUnits(units)
        let current = try await fetch(currentURL(for: coordinate)) { response throws(WeatherError) in
            try OpenWeatherMapCurrent(response, asked: asked, units: units, coordinate: coordinate)
        }
        let forecast = try await fetch(forecastURL(for: coordinate)) { response throws(WeatherError) in
            try OpenWeatherMapForecastList(response, asked: asked, units: units, coordinate: coordinate)
        }
        var weather = Self.weather(current: current, forecast: forecast, days: days)
        weather.conditionLanguage = language
        return weather
    }

    private func fetch<T>(
        _ url: String, _ decode: (HTTPResponse) throws(WeatherError) -> T
    ) async throws(WeatherError) -> T {
        if Task.isCancelled { throw .cancelled }
        let response = try await http.get(url, headers: ["Accept": "application/json"])
        do {
            return try decode(response)
        } catch .http(let status, let reason, _) {
            let retryAfter =
                response.retryAfter ?? response.headers["retry-after"].flatMap(OpenMeteoProvider.retryAfterSeconds)
            throw .http(status: status, reason: reason, retryAfter: retryAfter)
        }
    }
}
