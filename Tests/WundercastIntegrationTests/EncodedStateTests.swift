import Foundation
import Testing
import WundercastModel
import WundercastProtocol

@testable import WundercastServer

/// The state encoded once with its ages as slots gives exactly the bytes of encoding the
/// stamped state in full, whatever the ages and whichever members are present.
@Suite struct EncodedStateTests {
    static let base = TestServer.sample.precise

    static let states: [WeatherState] = {
        var noLocation = base
        noLocation.location = nil
        var noFetch = base
        noFetch.fetchedAt = nil
        noFetch.weather = nil
        var neither = noFetch
        neither.location?.receivedAt = nil
        var withError = base
        withError.error = .init(code: "http-500", message: #"he said "ageSeconds":1 \ "#)
        withError.provider = #"x"ageSeconds":8796093022208011"#
        var ageUnknown = base
        ageUnknown.ageUnknown = true
        var ageUnknownNoLocation = ageUnknown
        ageUnknownNoLocation.location = nil
        // Moments on the monotonic clock beside the wall clock's (the daemon's), and ages given
        // already (a state decoded from a line).
        var monotonic = base
        monotonic.fetchedUptime = .seconds(1000)
        monotonic.location?.receivedUptime = .seconds(990)
        var given = base
        given.fetchedAt = nil
        given.ageSeconds = 42
        given.location?.receivedAt = nil
        given.location?.ageSeconds = 7
        return [
            base, noLocation, noFetch, neither, withError, ageUnknown, ageUnknownNoLocation, monotonic, given,
        ]
    }()

    @Test(arguments: states.indices)
    func slotsGiveTheSameBytesAsEncodingTheStampedState(index: Int) {
        let state = Self.states[index]
        let encoded = EncodedState(state)
        for offset: TimeInterval in [-5, 0, 0.999, 1, 59.5, 3600, 34_560_000] {
            let now = TestServer.wallNow + offset
            #expect(encoded.line(now: now) == SocketProtocol.line(state.stamped(now: now)), "at \(offset) s")
            var output = Array("prefix".utf8)
            encoded.write(into: &output, now: now)
            #expect(output == Array("prefix".utf8) + SocketProtocol.line(state.stamped(now: now)))
            let uptime = Duration.seconds(1000) + .milliseconds(Int64(offset * 1000))
            #expect(
                encoded.line(now: now, uptime: uptime) == SocketProtocol.line(state.stamped(now: now, uptime: uptime)),
                "at \(offset) s, monotonic")
        }
    }

    /// After a wall clock step the line's ages count by the monotonic clock: stepped an hour
    /// back or a day ahead, weather fetched 30 s ago is 30 s old, a fix received 40 s ago 40 s.
    @Test(arguments: [-3600.0, 86_400])
    func agesCountByTheMonotonicClockAcrossAWallClockStep(step: TimeInterval) throws {
        var state = Self.base
        state.fetchedAt = TestServer.wallNow
        state.fetchedUptime = .seconds(500)
        state.location?.receivedAt = TestServer.wallNow - 10
        state.location?.receivedUptime = .seconds(490)
        let line = EncodedState(state).line(now: TestServer.wallNow + 30 + step, uptime: .seconds(530))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])
        #expect(object["ageSeconds"] as? Int == 30)
        #expect((object["location"] as? [String: Any])?["ageSeconds"] as? Int == 40)
        #expect(object["fetchedUptime"] == nil, "the monotonic moments are not published")
        #expect((object["location"] as? [String: Any])?["receivedUptime"] == nil)
    }

    /// While the weather's age is unknown the line has no weather `ageSeconds` (the fix's stays).
    @Test func anUnknownAgeHasNoWeatherAgeSeconds() throws {
        var state = Self.base
        state.ageUnknown = true
        let line = String(decoding: EncodedState(state).line(now: TestServer.wallNow + 60), as: UTF8.self)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["ageSeconds"] == nil)
        #expect(object["ageUnknown"] as? Bool == true)
        #expect(object["fetchedAt"] is String)
        #expect((object["location"] as? [String: Any])?["ageSeconds"] is Int)
    }

    @Test func decimalsAreWrittenWithoutAString() {
        for value in [0, 7, 10, 99, 100, 123_456_789, Int.max] {
            var output: [UInt8] = []
            EncodedState.appendDecimal(value, to: &output)
            #expect(String(decoding: output, as: UTF8.self) == String(value))
        }
    }

    /// Only a change of weather, status or error moves the weather counter of `watch weather`.
    @Test func weatherGenerationMovesOnlyForWeatherStatusOrError() {
        var cache = StateCache(StateViews(Self.base))
        var state = Self.base
        state.location?.latitude = 1
        cache.update(state, for: .precise)
        #expect(cache[.precise].generation == 2)
        #expect(cache[.precise].weatherGeneration == 1)
        cache.update(state, for: .precise)
        #expect(cache[.precise].generation == 2, "the same state is not a change")
        state.weather?.temperature = 9
        cache.update(state, for: .precise)
        #expect(cache[.precise].weatherGeneration == 2)
        #expect(cache[.public].generation == 1, "the other class is untouched")
        // An official alert is weather for `watch weather`; its source's answer time alone is not.
        state.alerts = AlertsState(source: .nws, status: .ok, items: [], fetchedAt: Date(timeIntervalSince1970: 1))
        cache.update(state, for: .precise)
        #expect(cache[.precise].weatherGeneration == 3)
        state.alerts?.fetchedAt = Date(timeIntervalSince1970: 601)
        cache.update(state, for: .precise)
        #expect(cache[.precise].weatherGeneration == 3)
        state.alerts?.items = [
            Alert(id: "a", source: .nws, authority: "NWS", event: "Wind Advisory", severity: .moderate)
        ]
        cache.update(state, for: .precise)
        #expect(cache[.precise].weatherGeneration == 4)
    }
}
