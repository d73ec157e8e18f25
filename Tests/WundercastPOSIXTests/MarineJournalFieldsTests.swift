import Testing
import WundercastModel
import WundercastTestSupport

@testable import WundercastServer

/// The journal's weather-change entry carries the sea state's fields, each only with a value
/// (field names are valid journal names: uppercase, digits, `_`).
@Suite struct MarineJournalFieldsTests {
    @Test func seaFieldsOnlyWithValues() {
        var state = SampleStates.weather()
        var sea = SeaState(cell: .init(latitude: 53.125, longitude: 3.875), units: .init(currentVelocity: "kn"))
        (sea.waveHeight, sea.seaTemperature, sea.currentVelocity) = (0.76, 18.4, 0.54)
        state.weather?.marine = sea
        let fields = Dictionary(Publisher.journalFields(state), uniquingKeysWith: { first, _ in first })
        #expect(fields["WUNDERCAST_MARINE_SOURCE"] == "open-meteo-marine")
        #expect(fields["WUNDERCAST_WAVE_HEIGHT"] == "0.76" && fields["WUNDERCAST_WAVE_HEIGHT_UNIT"] == "m")
        #expect(fields["WUNDERCAST_SEA_TEMPERATURE"] == "18.4" && fields["WUNDERCAST_SEA_TEMPERATURE_UNIT"] == "°C")
        #expect(fields["WUNDERCAST_CURRENT_VELOCITY"] == "0.54" && fields["WUNDERCAST_CURRENT_VELOCITY_UNIT"] == "kn")
        #expect(fields["WUNDERCAST_SWELL_HEIGHT"] == nil && fields["WUNDERCAST_WAVE_PERIOD"] == nil)
        #expect(fields.keys.allSatisfy { $0.allSatisfy { $0.isUppercase || $0.isNumber || $0 == "_" } })
        // Without the sea state, none of them.
        let plain = Publisher.journalFields(SampleStates.weather()).map(\.0)
        #expect(!plain.contains { $0.hasPrefix("WUNDERCAST_WAVE") || $0.hasPrefix("WUNDERCAST_MARINE") })
    }
}
