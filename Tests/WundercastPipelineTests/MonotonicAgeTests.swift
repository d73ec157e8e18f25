import Foundation
import Testing
import WundercastFormats
import WundercastModel
import WundercastPipeline
import WundercastProtocol
import WundercastTestSupport

/// Issue 14, "ages after a wall clock step": published ages count by the daemon's monotonic
/// clock (``Uptime``) where it stamped a moment; a reader trusts the daemon's ages.
@Suite struct MonotonicAgeTests {
    let wall = Date(timeIntervalSince1970: 1_700_000_000)

    func state() -> WeatherState {
        var state = WeatherState(status: .fresh, provider: "open-meteo")
        state.weather = makeWeather(2.6, code: 3)
        state.fetchedAt = wall
        state.fetchedUptime = .seconds(100)
        state.location = .init(latitude: 48.12, longitude: 11.57, mode: 3, source: .gpsd, receivedAt: wall)
        state.location?.receivedUptime = .seconds(95)
        return state
    }

    /// Stepped an hour back or a year ahead, 30 s later: 30 s since the fetch, 35 s since the fix.
    @Test(arguments: [-3600.0, 0, 31_536_000] as [TimeInterval])
    func agesCountByTheMonotonicClockWhateverTheWallClockDoes(step: TimeInterval) {
        let stamped = state().stamped(now: wall + 30 + step, uptime: .seconds(130))
        #expect(stamped.ageSeconds == 30)
        #expect(stamped.location?.ageSeconds == 35)
    }

    /// Without the daemon's monotonic reading (tests that move a manual wall clock; weather kept
    /// from before a restart) ages count by the wall clock, as before.
    @Test func withoutAMonotonicMomentAgesCountByTheWallClock() {
        var kept = state()
        kept.fetchedUptime = nil
        kept.location?.receivedUptime = nil
        let stamped = kept.stamped(now: wall + 90, uptime: .seconds(130))
        #expect(stamped.ageSeconds == 90)
        #expect(stamped.location?.ageSeconds == 90)
        #expect(state().stamped(now: wall + 90).ageSeconds == 90, "no uptime to stamp with: the wall clock")
    }

    /// wundercastctl formats the line the daemon sent: its ages are the daemon's, not
    /// wundercastctl's wall clock's (which may have stepped, or be another machine's).
    @Test func aReaderKeepsTheAgesTheDaemonSent() throws {
        let line = SocketProtocol.line(state().stamped(now: wall + 300, uptime: .seconds(400)))
        let decoded = try SocketProtocol.decodeState(line)
        #expect(decoded.ageSeconds == 300)
        #expect(decoded.fetchedUptime == nil && decoded.location?.receivedUptime == nil, "not on the wire")
        let readerClock = wall - 3600
        #expect(decoded.stamped(now: readerClock).ageSeconds == 300)
        #expect(HumanFormat.line(decoded, now: readerClock).hasSuffix("5 min ago"))
    }

    /// A fix received after a step back has an earlier wall time than the one shown, yet it is
    /// the newest: its receipt (and age) is published.
    @Test func aFixAfterAStepBackIsTheNewest() {
        let store = StateStore(provider: "open-meteo", authorization: .authorizedAlways)
        let fix = Position(makeFix(48.1201, 11.5702), receivedAt: wall, receivedUptime: .seconds(100))
        store.publishPosition(
            fix, rounded: Coordinate(latitude: 48.12, longitude: 11.57), receivedAt: wall, receivedUptime: .seconds(100)
        )
        store.noteFix(at: wall - 3600 + 20, uptime: .seconds(120))
        let current = store.current
        #expect(current.location?.receivedUptime == .seconds(120))
        #expect(current.stamped(now: wall - 3600 + 25, uptime: .seconds(125)).location?.ageSeconds == 5)
    }

    /// The same answer served again from the cache keeps its moment: no change of the state
    /// (no journal entry, no watcher line) for a monotonic reading that moved by nanoseconds.
    @Test func theSameAnswerAgainIsNoChange() {
        let store = StateStore(provider: "open-meteo", authorization: .authorizedAlways)
        let weather = makeWeather(2.6, code: 3)
        store.publishWeather(weather, fetchedAt: wall, fetchedUptime: .seconds(100))
        let first = store.current
        store.publishWeather(weather, fetchedAt: wall, fetchedUptime: .seconds(100) + .nanoseconds(40))
        #expect(store.current == first)
        #expect(store.current.fetchedUptime == .seconds(100))
        store.publishWeather(weather, fetchedAt: wall + 60, fetchedUptime: .seconds(160))
        #expect(store.current.fetchedUptime == .seconds(160), "a new fetch has its own moment")
    }
}
