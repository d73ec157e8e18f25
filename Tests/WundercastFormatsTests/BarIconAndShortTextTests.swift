import Foundation
import Testing
import WundercastModel
import WundercastTestSupport

@testable import WundercastFormats

/// i3status-rust's icon names and texts, and the short text of i3blocks, i3bar and
/// i3status-rust (issue 18, item 7).
@Suite struct BarIconAndShortTextTests {
    let now = SampleStates.now

    func object(_ line: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    func i3barBlocks(_ line: String) throws -> [[String: Any]] {
        #expect(line.hasSuffix("],\n"))
        return try #require(try JSONSerialization.jsonObject(with: Data(line.dropLast(2).utf8)) as? [[String: Any]])
    }

    /// Every condition by day and night gets one of the icon names i3status-rust's weather
    /// block documents ("Used Icons", 0.36: each of its icon sets has them).
    @Test func i3statusRsIconsAreTheDocumentedNames() {
        let documented: Set = [
            "weather_sun", "weather_moon", "weather_clouds", "weather_clouds_night", "weather_fog",
            "weather_fog_night", "weather_rain", "weather_rain_night", "weather_snow", "weather_thunder",
            "weather_thunder_night", "weather_default",
        ]
        var used: Set<String> = []
        for kind in WeatherCondition.Kind.allCases {
            for isDay in [true, false, nil] {
                let icon = BarItem.i3statusIcon(kind, isDay: isDay)
                #expect(documented.contains(icon), "\(kind) \(String(describing: isDay)): \(icon)")
                used.insert(icon)
            }
        }
        #expect(used == documented, "every documented icon has a condition")
    }

    /// i3status-rust shows the icon from the `icon` member: the texts carry none of their own,
    /// with the default templates and with a template that names `{icon}`.
    @Test func i3statusRsTextsCarryNoIcon() throws {
        let state = SampleStates.weather(code: 61, isDay: false)
        let item = BarItem(state: state, now: now, iconInText: !OutputFormat.i3statusRs.hasIconMember)
        let json = try object(I3statusRsFormat.line(item))
        #expect(json["icon"] as? String == "weather_rain_night")
        #expect(json["text"] as? String == "-5°C Slight rain")
        #expect(json["short_text"] as? String == "-5°C")
        let templated = BarItem(
            state: state, now: now, template: try Template("{icon} {temperature}{unit} {place}"), iconInText: false)
        #expect(templated.text == "-5°C 12 km NE of Regensburg")
        // Without a temperature the short text is the text, never a status it is not.
        let cold = BarItem(state: SampleStates.weather(code: 3, temperature: nil), now: now, iconInText: false)
        #expect(cold.text == "Overcast" && cold.shortText == "Overcast")
        #expect(OutputFormat.allCases.filter(\.hasIconMember) == [.i3statusRs])
    }

    /// `short_text`: the short template, else the template when one is given, else icon and
    /// temperature; in i3bar's and i3status-rust's members and i3blocks' second line.
    /// A template whose values are all empty (`{alert}` with none in force) shows nothing with
    /// fresh weather — never "no weather yet", a status the state is not.
    @Test func aTemplateWithNothingToShowShowsNothing() throws {
        let state = SampleStates.weather(code: 0)
        let item = BarItem(state: state, now: now, template: try Template("{alert}"))
        #expect(item.text.isEmpty, "\(item.text)")
        #expect(try object(WaybarFormat.line(item))["text"] as? String == "")
        #expect(item.alt == "clear", "the weather is still known: \(item.alt)")
    }

    @Test func shortTextFollowsTheTemplates() throws {
        let state = SampleStates.weather(code: 3, status: .stale)
        let plain = BarItem(state: state, now: now)
        #expect(plain.shortText == "☁\u{FE0F} -5°C (stale)")
        let template = try Template("{temperature}{unit} {place}")
        let templated = BarItem(state: state, now: now, template: template)
        #expect(templated.shortText == "-5°C 12 km NE of Regensburg (stale)")
        #expect(templated.shortText == templated.text)
        let short = BarItem(state: state, now: now, template: template, shortTemplate: try Template("{humidity}"))
        #expect(short.shortText == "72% (stale)" && short.text == templated.text)
        #expect(try i3barBlocks(I3barFormat.line(templated))[0]["short_text"] as? String == templated.text)
        #expect(try i3barBlocks(I3barFormat.line(short))[0]["short_text"] as? String == "72% (stale)")
        #expect(try object(I3statusRsFormat.line(short))["short_text"] as? String == "72% (stale)")
        #expect(I3blocksFormat.lines(short).split(separator: "\n")[1] == "72% (stale)")
        #expect(OutputFormat.allCases.filter(\.hasShortText) == [.i3blocks, .i3statusRs, .i3bar])
    }
}
