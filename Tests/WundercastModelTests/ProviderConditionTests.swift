import Testing
import WundercastModel

/// OpenWeatherMap condition ids and MET Norway symbol codes in the one condition model.
@Suite struct ProviderConditionTests {
    /// OpenWeatherMap's documented condition ids ("Weather condition codes", API 2.5).
    static let openWeatherMapIDs =
        [200, 201, 202, 210, 211, 212, 221, 230, 231, 232, 300, 301, 302, 310, 311, 312, 313, 314, 321]
        + [500, 501, 502, 503, 504, 511, 520, 521, 522, 531, 600, 601, 602, 611, 612, 613, 615, 616, 620, 621, 622]
        + [701, 711, 721, 731, 741, 751, 761, 762, 771, 781, 800, 801, 802, 803, 804]

    /// met.no's weathericons legend: every symbol, and whether it has the day/night/polar
    /// twilight variants (spelled as the API spells them).
    static let metNorwayLegend: [(String, Bool)] = [
        ("clearsky", true), ("cloudy", false), ("fair", true), ("fog", false), ("heavyrain", false),
        ("heavyrainandthunder", false), ("heavyrainshowers", true), ("heavyrainshowersandthunder", true),
        ("heavysleet", false), ("heavysleetandthunder", false), ("heavysleetshowers", true),
        ("heavysleetshowersandthunder", true), ("heavysnow", false), ("heavysnowandthunder", false),
        ("heavysnowshowers", true), ("heavysnowshowersandthunder", true), ("lightrain", false),
        ("lightrainandthunder", false), ("lightrainshowers", true), ("lightrainshowersandthunder", true),
        ("lightsleet", false), ("lightsleetandthunder", false), ("lightsleetshowers", true), ("lightsnow", false),
        ("lightsnowandthunder", false), ("lightsnowshowers", true), ("lightssleetshowersandthunder", true),
        ("lightssnowshowersandthunder", true), ("partlycloudy", true), ("rain", false), ("rainandthunder", false),
        ("rainshowers", true), ("rainshowersandthunder", true), ("sleet", false), ("sleetandthunder", false),
        ("sleetshowers", true), ("sleetshowersandthunder", true), ("snow", false), ("snowandthunder", false),
        ("snowshowers", true), ("snowshowersandthunder", true),
    ]

    static var metNorwayCodes: [String] {
        metNorwayLegend.flatMap { symbol, variants in
            variants ? ["_day", "_night", "_polartwilight"].map { symbol + $0 } : [symbol]
        }
    }

    @Test func everyDocumentedOpenWeatherMapIDMaps() {
        #expect(Self.openWeatherMapIDs.count == 55)
        for id in Self.openWeatherMapIDs {
            #expect(WeatherCondition(openWeatherMapID: id).kind != .unknown, "\(id)")
        }
    }

    @Test(arguments: [
        (200, WeatherCondition.Kind.thunderstorm, true), (232, .thunderstorm, true), (300, .drizzle, false),
        (321, .drizzle, false), (500, .lightRain, false), (501, .rain, false), (502, .heavyRain, true),
        (504, .heavyRain, true), (511, .freezingRain, true), (520, .showers, false), (522, .showers, true),
        (531, .showers, false), (600, .snow, false), (602, .snow, true), (611, .sleet, false), (616, .sleet, false),
        (620, .snowShowers, false), (622, .snowShowers, true), (701, .fog, false), (711, .haze, false),
        (721, .haze, false), (731, .dust, false), (741, .fog, false), (762, .dust, false), (771, .squall, true),
        (781, .tornado, true), (800, .clear, false), (801, .mainlyClear, false), (802, .partlyCloudy, false),
        (803, .overcast, false), (804, .overcast, false),
    ])
    func openWeatherMapIDs(_ id: Int, _ kind: WeatherCondition.Kind, _ severe: Bool) {
        #expect(WeatherCondition(openWeatherMapID: id) == WeatherCondition(kind: kind, isSevere: severe))
    }

    /// Undocumented ids (including the retired 9xx "extreme" and "additional" ids) and
    /// nonsense are unknown, not an error, and not severe.
    @Test func unknownOpenWeatherMapIDsAreUnknown() {
        for id in [0, -1, 199, 203, 299, 400, 505, 700, 805, 900, 906, 951, 962, Int.max, Int.min] {
            #expect(WeatherCondition(openWeatherMapID: id) == WeatherCondition(kind: .unknown), "\(id)")
        }
        #expect(WeatherCondition(openWeatherMapID: nil).kind == .unknown)
    }

    @Test func openWeatherMapIconsSayDayOrNight() {
        for number in ["01", "02", "03", "04", "09", "10", "11", "13", "50"] {
            #expect(WeatherCondition.isDay(openWeatherMapIcon: number + "d") == true)
            #expect(WeatherCondition.isDay(openWeatherMapIcon: number + "n") == false)
        }
        for icon in [nil, "", "d", "1d", "01", "01x", "01D", "01dd", "ab", "xyd", "０1d"] as [String?] {
            #expect(WeatherCondition.isDay(openWeatherMapIcon: icon) == nil, "\(icon ?? "nil")")
        }
    }

    @Test func everyMetNorwayCodeMaps() {
        let codes = Self.metNorwayCodes
        #expect(Self.metNorwayLegend.count == 41)
        #expect(codes.count == 83)
        for code in codes {
            let symbol = MetNorwaySymbol(code: code)
            #expect(symbol.condition.kind != .unknown, "\(code)")
            #expect(WeatherCondition(metNorwaySymbolCode: code) == symbol.condition)
            // Thunder and heavy are severe, nothing else.
            let severe = code.contains("thunder") || code.hasPrefix("heavy")
            #expect(symbol.condition.isSevere == severe, "\(code)")
            #expect((symbol.condition.kind == .thunderstorm) == code.contains("andthunder"), "\(code)")
        }
    }

    @Test(arguments: [
        ("clearsky_day", WeatherCondition.Kind.clear), ("fair_night", .mainlyClear),
        ("partlycloudy_polartwilight", .partlyCloudy), ("cloudy", .overcast), ("fog", .fog),
        ("lightrain", .lightRain), ("rain", .rain), ("heavyrain", .heavyRain), ("lightrainshowers_day", .showers),
        ("heavyrainshowers_night", .showers), ("lightsleet", .sleet), ("heavysleetshowers_day", .sleet),
        ("lightsnow", .snow), ("snow", .snow), ("heavysnow", .snow), ("snowshowers_polartwilight", .snowShowers),
        ("heavysleetandthunder", .thunderstorm), ("lightsnowandthunder", .thunderstorm),
    ])
    func metNorwayCodes(_ code: String, _ kind: WeatherCondition.Kind) {
        #expect(MetNorwaySymbol(code: code).condition.kind == kind)
    }

    /// The API's two misspellings and their correct forms give the same condition.
    @Test func theMisspelledCodesAreAccepted() {
        for (wrong, right) in [
            ("lightssleetshowersandthunder", "lightsleetshowersandthunder"),
            ("lightssnowshowersandthunder", "lightsnowshowersandthunder"),
        ] {
            for suffix in ["", "_day", "_night", "_polartwilight"] {
                let a = MetNorwaySymbol(code: wrong + suffix)
                let b = MetNorwaySymbol(code: right + suffix)
                #expect(a.condition == WeatherCondition(kind: .thunderstorm, isSevere: true), "\(wrong + suffix)")
                #expect(a == b)
            }
        }
    }

    @Test func metNorwayVariantsGiveDayOrNight() {
        #expect(MetNorwaySymbol(code: "clearsky_day").variant == .day)
        #expect(MetNorwaySymbol(code: "clearsky_day").isDay == true)
        #expect(MetNorwaySymbol(code: "clearsky_night").isDay == false)
        #expect(MetNorwaySymbol(code: "clearsky_polartwilight").variant == .polarTwilight)
        #expect(MetNorwaySymbol(code: "clearsky_polartwilight").isDay == false)
        #expect(MetNorwaySymbol(code: "cloudy").variant == nil)
        #expect(MetNorwaySymbol(code: "cloudy").isDay == nil)
    }

    @Test(arguments: [
        "", "sunny", "clearsky_dusk", "clearsky_", "_day", "clear_sky_day", "lightssleet", "lightsrain", "heavyfog",
        "CLEARSKY_DAY", "rainandthunderstorm", "rainrain", "snowshowersshowers", " cloudy",
        "heavy" + String(repeating: "rain", count: 20),
    ])
    func unknownMetNorwayCodesAreUnknown(_ code: String) {
        let symbol = MetNorwaySymbol(code: code)
        #expect(symbol.condition == WeatherCondition(kind: .unknown))
        #expect(symbol.variant == nil)
    }

    /// Every kind, old and new, has a name and a glyph in every icon set by day and night.
    @Test func everyKindHasIconsInEverySet() {
        for kind in WeatherCondition.Kind.allCases {
            #expect(!kind.name.isEmpty && kind.name != "Unknown" || kind == .unknown)
            for set in IconSet.allCases {
                for isDay in [true, false] {
                    #expect(!set.icon(kind, isDay: isDay).isEmpty)
                    #expect(
                        kind == .unknown || set != .nerd
                            || set.icon(kind, isDay: isDay) != set.icon(.unknown, isDay: isDay))
                }
            }
        }
        #expect(MetNorwaySymbol(code: nil).condition.kind == .unknown)
    }
}
