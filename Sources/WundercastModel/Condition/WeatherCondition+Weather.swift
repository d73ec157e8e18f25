extension WeatherCondition {
    /// `condition` and `icon` of ``Weather`` and ``Forecast/Hour`` from the code the provider
    /// gave: for a WMO code its English text and icon (``WMOWeatherCode``); for a known MET
    /// Norway symbol the kind's name and ``Kind/freedesktopIcon(isDay:)``; `nil` for unknown
    /// codes (the faces then show a generic icon). OpenWeatherMap sets both itself
    /// (``OpenWeatherMapCondition``).
    static func texts(weatherCode: Int?, symbolCode: String?, isDay: Bool?) -> (condition: String?, icon: String?) {
        if let weatherCode {
            return (
                WMOWeatherCode.description(of: weatherCode), WMOWeatherCode.icon(of: weatherCode, isDay: isDay ?? true)
            )
        }
        let kind = WeatherCondition(metNorwaySymbolCode: symbolCode).kind
        guard kind != .unknown else { return (nil, nil) }
        return (kind.name, kind.freedesktopIcon(isDay: isDay ?? true))
    }
}
