/// The alert sources `[Alerts] Sources=` chooses among; the raw value is the config value and
/// the `alerts.source` member of the state.
public enum AlertSourceID: String, Sendable, Codable, CaseIterable, Comparable {
    /// The US National Weather Service's API (`api.weather.gov/alerts/active?point=`).
    case nws
    /// MET Norway's MetAlerts 2.0 (`api.met.no/weatherapi/metalerts/2.0/current.json`).
    case metAlerts = "metalerts"
    /// Deutscher Wetterdienst's warnings through Bright Sky (`api.brightsky.dev/alerts`), a
    /// third-party service mirroring DWD.
    case brightSky = "brightsky"
    /// Environment and Climate Change Canada's `weather-alerts` collection (`api.weather.gc.ca`).
    case eccc

    public static func < (a: Self, b: Self) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }

    /// The base URL each source's `[Alerts] …URL=` defaults to.
    public var defaultURL: String {
        switch self {
        case .nws: "https://api.weather.gov"
        case .metAlerts: "https://api.met.no"
        case .brightSky: "https://api.brightsky.dev"
        case .eccc: "https://api.weather.gc.ca"
        }
    }

    /// Who is sent the position (README's privacy note).
    public var recipient: String {
        switch self {
        case .nws: "the US National Weather Service (api.weather.gov)"
        case .metAlerts: "MET Norway (api.met.no)"
        case .brightSky: "Bright Sky (api.brightsky.dev), a third-party mirror of Deutscher Wetterdienst"
        case .eccc: "Environment and Climate Change Canada (api.weather.gc.ca)"
        }
    }
}
