/// The weather providers of `[Weather] Provider=`, by their configuration names.
public enum WeatherProviderKind: String, Sendable, Equatable, CaseIterable {
    /// Open-Meteo (no key): ``OpenMeteoProvider``.
    case openMeteo = "open-meteo"
    /// OpenWeatherMap 2.5 (an API key).
    case openWeatherMap = "openweathermap"
    /// MET Norway locationforecast 2.0 compact (no key; `[Weather] Contact=` required):
    /// ``MetNorwayProvider``.
    case metNorway = "metno"

    /// The base URL used when `[Weather] URL=` is not set.
    public var defaultURL: String {
        switch self {
        case .openMeteo: "https://api.open-meteo.com"
        case .openWeatherMap: "https://api.openweathermap.org"
        case .metNorway: MetNorwayProvider.defaultBaseURL
        }
    }
}
