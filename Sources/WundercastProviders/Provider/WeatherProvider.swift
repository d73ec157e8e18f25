import WundercastSupport
import WundercastModel

/// A source of current weather for a coordinate (Open-Meteo, OpenWeatherMap, MET Norway).
public protocol WeatherProvider: Sendable {
    /// Short provider name as published in the state's `provider` member, e.g. `"open-meteo"`.
    var name: String { get }
    /// The secret values the provider sends (an API key in its URLs), or ``Secrets/none``.
    /// The provider redacts its answers with them where they enter (``RedactingHTTPClient``:
    /// body, headers and error texts, before decoding), so neither its weather nor its errors
    /// carry them; the daemon redacts its log lines and the kept state file with them too.
    /// Required, with no default, so that a provider with a key cannot forget it.
    var secrets: Secrets { get }
    /// Fetches the current weather at `coordinate`, which the caller has already rounded to
    /// the configured precision, in the configured ``UnitPreferences``: labelled with the unit
    /// strings of the answer, then ``Weather/converted(to:)``. Throws ``WeatherError``; honours
    /// task cancellation.
    func currentWeather(at coordinate: Coordinate) async throws(WeatherError) -> Weather
}
