import Foundation
import Testing
import WundercastCore
import WundercastTestSupport

@Suite struct WeatherPipelineTests {
    let clock = ManualClock()
    let provider = ScriptedWeatherProvider()
    let store = StateStore(provider: "scripted", authorization: .authorizedAlways)

    func makePipeline(precision: Int = 2) -> WeatherPipeline<ManualClock> {
        WeatherPipeline(
            provider: provider, store: store, clock: clock, precision: precision, refreshInterval: .seconds(900),
            backoff: Backoff(initial: .seconds(5), maximum: .seconds(60)),
            wallClock: { Date(timeIntervalSince1970: 1_700_000_000) })
    }

    @Test func fetchesRoundedPositionAndPublishesFresh() async {
        let pipeline = makePipeline(precision: 2)
        await pipeline.submit(Position(makeFix(44.437512, 26.125049)))
        await provider.waitForRequests(1)
        #expect(provider.requested == [Coordinate(latitude: 44.44, longitude: 26.13)])
        #expect(store.current.status == .fetching)
        #expect(store.current.location?.latitude == 44.44)
        provider.answerNext(with: .success(makeWeather(-5.3)))
        await clock.waitForSleepers()  // the refresh timer
        #expect(store.current.status == .fresh)
        #expect(store.current.weather?.temperature == -5.3)
        #expect(store.current.fetchedAt == Date(timeIntervalSince1970: 1_700_000_000))
        await pipeline.stop()
    }

    @Test func latestPositionWinsAndCancelsTheOlderFetch() async {
        let pipeline = makePipeline()
        await pipeline.submit(Position(makeFix(10, 10)))
        await provider.waitForRequests(1)
        await pipeline.submit(Position(makeFix(20, 20)))
        await provider.waitForRequests(2)
        #expect(provider.cancelledCount == 1)
        #expect(provider.answerNext(with: .success(makeWeather(20))) == Coordinate(latitude: 20, longitude: 20))
        await clock.waitForSleepers()
        #expect(store.current.weather?.temperature == 20)
        #expect(store.current.location?.latitude == 20)
        await pipeline.stop()
    }

    @Test func failureKeepsLastGoodWeatherMarksStaleAndBacksOff() async {
        let pipeline = makePipeline()
        await pipeline.submit(Position(makeFix(1, 1)))
        await provider.waitForRequests(1)
        provider.answerNext(with: .success(makeWeather(7)))
        await clock.waitForSleepers()
        clock.advance(by: .seconds(900))  // refresh
        await provider.waitForRequests(2)
        provider.answerNext(with: .failure(.http(status: 500, reason: nil, retryAfter: nil)))
        await clock.waitForSleepers()
        #expect(store.current.status == .stale)
        #expect(store.current.weather?.temperature == 7)
        #expect(store.current.error?.code == "http-500")
        // Back-off: 5 s, then 10 s — never sooner.
        clock.advance(by: .seconds(4))
        #expect(provider.requested.count == 2)
        clock.advance(by: .seconds(1))
        await provider.waitForRequests(3)
        provider.answerNext(with: .failure(.transport(code: 7, message: "refused")))
        await clock.waitForSleepers()
        #expect(store.current.status == .stale)
        clock.advance(by: .seconds(9))
        #expect(provider.requested.count == 3)
        clock.advance(by: .seconds(1))
        await provider.waitForRequests(4)
        provider.answerNext(with: .success(makeWeather(8)))
        await clock.waitForSleepers()
        #expect(store.current.status == .fresh)
        #expect(store.current.error == nil)
        await pipeline.stop()
    }

    @Test func retryAfterLongerThanBackoffIsHonoured() async {
        let pipeline = makePipeline()
        await pipeline.submit(Position(makeFix(1, 1)))
        await provider.waitForRequests(1)
        provider.answerNext(with: .failure(.http(status: 429, reason: "slow down", retryAfter: 120)))
        await clock.waitForSleepers()
        #expect(store.current.status == .error)
        clock.advance(by: .seconds(119))
        #expect(provider.requested.count == 1)
        clock.advance(by: .seconds(1))
        await provider.waitForRequests(2)
        await pipeline.stop()
    }

    @Test func hugeRetryAfterIsCappedAtAnHour() async {
        let pipeline = makePipeline()
        await pipeline.submit(Position(makeFix(1, 1)))
        await provider.waitForRequests(1)
        provider.answerNext(with: .failure(.http(status: 503, reason: nil, retryAfter: 1e17)))
        await clock.waitForSleepers()
        clock.advance(by: .seconds(3599))
        #expect(provider.requested.count == 1)
        clock.advance(by: .seconds(1))
        await provider.waitForRequests(2)
        await pipeline.stop()
    }

    @Test func firstFailureWithoutWeatherIsOfflineOrError() async {
        let pipeline = makePipeline()
        await pipeline.submit(Position(makeFix(1, 1)))
        await provider.waitForRequests(1)
        provider.answerNext(with: .failure(.transport(code: 6, message: "could not resolve host")))
        await clock.waitForSleepers()
        #expect(store.current.status == .offline)
        #expect(store.current.weather == nil)
        await pipeline.stop()
    }
}

@Suite struct WeatherServiceTests {
    let clock = ManualClock()
    let source = ScriptedFixSource()
    let provider = ScriptedWeatherProvider()

    func makeService(
        _ status: AuthorizationStatus, fallback: FallbackPlace? = nil
    )
        -> (WeatherService<ManualClock>, StateStore, ObservableValue<AuthorizationStatus>)
    {
        let authorization = ObservableValue(status)
        let store = StateStore(provider: provider.name, authorization: status)
        let manager = LocationManager(source: source, authorization: authorization, maxHorizontalError: 100)
        let pipeline = WeatherPipeline(
            provider: provider, store: store, clock: clock, precision: 3, refreshInterval: .seconds(900))
        let throttle = Throttle(
            policy: ThrottlePolicy(minInterval: .seconds(30), minDistance: 500, maxAge: .seconds(600)), clock: clock)
        let service = WeatherService(
            locationManager: manager, pipeline: pipeline, throttle: throttle, clock: clock, fallback: fallback)
        return (service, store, authorization)
    }

    @Test func alwaysFollowsTheGPSThroughTheThrottle() async {
        let (service, _, _) = makeService(.authorizedAlways)
        let run = Task { await service.run() }
        defer { run.cancel() }
        await source.waitForOpen()
        await eventually("open") { service.locationManager.isSourceOpen }
        source.send(makeFix(48.1, 8.1))
        await provider.waitForRequests(1)
        source.send(makeFix(48.2, 8.1))  // far, but within MinInterval: held back
        await eventually("second fix offered") { service.throttle.counts.offered == 2 }
        clock.advance(by: .seconds(31))
        source.send(makeFix(48.3, 8.1))
        await provider.waitForRequests(2)
        #expect(provider.requested.map(\.latitude) == [48.1, 48.3])
    }

    @Test func whenInUseOpensGPSOnlyWhileSomeoneWatches() async {
        let (service, _, _) = makeService(.authorizedWhenInUse)
        let run = Task { await service.run() }
        defer { run.cancel() }
        await eventually("service started") { service.demand.readerCount > 0 }
        #expect(source.openCount == 0)
        service.demand.send(1)
        await source.waitForOpen()
        service.demand.send(0)
        await eventually("released with nobody watching") { source.releaseCount == 1 }
        #expect(source.openStreams == 0)
    }

    @Test func deniedUsesTheFallbackAndNeverOpensGPS() async {
        let (service, store, _) = makeService(
            .denied, fallback: .coordinate(Coordinate(latitude: 59.9139, longitude: 10.7522)))
        let run = Task { await service.run() }
        defer { run.cancel() }
        await provider.waitForRequests(1)
        #expect(provider.requested == [Coordinate(latitude: 59.914, longitude: 10.752)])
        #expect(store.current.location?.source == "fallback")
        #expect(source.openCount == 0)
    }

    @Test func weatherKeptAfterGPSUseIsWithdrawnIsStaleNotFresh() async {
        let (service, store, authorization) = makeService(.authorizedAlways)
        let run = Task { await service.run() }
        defer { run.cancel() }
        await source.waitForOpen()
        await eventually("open") { service.locationManager.isSourceOpen }
        source.send(makeFix(48.1, 8.1))
        await provider.waitForRequests(1)
        provider.answerNext(with: .success(makeWeather(12)))
        await eventually("fresh") { store.current.status == .fresh }
        authorization.send(.notDetermined)
        await eventually("stale once fetching stopped") { store.current.status == .stale }
        #expect(store.current.weather?.temperature == 12)
        #expect(store.current.error?.code == "not-determined")
    }

    @Test func askWaitsForADecision() async {
        let (service, store, authorization) = makeService(.notDetermined)
        let run = Task { await service.run() }
        defer { run.cancel() }
        await eventually("no-location published") { store.current.error?.code == "not-determined" }
        #expect(store.current.status == .noLocation)
        #expect(source.openCount == 0)
        authorization.send(.authorizedAlways)
        await source.waitForOpen()
        await eventually("authorization published") { store.current.authorization == .authorizedAlways }
    }
}
