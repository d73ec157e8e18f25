import Foundation
import Testing
import WundercastFormats
import WundercastModel
import WundercastTestSupport

@testable import WundercastCtl

/// `watch` between the daemon's lines (issue 18): the ages it printed stay true within a minute,
/// on a manual clock.
@Suite struct WatchRefreshTests {
    let clock = ManualClock()

    /// A state the daemon sent 2 min after its weather was fetched (as decoded: ages given).
    static func state() -> WeatherState {
        var state = SampleStates.weather(fetchedAgo: 120)
        state.ageSeconds = 120
        state.location?.ageSeconds = 3
        return state
    }

    static func text(_ state: WeatherState) -> String { HumanFormat.line(state, now: SampleStates.now) }

    @Test func theAgeShownGrowsWithoutANewLine() throws {
        var refresh = WatchRefresh<ManualClock.Instant>(every: nil, enabled: true)
        #expect(refresh.nextLook == nil, "nothing to look at before a state")
        let first = Self.text(Self.state())
        #expect(first.contains("2 min ago"), "\(first)")
        refresh.arrived(Self.state(), printed: first, at: clock.now)
        #expect(refresh.nextLook == clock.at(.seconds(60)))
        clock.advance(by: .seconds(60))
        let looked = refresh.look(at: clock.now, render: Self.text)
        let again = try #require(looked)
        #expect(again.contains("3 min ago"), "\(again)")
        #expect(refresh.nextLook == clock.at(.seconds(120)))
        // 30 s later the text would read the same: nothing printed.
        clock.advance(by: .seconds(30))
        #expect(refresh.look(at: clock.now, render: Self.text) == nil)
        clock.advance(by: .seconds(150))
        #expect(refresh.look(at: clock.now, render: Self.text)?.contains("6 min ago") == true)
    }

    @Test func neverMoreOftenThanEverySpanNorInJSON() {
        #expect(WatchRefresh<ManualClock.Instant>(every: .seconds(300), enabled: true).interval == .seconds(300))
        #expect(WatchRefresh<ManualClock.Instant>(every: .seconds(10), enabled: true).interval == .seconds(60))
        var json = WatchRefresh<ManualClock.Instant>(every: nil, enabled: false)
        json.arrived(Self.state(), printed: "{}", at: clock.now)
        #expect(json.nextLook == nil)
    }

    @Test func agesGrowByWholeSecondsAndAnUnknownAgeStaysUnknown() {
        var state = Self.state()
        #expect(state.aged(by: .milliseconds(61_900)).ageSeconds == 181)
        #expect(state.aged(by: .seconds(10)).location?.ageSeconds == 13)
        state.ageSeconds = nil
        #expect(state.aged(by: .seconds(600)).ageSeconds == nil)
    }
}
