import Foundation
import Testing
import WundercastModel
import WundercastConfiguration
import WundercastPipeline
import WundercastTestSupport

/// The weather service starting over weather kept from before a restart: the kept place is
/// not mistaken for the daemon's own, so the first fetch of this run is shown and made fresh.
@Suite(.timeLimit(.minutes(1))) struct RestoredWeatherServiceTests {
    let clock = ManualClock()
    let source = ScriptedFixSource()
    let provider = ScriptedWeatherProvider()
    static let fetchedAt = Date(timeIntervalSince1970: 1_764_500_000)

    func start(
        _ status: AuthorizationStatus, fallback: FallbackPlace?, kept: WeatherState.Location
    ) -> (
        StateStore, Task<Void, Never>, LocationManager
    ) {
        let authorization = ObservableValue(status)
        let manager = LocationManager(source: source, authorization: authorization, maxHorizontalError: 50)
        let store = StateStore(provider: "scripted", authorization: status)
        store.restore(makeWeather(-1), fetchedAt: Self.fetchedAt, location: kept, ageKnown: true)
        let service = WeatherService(
            locationManager: manager, provider: provider, store: store, clock: clock,
            settings: .init(
                throttle: ThrottlePolicy(minInterval: .seconds(120), minDistance: 1000, maxAge: .seconds(900)),
                maxFixAge: .seconds(120), precision: 2, fallback: fallback),
            wallClock: { Date(timeIntervalSince1970: 1_764_583_200) }, logger: .discard)
        return (store, Task { await service.run() }, manager)
    }

    /// The kept place is the configured fallback place, rounded alike.
    @Test func theFallbackPlaceKeptIsFetchedAgainAndTurnsFresh() async throws {
        let place = Coordinate(latitude: 59.9139, longitude: 10.7522)
        let kept = WeatherState.Location(latitude: 59.91, longitude: 10.75, source: .fallback, name: "Oslo")
        let (store, task, manager) = start(.denied, fallback: .resolved(name: "Oslo", place), kept: kept)
        try await provider.waitForRequests(1)
        let fetching = try #require(await store.waitFor { $0.status == .fetching })
        #expect(fetching.location?.status == .current)
        #expect(fetching.weather?.temperature == -1, "the kept weather shows while fetching")
        provider.answerNext(with: .success(makeWeather(4)))
        let fresh = try #require(await store.waitFor { $0.weather?.temperature == 4 })
        #expect(fresh.status == .fresh)
        #expect(fresh.location?.name == "Oslo")
        #expect(fresh.error == nil)
        task.cancel()
        await task.value
        manager.close()
    }

    /// The kept GPS place, and a first fix in the same rounded cell.
    @Test func aFirstFixAtTheKeptPlaceIsFetchedAndTurnsFresh() async throws {
        let kept = WeatherState.Location(latitude: 48.12, longitude: 11.57, source: .gpsd)
        let (store, task, manager) = start(.authorizedAlways, fallback: nil, kept: kept)
        #expect(store.current.status == .stale)
        #expect(store.current.error?.code == "cached")
        try await source.waitForOpen()
        source.send(makeFix(48.1201, 11.5702))
        try await provider.waitForRequests(1)
        provider.answerNext(with: .success(makeWeather(4)))
        let fresh = try #require(await store.waitFor { $0.weather?.temperature == 4 })
        #expect(fresh.status == .fresh)
        #expect(fresh.location?.mode == 3, "the position of this run, not the kept one")
        task.cancel()
        await task.value
        manager.close()
    }
}
