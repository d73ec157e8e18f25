/// The one condition model for whatever code the provider sent: faces and icons read
/// ``Weather/conditionModel`` and never the provider's code themselves.
extension Weather {
    /// The condition of ``weatherCode`` (WMO) when there is one, else of ``openWeatherMapID``;
    /// ``WeatherCondition/Kind/unknown`` when the provider sent neither.
    public var conditionModel: WeatherCondition {
        WeatherCondition.of(wmoCode: weatherCode, openWeatherMapID: openWeatherMapID)
    }

    /// Whether the provider sent a condition code of any kind.
    public var hasConditionCode: Bool { weatherCode != nil || openWeatherMapID != nil }
}

extension Forecast.Hour {
    /// As ``Weather/conditionModel``, for the hour.
    public var conditionModel: WeatherCondition {
        WeatherCondition.of(wmoCode: weatherCode, openWeatherMapID: openWeatherMapID)
    }

    /// Whether the provider sent a condition code of any kind for the hour.
    public var hasConditionCode: Bool { weatherCode != nil || openWeatherMapID != nil }
}

extension WeatherCondition {
    static func of(wmoCode: Int?, openWeatherMapID: Int?) -> WeatherCondition {
        if let wmoCode { return WeatherCondition(wmoCode: wmoCode) }
        return WeatherCondition(openWeatherMapID: openWeatherMapID)
    }
}

extension WeatherCondition.Kind {
    /// The freedesktop icon name (Icon Naming Specification, "Status Icons") of the kind by day
    /// or night, as ``WMOWeatherCode/icon(of:isDay:)`` names them for WMO codes; `nil` for
    /// ``unknown``.
    public func freedesktopIcon(isDay: Bool) -> String? {
        switch self {
        case .clear, .mainlyClear: isDay ? "weather-clear" : "weather-clear-night"
        case .partlyCloudy: isDay ? "weather-few-clouds" : "weather-few-clouds-night"
        case .overcast: "weather-overcast"
        case .fog, .haze, .dust: "weather-fog"
        case .drizzle, .freezingDrizzle, .lightRain, .showers: "weather-showers-scattered"
        case .rain, .heavyRain, .freezingRain: "weather-showers"
        case .snow, .snowGrains, .snowShowers, .sleet: "weather-snow"
        case .thunderstorm, .thunderstormWithHail, .squall: "weather-storm"
        case .tornado: "weather-severe-alert"
        case .unknown: nil
        }
    }
}
