import Testing
import WundercastModel

@Suite struct WeatherConditionTests {
    @Test func everyWMOCodeMapsAndHasAnIconInEverySet() {
        for code in -5...105 {
            let condition = WeatherCondition(wmoCode: code)
            for set in IconSet.allCases {
                #expect(!set.icon(condition.kind, isDay: true).isEmpty)
                #expect(!set.icon(condition.kind, isDay: false).isEmpty)
            }
        }
        #expect(WeatherCondition(wmoCode: nil).kind == .unknown)
    }

    @Test(arguments: [
        (0, WeatherCondition.Kind.clear), (1, .mainlyClear), (2, .partlyCloudy), (3, .overcast), (45, .fog), (48, .fog),
        (51, .drizzle), (53, .drizzle), (55, .drizzle), (56, .freezingDrizzle), (57, .freezingDrizzle),
        (61, .lightRain), (63, .rain), (65, .heavyRain), (66, .freezingRain), (67, .freezingRain), (71, .snow),
        (73, .snow), (75, .snow), (77, .snowGrains), (80, .showers), (81, .showers), (82, .showers),
        (85, .snowShowers), (86, .snowShowers), (95, .thunderstorm), (96, .thunderstormWithHail),
        (99, .thunderstormWithHail), (4, .unknown), (30, .unknown), (100, .unknown), (-1, .unknown),
    ])
    func knownCodesMapToTheirCondition(_ code: Int, _ kind: WeatherCondition.Kind) {
        #expect(WeatherCondition(wmoCode: code).kind == kind)
    }

    @Test func theSevereSetIsExactly65_67_75_82_86And95To99() {
        let severe = Set((0...99).filter { WeatherCondition(wmoCode: $0).isSevere })
        #expect(severe == [65, 67, 75, 82, 86, 95, 96, 97, 98, 99])
    }

    @Test func dayAndNightDifferWhereTheSkyShows() {
        for set in IconSet.allCases {
            #expect(set.icon(.clear, isDay: true) != set.icon(.clear, isDay: false))
        }
        #expect(IconSet.emoji.icon(.clear, isDay: true) == "☀\u{FE0F}")
        #expect(IconSet.nerd.icon(.clear, isDay: true) == "\u{E30D}")  // nf-weather-day_sunny
        #expect(IconSet.nerd.icon(.clear, isDay: false) == "\u{E32B}")  // nf-weather-night_clear
        #expect(IconSet.weatherIcons.icon(.clear, isDay: true) == "\u{F00D}")  // wi-day-sunny
        #expect(IconSet.weatherIcons.icon(.thunderstorm, isDay: false) == "\u{F02D}")  // wi-night-alt-thunderstorm
        #expect(IconSet.weatherIconsName(.clear, isDay: false) == "wi-night-clear")
    }

    @Test func anUnknownCodeGetsTheGenericIcon() {
        let unknown = WeatherCondition(wmoCode: 31)
        #expect(IconSet.nerd.icon(unknown.kind, isDay: true) == "\u{E374}")  // nf-weather-na
        #expect(IconSet.weatherIcons.icon(unknown.kind, isDay: false) == "\u{F07B}")  // wi-na
        #expect(IconSet.emoji.icon(unknown.kind, isDay: true) == "🌡\u{FE0F}")
    }

    @Test func everyKindHasItsOwnGlyphsAndName() {
        for kind in WeatherCondition.Kind.allCases {
            #expect(!kind.name.isEmpty)
            #expect(IconSet.weatherIconsName(kind, isDay: true).hasPrefix("wi-"))
        }
        // Distinct conditions look distinct in the font sets (emoji has fewer pictures).
        let nerd = Set(WeatherCondition.Kind.allCases.map { IconSet.nerd.icon($0, isDay: true) })
        #expect(nerd.count == WeatherCondition.Kind.allCases.count)
    }
}
