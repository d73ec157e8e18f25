import WundercastSupport

/// One model of the weather's condition, whichever provider reported it: WMO weather
/// interpretation codes (WMO 4677 `ww`, 0–99; Open-Meteo's `weather_code`), OpenWeatherMap
/// condition ids (``init(openWeatherMapID:)``) and MET Norway symbol codes
/// (``init(metNorwaySymbolCode:)``) all map into the same kinds.
///
/// Every code maps without failing: a code outside the tables is ``Kind/unknown`` and gets the
/// generic icon.
public struct WeatherCondition: Sendable, Equatable, Hashable {
    /// What the sky does, coarse enough for one icon.
    public enum Kind: String, Sendable, CaseIterable, Codable {
        case clear, mainlyClear, partlyCloudy, overcast, fog
        case drizzle, freezingDrizzle
        case lightRain, rain, heavyRain, freezingRain
        case snow, snowGrains
        case showers, snowShowers
        case thunderstorm, thunderstormWithHail
        /// Rain and snow together (MET Norway `sleet`, OpenWeatherMap 611–616).
        case sleet
        /// Haze or smoke (OpenWeatherMap 711, 721).
        case haze
        /// Dust, sand or volcanic ash in the air (OpenWeatherMap 731, 751, 761, 762).
        case dust
        /// Squalls (OpenWeatherMap 771).
        case squall
        /// Tornado (OpenWeatherMap 781).
        case tornado
        case unknown

        /// English name, e.g. `Partly cloudy` (a message of wundercastctl's catalogue,
        /// ``WundercastSupport/N_(_:)``): the condition's name where no WMO code gives a finer one
        /// (``Weather/conditionName``).
        public var name: String {
            switch self {
            case .clear: N_("Clear")
            case .mainlyClear: N_("Mainly clear")
            case .partlyCloudy: N_("Partly cloudy")
            case .overcast: N_("Overcast")
            case .fog: N_("Fog")
            case .drizzle: N_("Drizzle")
            case .freezingDrizzle: N_("Freezing drizzle")
            case .lightRain: N_("Light rain")
            case .rain: N_("Rain")
            case .heavyRain: N_("Heavy rain")
            case .freezingRain: N_("Freezing rain")
            case .snow: N_("Snow")
            case .snowGrains: N_("Snow grains")
            case .showers: N_("Showers")
            case .snowShowers: N_("Snow showers")
            case .thunderstorm: N_("Thunderstorm")
            case .thunderstormWithHail: N_("Thunderstorm with hail")
            case .sleet: N_("Sleet")
            case .haze: N_("Haze")
            case .dust: N_("Dust")
            case .squall: N_("Squalls")
            case .tornado: N_("Tornado")
            case .unknown: N_("Unknown")
            }
        }
    }

    public var kind: Kind
    /// Weather a bar should call attention to (i3blocks exit 33, `Critical`, class `severe`):
    /// heavy rain, snow or sleet, freezing rain, violent showers, thunder, squalls and
    /// tornadoes. WMO: 65, 67, 75, 82, 86, 95–99; OpenWeatherMap and MET Norway: see their
    /// initializers.
    public var isSevere: Bool

    public init(kind: Kind, isSevere: Bool = false) {
        self.kind = kind
        self.isSevere = isSevere
    }

    /// The WMO codes that count as severe (see ``isSevere``).
    public static let severeWMOCodes: Set<Int> = [65, 67, 75, 82, 86, 95, 96, 97, 98, 99]

    /// The condition of WMO weather code `code` (Source: Open-Meteo `current.weather_code`);
    /// `nil` gives ``Kind/unknown``.
    ///
    /// Open-Meteo uses 0–3, 45, 48, 51–57, 61–67, 71–77, 80–82, 85, 86, 95, 96, 99; the other
    /// codes of WMO 4677 that describe present weather map to the nearest kind (40–49 fog,
    /// 50–59 drizzle, 60–69 rain, 70–79 snow, 85–86 snow showers, 80–90 otherwise showers, 91–99 thunderstorms, 17
    /// thunderstorm); codes for haze, dust and past weather (4–39 otherwise) are unknown.
    public init(wmoCode code: Int?) {
        guard let code else {
            self.init(kind: .unknown)
            return
        }
        self.init(kind: Self.kind(ofWMOCode: code), isSevere: Self.severeWMOCodes.contains(code))
    }

    static func kind(ofWMOCode code: Int) -> Kind {
        switch code {
        case 0: .clear
        case 1: .mainlyClear
        case 2: .partlyCloudy
        case 3: .overcast
        case 17: .thunderstorm
        case 40...49: .fog
        case 56, 57: .freezingDrizzle
        case 50...59: .drizzle
        case 60, 61: .lightRain
        case 62, 63: .rain
        case 64, 65: .heavyRain
        case 66, 67: .freezingRain
        case 68, 69: .snow  // rain and snow (sleet)
        case 76...79: .snowGrains  // ice prisms, snow grains, star-like crystals, ice pellets
        case 70...75: .snow
        case 85, 86: .snowShowers
        case 80...90: .showers  // rain, rain and snow, hail showers
        case 96, 99: .thunderstormWithHail
        case 91...99: .thunderstorm
        default: .unknown
        }
    }
}
