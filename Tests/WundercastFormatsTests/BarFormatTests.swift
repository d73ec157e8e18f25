import Foundation
import Testing
import WundercastModel
import WundercastFormats
import WundercastTestSupport

/// Each bar format's output for decoded states, checked against the bar's documented format
/// (PITFALLS, "Status bars").
@Suite struct BarFormatTests {
    let now = SampleStates.now

    func object(_ line: String) throws -> [String: Any] {
        #expect(line.hasSuffix("\n") && line.filter { $0 == "\n" }.count == 1, "one line: \(line)")
        return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    @Test func waybarHasTextAltTooltipClassArrayAndPercentage() throws {
        let item = BarItem(state: SampleStates.weather(code: 2), now: now)
        let json = try object(WaybarFormat.line(item))
        #expect(json["text"] as? String == "⛅ -5°C Partly cloudy")
        #expect(json["alt"] as? String == "partlyCloudy")
        #expect(json["class"] as? [String] == ["partlyCloudy"])
        #expect(json["percentage"] as? Int == 72)
        let tooltip = try #require(json["tooltip"] as? String)
        for part in [
            "Partly cloudy", "-5°C", "feels like -9°C", "Humidity 72%", "Wind 5 km/h from E",
            "12 km NE of Regensburg", "2 min ago", "Status: fresh",
        ] {
            #expect(tooltip.contains(part), "\(part) in \(tooltip)")
        }
        #expect(Set(json.keys) == ["text", "alt", "tooltip", "class", "percentage"])
    }

    @Test(arguments: [
        (WeatherState.Status.stale, ["clear", "stale"]), (.fetching, ["clear", "fetching"]),
    ])
    func staleAndFetchingWeatherIsMarkedInTextAndClass(_ status: WeatherState.Status, _ classes: [String]) throws {
        let item = BarItem(state: SampleStates.weather(status: status), now: now)
        let json = try object(WaybarFormat.line(item))
        #expect(json["class"] as? [String] == classes)
        #expect((json["text"] as? String)?.hasSuffix(status == .stale ? "(stale)" : "(updating)") == true)
    }

    @Test(arguments: [WeatherState.Status.noLocation, .offline, .error, .fetching])
    func withoutWeatherTheStatusIsTheClassAndAlt(_ status: WeatherState.Status) throws {
        let item = BarItem(state: SampleStates.withoutWeather(status), now: now)
        let json = try object(WaybarFormat.line(item))
        #expect(json["class"] as? [String] == [status.rawValue])
        #expect(json["alt"] as? String == status.rawValue)
        #expect(json["percentage"] == nil)
        #expect(!item.hasWeather)
        #expect(try object(WaybarFormat.line(item, hidden: true))["text"] as? String == "")
    }

    @Test func severeWeatherIsClassedUrgentAndCritical() throws {
        let item = BarItem(state: SampleStates.weather(code: 95), now: now)
        #expect(item.classes == ["thunderstorm", "severe"])
        #expect(I3blocksFormat.exitStatus(item) == 33)
        #expect(I3blocksFormat.exitStatus(BarItem(state: SampleStates.weather(code: 3), now: now)) == 0)
        let block = try #require(try i3barBlocks(I3barFormat.line(item)).first)
        #expect(block["urgent"] as? Bool == true)
        #expect(try object(I3statusRsFormat.line(item))["state"] as? String == "Critical")
    }

    /// A provider that gave the apparent temperature but no temperature (`null`): no bar text
    /// shows a bare `°C`; the tooltip says what is known.
    @Test func aMissingTemperatureLeavesNoBareUnitInAnyFormat() throws {
        let state = SampleStates.weather(code: 3, temperature: nil)
        let item = BarItem(state: state, now: now)
        #expect(item.text == "☁\u{FE0F} Overcast")
        #expect(item.shortText == "☁\u{FE0F}")
        #expect(item.tooltip.contains("Feels like -9°C"))
        for format in OutputFormat.allCases where format.isBar {
            var output = try #require(format.bar(item))
            // waybar's line carries the tooltip too: its text is what the bar shows.
            if format == .waybar { output = try #require(try object(output)["text"] as? String) }
            #expect(!output.contains("°C") && output.contains("Overcast"), "\(format): \(output)")
        }
        #expect(!HumanFormat.line(state, now: now).contains("°C"))
        let values = Placeholder.values(state, now: now, icons: .emoji)
        for (template, expected) in [
            ("{temperature}{unit} {condition}", "Overcast"),
            ("{temperature}{unit} feels {apparent}{unit}", "feels -9°C"),
            ("{apparent}{unit}/{temperature}{unit}", "-9°C/"),
            ("{high}{unit} {low}{unit}", ""),
        ] {
            #expect(try Template(template).render(values) == expected, "\(template)")
        }
    }

    /// The colour line is empty (the bar's own colour, on any theme) unless a scheme is chosen.
    @Test func i3blocksPrintsFullTextShortTextAndColor() {
        let lines = I3blocksFormat.lines(BarItem(state: SampleStates.weather(code: 3), now: now))
        #expect(lines == "☁\u{FE0F} -5°C Overcast\n☁\u{FE0F} -5°C\n\n")
        let staleItem = BarItem(state: SampleStates.weather(status: .stale), now: now)
        func colorLine(_ colors: BarColors) -> String {
            I3blocksFormat.lines(staleItem, colors: colors).split(separator: "\n", omittingEmptySubsequences: false)
                .map(String.init)[2]
        }
        #expect(colorLine(.none) == "")
        #expect(colorLine(.dark) == "#F1FA8C")
        #expect(colorLine(.light) == "#6B4F00")
        #expect(
            I3blocksFormat.lines(BarItem(state: SampleStates.weather(code: 3), now: now), colors: .dark).hasSuffix(
                "\n\n"))
    }

    /// WCAG 2 contrast of every colour of `dark` and `light` against its background: at least 4.5:1.
    @Test(arguments: [BarColors.dark, .light])
    func schemesAreReadableOnTheirBackground(_ colors: BarColors) throws {
        func luminance(_ hex: String) -> Double {
            let value = Int(hex.dropFirst(), radix: 16)!
            let channels = [value >> 16, (value >> 8) & 0xFF, value & 0xFF].map { Double($0) / 255 }
            let linear = channels.map { $0 <= 0.04045 ? $0 / 12.92 : pow(($0 + 0.055) / 1.055, 2.4) }
            return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
        }
        let background = luminance(try #require(colors.background))
        for urgency in BarItem.Urgency.allCases {
            guard let color = colors.color(urgency) else { continue }
            let (l1, l2) = (max(luminance(color), background), min(luminance(color), background))
            #expect((l1 + 0.05) / (l2 + 0.05) >= 4.5, "\(colors) \(urgency) \(color)")
        }
        #expect(BarColors.none.color(.critical) == nil)
    }

    @Test func i3statusRsHasIconStateTextAndShortText() throws {
        let json = try object(
            I3statusRsFormat.line(BarItem(state: SampleStates.weather(code: 61), now: now, iconInText: false)))
        #expect(Set(json.keys) == ["icon", "state", "text", "short_text"])
        #expect(json["icon"] as? String == "weather_rain")
        #expect(json["state"] as? String == "Idle")
        #expect(json["text"] as? String == "-5°C Slight rain")
        let stale = try object(I3statusRsFormat.line(BarItem(state: SampleStates.weather(status: .stale), now: now)))
        #expect(stale["state"] as? String == "Warning")
    }

    /// At night (the provider's day flag off) the icon is the icon sets' night variant; snow
    /// has none. By day the same codes keep the day icons.
    @Test(arguments: [
        (0, "weather_moon", "weather_sun"), (2, "weather_clouds_night", "weather_clouds"),
        (45, "weather_fog_night", "weather_fog"), (61, "weather_rain_night", "weather_rain"),
        (95, "weather_thunder_night", "weather_thunder"), (71, "weather_snow", "weather_snow"),
    ])
    func i3statusRsShowsTheNightIconsAtNight(_ code: Int, _ night: String, _ day: String) throws {
        let dark = try object(
            I3statusRsFormat.line(BarItem(state: SampleStates.weather(code: code, isDay: false), now: now)))
        #expect(dark["icon"] as? String == night)
        let light = try object(
            I3statusRsFormat.line(BarItem(state: SampleStates.weather(code: code, isDay: true), now: now)))
        #expect(light["icon"] as? String == day)
    }

    func i3barBlocks(_ line: String) throws -> [[String: Any]] {
        #expect(line.hasSuffix("],\n"))
        let array = String(line.dropLast(2))
        return try #require(try JSONSerialization.jsonObject(with: Data(array.utf8)) as? [[String: Any]])
    }

    @Test func i3barHasTheHeaderThenArraysOfBlocks() throws {
        let header = I3barFormat.header.split(separator: "\n").map(String.init)
        #expect(header.count == 2 && header[1] == "[")
        let version = try #require(try JSONSerialization.jsonObject(with: Data(header[0].utf8)) as? [String: Any])
        #expect(version["version"] as? Int == 1)
        let blocks = try i3barBlocks(I3barFormat.line(BarItem(state: SampleStates.weather(), now: now)))
        #expect(blocks.count == 1)
        #expect(blocks[0]["full_text"] as? String == "☀\u{FE0F} -5°C Clear sky")
        #expect(blocks[0]["name"] as? String == "wundercast")
        #expect(blocks[0]["urgent"] == nil)
        let offline = try i3barBlocks(I3barFormat.line(.unavailable(.offline, reason: "down")))
        #expect(offline[0]["full_text"] as? String == "⚠ wundercast offline")
        #expect(I3barFormat.line(.unavailable(.offline, reason: "down"), hidden: true) == "[],\n")
    }

    /// polybar 3.6 has no escape for `%{` (`%%{A1:…:}` is a `%` and an action tag): a zero-width
    /// space breaks each one, and a lone `%` stays single (`%%` would show both).
    @Test func polybarIsOneLineAndCannotBeGivenFormattingTags() {
        var state = SampleStates.weather()
        state.weather?.condition = "%{A1:rm -rf ~:}click%{A} 100%"
        state.weather?.conditionLanguage = "de"  // the provider's own text, in the language the admin chose
        let line = PolybarFormat.line(BarItem(state: state, now: now))
        #expect(line == "☀\u{FE0F} -5°C %\u{200B}{A1:rm -rf ~:}click%\u{200B}{A} 100%\n")
        #expect(!line.contains("%{"))
        #expect(PolybarFormat.line(.unavailable(.offline, reason: "x"), hidden: true) == "\n")
    }

    @Test func theOfflineLineIsClearlyMarked() throws {
        let json = try object(WaybarFormat.line(.unavailable(.offline, reason: "wundercastd is not running")))
        #expect(json["text"] as? String == "⚠ wundercast offline")
        #expect(json["class"] as? [String] == ["daemon-offline"], "apart from the state's offline (no weather yet)")
        #expect(json["tooltip"] as? String == "wundercastd is not running")
        let error = try object(WaybarFormat.line(.unavailable(.error, reason: "refused")))
        #expect(error["class"] as? [String] == ["daemon-error"])
        // wundercastctl's own advice is shown whole, with the longest socket path; the daemon's
        // text is bounded as any text from outside.
        let path = "/" + String(repeating: "p", count: 107)
        let advice =
            "wundercastd is not running (no daemon at \(path): No such file or directory); start it (systemctl start "
            + "wundercast.socket, or wundercastd --config FILE), or check --socket / $WUNDERCAST_SOCKET"
        let whole = try object(WaybarFormat.line(.unavailable(.offline, reason: advice)))
        #expect(whole["tooltip"] as? String == advice)
        let long = try object(WaybarFormat.line(.unavailable(.error, reason: String(repeating: "e", count: 300))))
        #expect((long["tooltip"] as? String).map { $0.count <= 201 } == true, "200 and an ellipsis")
    }

    @Test func waybarEscapesMarkup() throws {
        var state = SampleStates.weather()
        state.weather?.condition = "<b>Sun & fun</b>"
        state.weather?.conditionLanguage = "en"  // the provider's own text, in the language the admin chose
        let json = try object(WaybarFormat.line(BarItem(state: state, now: now)))
        #expect(json["text"] as? String == "☀\u{FE0F} -5°C &lt;b&gt;Sun &amp; fun&lt;/b&gt;")
    }

    /// A hostile provider text (escape codes, a forged line, 1 MB) is neither printed raw nor
    /// unbounded, in any format.
    @Test func hostileTextsAreStrippedAndBounded() throws {
        let hostile = SampleStates.hostileText()
        var state = SampleStates.weather(
            status: .stale, error: WeatherState.ErrorInfo(code: "http-500", message: hostile))
        state.weather?.condition = hostile
        state.weather?.conditionLanguage = "de"  // shown as the provider wrote it
        state.location?.place?.name = hostile
        let item = BarItem(state: state, now: now)
        let outputs =
            OutputFormat.allCases.compactMap { $0.bar(item) } + [
                HumanFormat.line(state, now: now),
                try Template("{condition} {place}").render(Placeholder.values(state, now: now, icons: .emoji)),
            ]
        for output in outputs {
            #expect(!output.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x9B || $0.value == 0x07 })
            #expect(!output.contains("\r"))
            #expect(output.utf8.count < 4000, "bounded: \(output.utf8.count) bytes")
        }
        for format in [OutputFormat.waybar, .i3statusRs, .polybar, .i3bar] {
            #expect(format.bar(item)!.filter { $0 == "\n" }.count == 1)
        }
        #expect(I3blocksFormat.lines(item).filter { $0 == "\n" }.count == 3)
        #expect(!HumanFormat.line(state, now: now).contains("\n"))
    }
}
