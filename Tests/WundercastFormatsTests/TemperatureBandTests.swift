import Foundation
import Testing
import WundercastFormats
import WundercastModel
import WundercastTestSupport

/// `--hot` and `--cold` (issue 19, item 6): waybar's class whatever the status; i3blocks' and
/// i3bar's colour only while fresh without an alert — staleness, severe weather and alerts win —
/// and readable on the scheme's background.
@Suite struct TemperatureBandTests {
    let now = SampleStates.now
    static let bands = try! TemperatureBands(hot: 30, cold: 0)

    static func state(_ temperature: Double?, status: WeatherState.Status = .fresh, code: Int = 0) -> WeatherState {
        SampleStates.weather(code: code, status: status, temperature: temperature)
    }

    func item(_ state: WeatherState, bands: TemperatureBands = Self.bands) -> BarItem {
        BarItem(state: state, now: now, bands: bands)
    }

    func waybarClasses(_ item: BarItem) throws -> [String] {
        let line = WaybarFormat.line(item)
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        return try #require(object?["class"] as? [String])
    }

    /// Compared with the temperature as shown (whole degrees): 29.5 shows 30 and is hot, -0.4
    /// shows 0 and is cold, 29.4 and 0.5 are neither.
    @Test(arguments: [
        (29.5, TemperatureBands.Band?.some(.hot)), (41, .hot), (29.4, nil), (0.5, nil), (-0.4, .cold), (-20, .cold),
    ])
    func theBandOfTheTemperatureAsShown(_ temperature: Double, _ band: TemperatureBands.Band?) throws {
        let item = item(Self.state(temperature))
        #expect(item.temperatureBand == band)
        let classes = try waybarClasses(item)
        #expect(classes.contains("hot") == (band == .hot) && classes.contains("cold") == (band == .cold), "\(classes)")
    }

    @Test func withoutThresholdsOrTemperatureThereIsNoBand() throws {
        #expect(item(Self.state(45), bands: .none).temperatureBand == nil)
        #expect(item(Self.state(nil)).temperatureBand == nil)
        #expect(try TemperatureBands(hot: 30).band(Self.state(-40).weather) == nil)
        #expect(try TemperatureBands(cold: 0).band(Self.state(-40).weather) == .cold)
    }

    /// waybar's CSS decides: the class is there when stale too.
    @Test func waybarGetsTheClassWhateverTheStatus() throws {
        let classes = try waybarClasses(item(Self.state(35, status: .stale)))
        #expect(classes == ["clear", "stale", "hot"])
    }

    /// Fresh and calm: the band's colour; stale, fetching, severe weather or an alert: theirs.
    @Test(arguments: [BarColors.dark, .light])
    func theColourOnlyWhenFreshWithoutAnAlert(_ colors: BarColors) throws {
        let hot = try #require(colors.color(.hot))
        let cold = try #require(colors.color(.cold))
        #expect(Set([hot, cold]).isDisjoint(with: BarItem.Urgency.allCases.compactMap(colors.color)))
        #expect(colors.color(item(Self.state(35))) == hot)
        #expect(colors.color(item(Self.state(-5))) == cold)
        #expect(colors.color(item(Self.state(15))) == nil)
        #expect(colors.color(item(Self.state(35, status: .stale))) == colors.color(.warning))
        #expect(colors.color(item(Self.state(-5, status: .fetching))) == colors.color(.info))
        #expect(colors.color(item(Self.state(35, code: 95))) == colors.color(.critical))
        var alerted = Self.state(35)
        alerted.alerts = AlertsState(
            source: .brightSky, status: .ok,
            items: [Alert(id: "1", source: .brightSky, authority: "DWD", event: "Hitze", severity: .minor)])
        #expect(colors.color(item(alerted)) == colors.color(.warning))
        // Both bars write the colour the scheme gives.
        #expect(I3blocksFormat.lines(item(Self.state(35)), colors: colors).hasSuffix("\n\(hot)\n"))
        #expect(I3barFormat.line(item(Self.state(-5)), colors: colors).contains(#""color":"\#(cold)""#))
        #expect(!I3barFormat.line(item(Self.state(35, status: .stale)), colors: colors).contains(hot))
    }

    /// The default scheme gives no colour at all, the bands' neither.
    @Test func noSchemeNoColour() {
        #expect(BarColors.none.color(item(Self.state(35))) == nil)
        #expect(I3blocksFormat.lines(item(Self.state(35))).hasSuffix("\n\n"))
    }

    /// Issue 13's rule for the bands' colours too: at least 4.5:1 (WCAG 2) on the scheme's background.
    @Test(arguments: [BarColors.dark, .light])
    func bandColoursAreReadableOnTheirBackground(_ colors: BarColors) throws {
        let background = Self.luminance(try #require(colors.background))
        for band in TemperatureBands.Band.allCases {
            let color = try #require(colors.color(band))
            let (l1, l2) = (max(Self.luminance(color), background), min(Self.luminance(color), background))
            #expect((l1 + 0.05) / (l2 + 0.05) >= 4.5, "\(colors) \(band) \(color)")
        }
    }

    static func luminance(_ hex: String) -> Double {
        let value = Int(hex.dropFirst(), radix: 16)!
        let channels = [value >> 16, (value >> 8) & 0xFF, value & 0xFF].map { Double($0) / 255 }
        let linear = channels.map { $0 <= 0.04045 ? $0 / 12.92 : pow(($0 + 0.055) / 1.055, 2.4) }
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    }

    @Test func thresholdsMustBeFiniteWithHotAboveCold() {
        #expect(throws: TemperatureBands.Invalid.self) { try TemperatureBands(hot: 10, cold: 20) }
        #expect(throws: TemperatureBands.Invalid.self) { try TemperatureBands(hot: 10, cold: 10) }
        #expect(throws: TemperatureBands.Invalid.self) { try TemperatureBands(hot: .infinity) }
        #expect(throws: TemperatureBands.Invalid.self) { try TemperatureBands(cold: .nan) }
        #expect((try? TemperatureBands(hot: 10.5, cold: 10)) != nil)
    }
}
