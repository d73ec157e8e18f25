/// The weather providers `[Weather] Provider=` chooses among; the raw value is the config
/// value and the state's `provider` member.
public enum WeatherProviderID: String, Sendable, Equatable, CaseIterable {
    /// Open-Meteo's forecast API: no key, current, hourly and daily values in one request.
    case openMeteo = "open-meteo"
    /// OpenWeatherMap 2.5 (`/data/2.5/weather` and `/data/2.5/forecast`): needs an API key
    /// (`APIKeyFile=` or systemd's `LoadCredential=openweathermap:PATH`).
    case openWeatherMap = "openweathermap"
    /// MET Norway's locationforecast 2.0: no key, an identifying User-Agent.
    case metNorway = "metno"

    /// The base URL `[Weather] URL=` defaults to for this provider.
    public var defaultURL: String {
        switch self {
        case .openMeteo: "https://api.open-meteo.com"
        case .openWeatherMap: "https://api.openweathermap.org"
        case .metNorway: "https://api.met.no"
        }
    }
}
