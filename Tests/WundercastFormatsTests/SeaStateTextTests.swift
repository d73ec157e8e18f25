import Foundation
import Testing
import WundercastModel
import WundercastFormats
import WundercastTestSupport

/// The sea state (`weather.marine`) in the tooltip and the templates: each line only with what
/// the state has, every word through the reader's catalogue.
@Suite struct SeaStateTextTests {
    /// The North Sea answer's values (Tests/Fixtures/weather/open-meteo-marine/), current in knots.
    static func state(_ edit: (inout SeaState) -> Void = { _ in }) -> WeatherState {
        var sea = SeaState(cell: .init(latitude: 53.125, longitude: 3.875), units: .init(currentVelocity: "kn"))
        (sea.waveHeight, sea.waveDirection, sea.wavePeriod) = (0.76, 240, 3.85)
        (sea.windWaveHeight, sea.windWaveDirection, sea.windWavePeriod) = (0.58, 248, 3.05)
        (sea.swellHeight, sea.swellDirection, sea.swellPeriod) = (0.34, 256, 4.25)
        (sea.seaTemperature, sea.currentVelocity, sea.currentDirection) = (18.4, 0.54, 158)
        edit(&sea)
        var state = SampleStates.weather()
        state.weather?.marine = sea
        return state
    }

    @Test func tooltipHasTheSeaLines() {
        let tooltip = BarItem(state: Self.state(), now: SampleStates.now).tooltip
        for line in [
            "Waves 0.8 m, from SW, 4 s", "Wind waves 0.6 m, from W, 3 s", "Swell 0.3 m, from W, 4 s",
            "Sea temperature 18°C", "Current 0.5 kn towards S",
        ] {
            #expect(tooltip.contains(line), "\(line) in \(tooltip)")
        }
    }

    @Test func onlyWhatTheStateHas() {
        let tooltip = BarItem(
            state: Self.state { sea in
                (sea.waveDirection, sea.windWaveHeight, sea.windWaveDirection, sea.windWavePeriod) = (
                    nil, nil, nil, nil
                )
                (sea.swellHeight, sea.swellDirection, sea.swellPeriod, sea.currentDirection) = (nil, nil, nil, nil)
                sea.seaTemperature = nil
            }, now: SampleStates.now
        ).tooltip
        #expect(tooltip.contains("Waves 0.8 m, 4 s") && tooltip.contains("Current 0.5 kn"), "\(tooltip)")
        #expect(
            !tooltip.contains { $0.hasPrefix("Swell") || $0.hasPrefix("Wind waves") || $0.hasPrefix("Sea temperature") }
        )
        #expect(
            !BarItem(state: SampleStates.weather(), now: SampleStates.now).tooltip.contains { $0.hasPrefix("Waves") })
    }

    @Test func everyWordTranslated() {
        let tooltip = BarItem(state: Self.state(), now: SampleStates.now, locale: EveryTextTranslatedTests.bracketed)
            .tooltip
        let sea = tooltip.filter { $0.contains("0.8") || $0.contains("0.3") || $0.contains("18") || $0.contains("kn") }
        #expect(sea.count == 4)
        for line in sea {
            let words = EveryTextTranslatedTests.untranslatedWords(line).subtracting([
                "m", "s", "C", "kn", "SW", "W", "SE",
            ])
            #expect(words.isEmpty, "\(line): \(words)")
        }
    }

    @Test func templatesInTheReadersDecimals() throws {
        let comma = UserLocale(messages: .english, clock: .twentyFourHour, decimalSeparator: ",")
        let values = Placeholder.values(Self.state(), now: SampleStates.now, icons: .emoji, locale: comma)
        #expect(values[.waves] == "0,8 m" && values[.wavePeriod] == "4 s" && values[.swell] == "0,3 m")
        #expect(values[.seaTemperature] == "18°C" && values[.current] == "0,5 kn")
    }
}
