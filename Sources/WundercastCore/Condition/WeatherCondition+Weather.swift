/// The condition of published weather in the one model, whichever code the provider gave:
/// the WMO code (Open-Meteo) or the MET Norway symbol code. The bar formats read it here.
extension Weather {
    /// From ``weatherCode`` when there is one, else from ``symbolCode``; ``WeatherCondition/Kind/unknown``
    /// when neither is known.
    public var weatherCondition: WeatherCondition {
        WeatherCondition(weatherCode: weatherCode, symbolCode: symbolCode)
    }
}

extension Forecast.Hour {
    /// As ``Weather/weatherCondition``.
    public var weatherCondition: WeatherCondition {
        WeatherCondition(weatherCode: weatherCode, symbolCode: symbolCode)
    }
}

extension WeatherCondition {
    /// The WMO code's condition, else the MET Norway symbol's.
    init(weatherCode: Int?, symbolCode: String?) {
        if weatherCode == nil, let symbolCode {
            self.init(metNorwaySymbolCode: symbolCode)
        } else {
            self.init(wmoCode: weatherCode)
        }
    }

    /// `condition` and `icon` of ``Weather`` and ``Forecast/Hour``: for a WMO code its English
    /// text and icon (``WMOWeatherCode``); for a known MET Norway symbol the kind's name and
    /// ``freedesktopIcon(isDay:)``; `nil` for unknown codes (the faces then show a generic icon).
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

extension WeatherCondition.Kind {
    /// Icon name from the freedesktop icon naming spec, by day or night, as ``WMOWeatherCode/icon(of:isDay:)``
    /// gives for the WMO codes of the same kind; `nil` for ``unknown``.
    public func freedesktopIcon(isDay: Bool) -> String? {
        switch self {
        case .clear, .mainlyClear: isDay ? "weather-clear" : "weather-clear-night"
        case .partlyCloudy: isDay ? "weather-few-clouds" : "weather-few-clouds-night"
        case .overcast: "weather-overcast"
        case .fog, .haze, .dust: "weather-fog"
        case .drizzle, .freezingDrizzle, .lightRain, .showers: "weather-showers-scattered"
        case .rain, .heavyRain, .freezingRain: "weather-showers"
        case .snow, .snowGrains, .snowShowers, .sleet: "weather-snow"
        case .thunderstorm, .thunderstormWithHail: "weather-storm"
        case .squall, .tornado: "weather-severe-alert"
        case .unknown: nil
        }
    }
}
