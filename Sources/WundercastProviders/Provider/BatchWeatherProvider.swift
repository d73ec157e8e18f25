import WundercastModel

/// A provider that can answer for several coordinates in **one** HTTP request (Open-Meteo
/// takes comma-separated `latitude=` and `longitude=` lists). Optional: ``WeatherCache``
/// asks a provider without it once per coordinate, each request queued on its own.
public protocol BatchWeatherProvider: WeatherProvider {
    /// The most coordinates one ``currentWeather(atEach:)`` request may carry; 1 means the
    /// provider cannot batch at the moment (a ``ProviderQueue`` in front of a plain provider).
    var batchLimit: Int { get }
    /// The current weather at each of `coordinates` (already rounded; at most ``batchLimit``),
    /// from one request: one result per coordinate, in the same order. A cell the provider
    /// could not answer (a `null`, an error object) fails alone. Throws ``WeatherError`` when the
    /// request as a whole failed (transport, an HTTP error status, a body that is not the list
    /// asked for); honours task cancellation.
    func currentWeather(atEach coordinates: [Coordinate]) async throws(WeatherError) -> [Result<Weather, WeatherError>]
}
