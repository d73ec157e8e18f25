import Testing
import WundercastFormats
import WundercastModel
import WundercastTestSupport

@Suite struct TemplateTests {
    let values = Placeholder.values(SampleStates.weather(), now: SampleStates.now, icons: .emoji)

    @Test func everyPlaceholderExpandsFromAFullState() throws {
        var state = SampleStates.weather()
        state.weather?.forecast = SampleStates.forecast()
        state.alerts = AlertsState(
            source: .brightSky, status: .ok,
            items: [
                Alert(id: "1", source: .brightSky, authority: "DWD", event: "Frost", severity: .minor),
                Alert(id: "2", source: .brightSky, authority: "DWD", event: "Sturmböen", severity: .moderate),
            ])
        state.location?.motion = .init(moving: true, speed: 4.25, course: 212, units: .init(speed: "kn"))
        var sea = SeaState(cell: .init(latitude: 53.125, longitude: 3.875), units: .init(currentVelocity: "kn"))
        (sea.waveHeight, sea.wavePeriod, sea.swellHeight) = (1.24, 5.4, 0.34)
        (sea.seaTemperature, sea.currentVelocity) = (18.4, 0.54)
        state.weather?.marine = sea
        let values = Placeholder.values(state, now: SampleStates.now, icons: .emoji)
        let template = try Template(Placeholder.allCases.map { "{\($0.rawValue)}" }.joined(separator: "|"))
        #expect(
            template.render(values)
                == "☀\u{FE0F}|-5|-9|°C|Clear sky|72%|5 km/h|E|12 km/h|1035 hPa|rising +1.3 hPa/3h|20%|0|-9|07:32|17:22"
                + "|12 km NE of Regensburg|12 km|NE|49.12|12.2|4.3 kn|212°|2 min ago|fresh|open-meteo|Sturmböen"
                + "|1.2 m|5 s|0.3 m|18°C|0.5 kn"
        )
    }

    /// `{speed}` and `{course}` while moving (the speed in the reader's decimal separator);
    /// nothing at rest, and nothing from a public reader's `{"moving":true}`.
    @Test func speedAndCourseOnlyWhileMoving() throws {
        let template = try Template("{speed}|{course}")
        var state = SampleStates.weather()
        state.location?.motion = .init(moving: true, speed: 12.04, course: 359.6, units: .init(speed: "km/h"))
        #expect(template.render(Placeholder.values(state, now: SampleStates.now, icons: .emoji)) == "12.0 km/h|0°")
        let comma = UserLocale(messages: .english, clock: .twentyFourHour, decimalSeparator: ",")
        #expect(
            template.render(Placeholder.values(state, now: SampleStates.now, icons: .emoji, locale: comma))
                == "12,0 km/h|0°")
        state.location?.motion = .init(moving: false, speed: 0.2, course: 90, units: .init(speed: "km/h"))
        #expect(template.render(Placeholder.values(state, now: SampleStates.now, icons: .emoji)) == "|")
        state.location?.motion = .init(moving: true)
        #expect(template.render(Placeholder.values(state, now: SampleStates.now, icons: .emoji)) == "|")
    }

    @Test func missingValuesExpandToNothingAndTheirBlanksCollapse() throws {
        var state = SampleStates.weather(code: nil, temperature: nil, place: nil)
        state.location = nil
        var values = Placeholder.values(state, now: SampleStates.now, icons: .emoji)
        // The apparent temperature is still there, but `{unit}` goes with the missing
        // `{temperature}` before it: no bare `°C`. `{apparent}{unit}` keeps its unit.
        #expect(try Template("{icon} {temperature}{unit} {condition} {place}").render(values) == "🌡\u{FE0F}")
        #expect(try Template("{icon} {apparent}{unit}").render(values) == "🌡\u{FE0F} -9°C")
        state.weather?.apparentTemperature = nil
        values = Placeholder.values(state, now: SampleStates.now, icons: .emoji)
        #expect(try Template("{icon} {temperature}{unit} {condition} {place}").render(values) == "🌡\u{FE0F}")
        #expect(try Template("[{place}] {humidity} {distance} now").render(values) == "[] 72% now")
        #expect(try Template("{bearing} {humidity}").render(values) == "72%")
    }

    @Test func bracesAreEscapedByDoubling() throws {
        #expect(try Template("{{{temperature}}}").render(values) == "{-5}")
    }

    @Test(arguments: ["{temp}", "{icon", "icon}", "{Icon}", "{}"])
    func badTemplatesAreRefusedNamingTheProblem(_ text: String) {
        #expect(throws: Template.ParseError.self) { try Template(text) }
    }

    @Test func anUnknownPlaceholderIsNamedInTheError() {
        #expect {
            try Template("{icon} {weather}")
        } throws: { error in
            (error as? Template.ParseError)?.message.contains("'{weather}'") == true
        }
    }
}
