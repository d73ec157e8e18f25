import Foundation
import Testing
import WundercastTestSupport

@testable import WundercastModel
@testable import WundercastPipeline

/// What of each state is kept, and when the file needs writing: only when that changes.
@Suite struct LastStateRecorderTests {
    static let now = SampleStates.now

    /// A published state: weather `temperature` fetched at `fetchedAt`, at `latitude`,11.57.
    static func state(
        _ temperature: Double = 3, fetchedAt: Date = now, latitude: Double? = 48.1234,
        status: WeatherState.Status = .fresh, authorization: AuthorizationStatus = .authorizedAlways,
        source: WeatherState.Location.Source = .gpsd
    ) -> WeatherState {
        var s = WeatherState(status: status, provider: "open-meteo", authorization: authorization)
        s.weather = makeWeather(temperature)
        s.fetchedAt = fetchedAt
        s.location = latitude.map {
            WeatherState.Location(
                latitude: $0, longitude: 11.5678, mode: 3, source: source, name: source == .fallback ? "Home" : nil,
                receivedAt: fetchedAt)
        }
        return s
    }

    /// Records `state`, counting how often the clock was asked.
    static func record(
        _ recorder: inout LastStateRecorder, _ state: WeatherState, synchronized: Bool = true, asked: inout Int
    ) -> LastState? {
        recorder.record(
            for: state,
            clockSynchronized: {
                asked += 1
                return synchronized
            })
    }

    @Test func nothingIsKeptWithoutWeather() {
        var recorder = LastStateRecorder(precision: 2, restored: nil)
        var asked = 0
        let empty = WeatherState(status: .noLocation, provider: "open-meteo", authorization: .authorizedAlways)
        #expect(Self.record(&recorder, empty, asked: &asked) == nil)
        #expect(asked == 0)
    }

    @Test func onlyAChangeOfWhatIsKeptIsWritten() throws {
        var recorder = LastStateRecorder(precision: 2, restored: nil)
        var asked = 0
        let first = try #require(Self.record(&recorder, Self.state(), asked: &asked))
        #expect(first.location == .init(latitude: 48.12, longitude: 11.57, source: .gpsd))
        #expect(first.weather.temperature == 3)
        #expect(first.clockSynchronized)
        recorder.wrote(first)

        // Status, error, fix age and a move within the kept precision change nothing on disk.
        var flapping = Self.state(status: .stale)
        flapping.error = .init(code: "http-500", message: "HTTP 500")
        flapping.location?.receivedAt = Self.now + 60
        flapping.location?.status = .lastKnown
        #expect(Self.record(&recorder, flapping, asked: &asked) == nil)
        #expect(Self.record(&recorder, Self.state(), asked: &asked) == nil)
        #expect(Self.record(&recorder, Self.state(status: .fetching), asked: &asked) == nil)
        #expect(asked == 1, "the clock is asked once per weather")

        // New weather (or only a new fetch time) is written.
        let refetched = try #require(Self.record(&recorder, Self.state(fetchedAt: Self.now + 900), asked: &asked))
        #expect(refetched.fetchedAt == Self.now + 900)
        recorder.wrote(refetched)
        let warmer = try #require(Self.record(&recorder, Self.state(4, fetchedAt: Self.now + 900), asked: &asked))
        #expect(warmer.weather.temperature == 4)
        #expect(asked == 3)
    }

    /// Not written: a failed write leaves the next state to try again.
    @Test func aRecordNotWrittenIsOfferedAgain() {
        var recorder = LastStateRecorder(precision: 2, restored: nil)
        var asked = 0
        let first = Self.record(&recorder, Self.state(), asked: &asked)
        #expect(first != nil)
        #expect(Self.record(&recorder, Self.state(status: .stale), asked: &asked) == first)
    }

    /// Moving on while the next fetch is pending or failing keeps the position the weather is for.
    @Test func thePositionKeptIsTheOneTheWeatherWasFetchedFor() throws {
        var recorder = LastStateRecorder(precision: 2, restored: nil)
        var asked = 0
        recorder.wrote(try #require(Self.record(&recorder, Self.state(latitude: 48.1234), asked: &asked)))
        #expect(Self.record(&recorder, Self.state(latitude: 48.5, status: .fetching), asked: &asked) == nil)
        #expect(Self.record(&recorder, Self.state(latitude: 48.5, status: .stale), asked: &asked) == nil)
        let moved = try #require(
            Self.record(&recorder, Self.state(5, fetchedAt: Self.now + 120, latitude: 48.5), asked: &asked))
        #expect(moved.location?.latitude == 48.5)
    }

    @Test(arguments: [0, 1, 2, 4])
    func positionsAreKeptAtThePrecision(_ precision: Int) throws {
        var recorder = LastStateRecorder(precision: precision, restored: nil)
        var asked = 0
        let record = try #require(Self.record(&recorder, Self.state(latitude: 48.1234), asked: &asked))
        let expected = Coordinate(latitude: 48.1234, longitude: 11.5678).rounded(toDecimals: precision)
        #expect(record.location?.latitude == expected.latitude)
        #expect(record.location?.longitude == expected.longitude)
    }

    /// `authorize denied` (or `ask`) hides the position: it goes from the file too, and a GPS
    /// position is never kept while GPS use is not granted.
    @Test(arguments: [AuthorizationStatus.denied, .notDetermined])
    func aGPSPositionGoesWhenGPSUseIsNotGranted(_ status: AuthorizationStatus) throws {
        var recorder = LastStateRecorder(precision: 2, restored: nil)
        var asked = 0
        recorder.wrote(try #require(Self.record(&recorder, Self.state(), asked: &asked)))
        var hidden = Self.state(status: .stale, authorization: status)
        hidden.location = nil
        let without = try #require(Self.record(&recorder, hidden, asked: &asked))
        #expect(without.location == nil)
        #expect(without.weather.temperature == 3)
        recorder.wrote(without)
        // A GPS position in a state under that status (it never has one) is not kept either.
        var fresh = LastStateRecorder(precision: 2, restored: nil)
        #expect(Self.record(&fresh, Self.state(authorization: status), asked: &asked)?.location == nil)
        // The fallback place is not a GPS position.
        let fallback = Self.record(&fresh, Self.state(7, authorization: status, source: .fallback), asked: &asked)
        #expect(fallback?.location == .init(latitude: 48.12, longitude: 11.57, source: .fallback, name: "Home"))
    }

    /// After a restart the restored state is what the file holds: nothing is written again,
    /// and the clock flag stays with the restored weather.
    @Test func theRestoredStateIsNotWrittenAgain() throws {
        var first = LastStateRecorder(precision: 2, restored: nil)
        var asked = 0
        let kept = try #require(Self.record(&first, Self.state(), synchronized: false, asked: &asked))
        let decoded = try LastState.decode(kept.encoded())
        var recorder = LastStateRecorder(precision: 2, restored: decoded)
        var restored = Self.state(latitude: 48.12, status: .stale)
        restored.weather = decoded.weather
        restored.location?.longitude = 11.57
        restored.error = .init(code: "cached", message: "weather from before the restart")
        #expect(Self.record(&recorder, restored, synchronized: true, asked: &asked) == nil)
        var hidden = restored
        hidden.location = nil
        let withoutPosition = try #require(Self.record(&recorder, hidden, synchronized: true, asked: &asked))
        #expect(withoutPosition.clockSynchronized == false, "fetched by an unsynchronised clock")
        #expect(asked == 1)
    }
}
