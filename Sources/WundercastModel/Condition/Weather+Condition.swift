/// The one condition model for whatever code the provider sent: faces and icons read
/// ``Weather/conditionModel`` and never the provider's code themselves.
extension Weather {
    /// The condition of ``weatherCode`` (WMO) when there is one, else of ``openWeatherMapID``,
    /// else of ``symbolCode`` (MET Norway); ``WeatherCondition/Kind/unknown`` when the provider
    /// sent none.
    public var conditionModel: WeatherCondition {
        WeatherCondition.of(wmoCode: weatherCode, openWeatherMapID: openWeatherMapID, symbolCode: symbolCode)
    }

    /// Whether the provider sent a condition code of any kind.
    public var hasConditionCode: Bool { weatherCode != nil || openWeatherMapID != nil || symbolCode != nil }

    /// The English name of the condition the provider's code stands for, the msgid a reader
    /// translates (``WeatherCondition/name(wmoCode:openWeatherMapID:symbolCode:)``); `nil`
    /// without a code or for one the model does not know.
    public var conditionName: String? {
        WeatherCondition.name(wmoCode: weatherCode, openWeatherMapID: openWeatherMapID, symbolCode: symbolCode)
    }
}

extension Forecast.Hour {
    /// As ``Weather/conditionModel``, for the hour.
    public var conditionModel: WeatherCondition {
        WeatherCondition.of(wmoCode: weatherCode, openWeatherMapID: openWeatherMapID, symbolCode: symbolCode)
    }

    /// Whether the provider sent a condition code of any kind for the hour.
    public var hasConditionCode: Bool { weatherCode != nil || openWeatherMapID != nil || symbolCode != nil }

    /// As ``Weather/conditionName``, for the hour.
    public var conditionName: String? {
        WeatherCondition.name(wmoCode: weatherCode, openWeatherMapID: openWeatherMapID, symbolCode: symbolCode)
    }
}

extension Forecast.Day {
    /// As ``Weather/hasConditionCode``, for the day.
    public var hasConditionCode: Bool { weatherCode != nil || openWeatherMapID != nil || symbolCode != nil }

    /// As ``Weather/conditionModel``, for the day.
    public var conditionModel: WeatherCondition {
        WeatherCondition.of(wmoCode: weatherCode, openWeatherMapID: openWeatherMapID, symbolCode: symbolCode)
    }

    /// As ``Weather/conditionName``, for the day.
    public var conditionName: String? {
        WeatherCondition.name(wmoCode: weatherCode, openWeatherMapID: openWeatherMapID, symbolCode: symbolCode)
    }
}

extension WeatherCondition {
    /// The WMO code's condition, else the OpenWeatherMap id's, else the MET Norway symbol's.
    static func of(wmoCode: Int?, openWeatherMapID: Int?, symbolCode: String?) -> WeatherCondition {
        if let wmoCode { return WeatherCondition(wmoCode: wmoCode) }
        if let openWeatherMapID { return WeatherCondition(openWeatherMapID: openWeatherMapID) }
        return WeatherCondition(metNorwaySymbolCode: symbolCode)
    }

    /// The English name of a provider's condition code, the same for every language it is
    /// shown in: for a WMO code in Open-Meteo's table its text there (`Slight rain showers`,
    /// ``WMOWeatherCode/description(of:)``), else the condition model's kind's name (`Showers`,
    /// ``Kind/name``) — OpenWeatherMap ids and MET Norway symbols have only the kind. `nil`
    /// without a code, or for one whose kind is ``Kind/unknown``.
    public static func name(wmoCode: Int?, openWeatherMapID: Int?, symbolCode: String?) -> String? {
        if let wmoCode, let text = WMOWeatherCode.description(of: wmoCode) { return text }
        guard wmoCode != nil || openWeatherMapID != nil || symbolCode != nil else { return nil }
        let kind = of(wmoCode: wmoCode, openWeatherMapID: openWeatherMapID, symbolCode: symbolCode).kind
        return kind == .unknown ? nil : kind.name
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
