import Foundation
import Testing
import WundercastFormats
import WundercastModel
import WundercastTestSupport

/// The icon in a font of its own (`--icon-font`, issue 18 item 5): only the icon is wrapped —
/// a Pango span in waybar, i3bar and i3blocks, polybar's `%{T…}` — for every icon set, and no
/// text from outside (place, condition, alert) can open markup or a tag in any bar.
@Suite struct IconFontTests {
    let now = SampleStates.now

    static let noto = IconFont.family("Noto Color Emoji")

    func object(_ line: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    func i3barBlock(_ line: String) throws -> [String: Any] {
        let array = String(line.dropLast(2))  // the "," and newline that continue the endless array
        let blocks = try #require(try JSONSerialization.jsonObject(with: Data(array.utf8)) as? [[String: Any]])
        return try #require(blocks.first)
    }

    @Test func onlyTheIconIsPutInTheFontInEveryBar() throws {
        let item = BarItem(state: SampleStates.weather(), now: now)
        let span = "<span font_family=\"Noto Color Emoji\">☀\u{FE0F}</span>"
        let waybar = try object(WaybarFormat.line(item, iconFont: Self.noto))
        #expect(waybar["text"] as? String == span + " -5°C Clear sky")
        let block = try i3barBlock(I3barFormat.line(item, iconFont: Self.noto))
        #expect(block["markup"] as? String == "pango")
        #expect(block["full_text"] as? String == span + " -5°C Clear sky")
        #expect(block["short_text"] as? String == span + " -5°C")
        #expect(I3blocksFormat.lines(item, iconFont: Self.noto) == span + " -5°C Clear sky\n" + span + " -5°C\n\n")
        #expect(PolybarFormat.line(item, iconFont: .polybarFont(2)) == "%{T2}☀\u{FE0F}%{T-} -5°C Clear sky\n")
        // Without a font: as before — i3bar plain (no markup member), the icon among the text.
        let plain = try i3barBlock(I3barFormat.line(item))
        #expect(plain["markup"] == nil)
        #expect(plain["full_text"] as? String == "☀\u{FE0F} -5°C Clear sky")
        #expect(PolybarFormat.line(item) == "☀\u{FE0F} -5°C Clear sky\n")
    }

    /// Weather Icons and Nerd Fonts glyphs are private-use code points that Font Awesome (in
    /// Debian's default waybar style) and others fill with other glyphs: wrapped, they are
    /// drawn from the font named, wherever the icon stands in the template.
    @Test(arguments: [
        (IconSet.weatherIcons, "Weather Icons", Unicode.Scalar(0xF00D)!),
        (.nerd, "Symbols Nerd Font", Unicode.Scalar(0xE30D)!),
    ])
    func privateUseIconsAreWrappedInTheirFont(set: IconSet, family: String, clearDay: Unicode.Scalar) throws {
        let template = try Template("{temperature}{unit} {icon} {condition}")
        let item = BarItem(state: SampleStates.weather(), now: now, icons: set, template: template)
        let glyph = String(clearDay)
        let waybar = try object(WaybarFormat.line(item, iconFont: .family(family)))
        #expect(waybar["text"] as? String == "-5°C <span font_family=\"\(family)\">\(glyph)</span> Clear sky")
        #expect(PolybarFormat.line(item, iconFont: .polybarFont(3)) == "-5°C %{T3}\(glyph)%{T-} Clear sky\n")
        // The short text follows the template given.
        let block = try i3barBlock(I3barFormat.line(item, iconFont: .family(family)))
        #expect(block["short_text"] as? String == "-5°C <span font_family=\"\(family)\">\(glyph)</span> Clear sky")
    }

    /// Text meant to open markup or polybar tags, in the place, the condition and an alert's
    /// event, with and without an icon font: only our own span or `%{T…}` is markup.
    @Test func noTextFromOutsideOpensMarkupOrATag() throws {
        let hostile = "</span><b a=\"1\">&x; %{A1:reboot:}x%{F#f00} 50%"
        var state = SampleStates.weather()
        state.weather?.condition = hostile
        state.weather?.conditionLanguage = "de"  // shown as the provider wrote it
        state.location?.place?.name = hostile
        state.alerts = AlertsState(
            source: .brightSky, status: .ok,
            items: [
                Alert(
                    id: "a", source: .brightSky, authority: "DWD", event: hostile, severity: .moderate,
                    expires: now + 3600)
            ])
        // `{place}` ends in `%` and the literal after it starts with `{`: `%{` made by the two.
        let template = try Template("{icon} {condition} {alert} {place}{{T1}}")
        let item = BarItem(state: state, now: now, template: template)
        let family = IconFont.family("Noto \"Color\" <Emoji>")
        for iconFont in [nil, family] {
            let waybar = try #require(try object(WaybarFormat.line(item, iconFont: iconFont))["text"] as? String)
            let block = try i3barBlock(I3barFormat.line(item, iconFont: iconFont))
            let i3blocks = I3blocksFormat.lines(item, iconFont: iconFont).split(separator: "\n").map(String.init)
            var markups = [waybar]
            if iconFont != nil {
                markups += [
                    i3blocks[0], i3blocks[1], try #require(block["full_text"] as? String),
                    try #require(block["short_text"] as? String),
                ]
            } else {
                #expect(block["markup"] == nil, "plain text in i3bar without an icon font")
                #expect(i3blocks[0].contains(hostile), "and in i3blocks: \(i3blocks[0])")
            }
            for markup in markups {
                let tags = iconFont == nil ? 0 : 2
                #expect(markup.filter { $0 == "<" }.count == tags, "\(markup)")
                #expect(markup.filter { $0 == ">" }.count == tags, "\(markup)")
                #expect(Self.entitiesOnly(markup), "\(markup)")
                if iconFont != nil {
                    #expect(
                        markup.hasPrefix("<span font_family=\"Noto &quot;Color&quot; &lt;Emoji&gt;\">☀\u{FE0F}</span>"))
                }
            }
        }
        for iconFont in [nil, IconFont.polybarFont(2)] {
            let line = PolybarFormat.line(item, iconFont: iconFont)
            #expect(line.components(separatedBy: "%{").count - 1 == (iconFont == nil ? 0 : 2), "\(line)")
            #expect(line.contains("50% "), "a lone % stays single: \(line)")
            #expect(line.contains("50%\u{200B}{T1}"), "the place's % and the template's {: \(line)")
        }
    }

    /// A mark that joins a markup character into one `Character` (U+0600 prepended, U+0301
    /// after) hides it from a comparison of `Character`s, not from the bar, which reads bytes:
    /// the escapes read Unicode scalars.
    @Test func marksJoinedToMarkupCharactersAreEscapedToo() throws {
        let hostile = "\u{0600}<b>\u{0301}X\u{0600}&x;\u{0600}%{A1:touch /tmp/x:}C\u{0600}%{A} %{\u{0301}"
        var state = SampleStates.weather()
        state.weather?.condition = hostile
        state.weather?.conditionLanguage = "de"  // shown as the provider wrote it
        let item = BarItem(state: state, now: now, template: try Template("{condition}"))
        let waybar = try #require(try object(WaybarFormat.line(item))["text"] as? String)
        let bytes = Array(waybar.utf8)
        #expect(!bytes.contains(UInt8(ascii: "<")) && !bytes.contains(UInt8(ascii: ">")), "\(waybar)")
        // Every `&` starts an entity of ours.
        for (i, byte) in bytes.enumerated() where byte == UInt8(ascii: "&") {
            let after = bytes[(i + 1)...]
            #expect(["amp;", "lt;", "gt;"].contains { after.starts(with: $0.utf8) }, "\(waybar)")
        }
        let polybar = Array(PolybarFormat.line(item).utf8)
        let tag = Array("%{".utf8)
        let opened = (0..<(polybar.count - 1)).filter { Array(polybar[$0..<$0 + 2]) == tag }
        #expect(opened.isEmpty, "\(String(decoding: polybar, as: UTF8.self))")
    }

    /// Every `&` in `markup` starts an entity of ours.
    static func entitiesOnly(_ markup: String) -> Bool {
        var rest = Substring(markup)
        while let amp = rest.firstIndex(of: "&") {
            rest = rest[rest.index(after: amp)...]
            guard ["amp;", "lt;", "gt;", "quot;"].contains(where: { rest.hasPrefix($0) }) else { return false }
        }
        return true
    }

    @Test func theFontMustFitTheFormat() throws {
        #expect(try IconFont.parse("Noto Color Emoji", for: .waybar) == .family("Noto Color Emoji"))
        #expect(try IconFont.parse("Weather Icons", for: .i3bar) == .family("Weather Icons"))
        #expect(try IconFont.parse("Symbols Nerd Font", for: .i3blocks) == .family("Symbols Nerd Font"))
        #expect(try IconFont.parse("2", for: .polybar) == .polybarFont(2))
        for (text, format) in [
            ("0", OutputFormat.polybar), ("100", .polybar), ("font-1", .polybar), ("", .waybar),
            ("Noto\u{1B}[31m", .waybar), (String(repeating: "x", count: 101), .i3bar), ("Noto", .plain),
            ("Noto", .json), ("Noto", .i3statusRs),
        ] {
            #expect(throws: IconFont.Invalid.self, "\(text) for \(format)") {
                try IconFont.parse(text, for: format)
            }
        }
    }

    /// The runs a template renders read as its plain text, with the icon apart and the blanks
    /// of missing values collapsed as before.
    @Test func aTemplateRendersTheIconAsARunOfItsOwn() throws {
        let template = try Template("{icon} {temperature}{unit} {condition}")
        let values: [Placeholder: String] = [.icon: "☀\u{FE0F}", .temperature: "-5", .unit: "°C", .condition: "Clear"]
        #expect(template.text(values).runs == [.icon("☀\u{FE0F}"), .text(" -5°C Clear")])
        #expect(template.render(values) == "☀\u{FE0F} -5°C Clear")
        var noIcon = values
        noIcon[.icon] = nil
        #expect(template.text(noIcon).runs == [.text("-5°C Clear")])
        let onlyIcon = try Template("  {temperature} {icon}  ").text([.icon: "🌙"])
        #expect(onlyIcon.runs == [.icon("🌙")])
    }
}
