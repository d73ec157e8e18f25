import Foundation
import Synchronization
import Testing
import WundercastSupport
import WundercastModel
import WundercastProtocol
import WundercastPlaces
import WundercastPipeline
import WundercastTestSupport

/// The daemon's own fetches and the lookups share one cache (issue 7, point 6), wired as in the
/// daemon: both over one ``ProviderQueue``. The scripted provider counts requests and answers
/// only when the test says; the cache's debug lines tell when a request has joined another.
@Suite(.timeLimit(.minutes(1))) struct SharedWeatherCacheTests {
    let clock = ManualClock()
    let source = ScriptedFixSource()
    let provider = ScriptedWeatherProvider()
    let lines = EventRecorder<String>()
    static let start = Date(timeIntervalSince1970: 1_764_583_200)

    struct Running {
        let daemon: WeatherServiceTests.Running
        let lookups: LookupService
        let queue: ProviderQueue
        var store: StateStore { daemon.store }
        func stop() async { await daemon.stop() }
    }

    /// The service (GPS always) and the lookups over one queue and one cache. The wall clock
    /// follows the manual clock.
    func start(minDistance: Double = 1000) async throws -> Running {
        let clock = self.clock
        let wallClock: @Sendable () -> Date = {
            Self.start.addingTimeInterval(Double(clock.now.offset.components.seconds))
        }
        let queue = ProviderQueue(provider, wallClock: wallClock)
        let cache = WeatherCache(
            provider: queue, precision: 2, clock: clock, wallClock: wallClock,
            logger: Logger(sink: RecordingSink(lines), threshold: .debug))
        let status = ObservableValue(AuthorizationStatus.authorizedAlways)
        let service = WeatherService(
            locationManager: LocationManager(source: source, authorization: status, maxHorizontalError: 50),
            provider: queue, cache: cache, store: StateStore(provider: queue.name, authorization: .authorizedAlways),
            clock: clock,
            settings: .init(
                throttle: ThrottlePolicy(minInterval: .seconds(120), minDistance: minDistance, maxAge: .seconds(900)),
                maxFixAge: .seconds(3600), precision: 2),
            wallClock: wallClock)
        let lookups = LookupService(
            queue: queue, cache: cache, places: .none,
            settings: .init(precision: 2, maxAge: .seconds(900), lookupsPerMinute: 60), wallClock: wallClock)
        let daemon = WeatherServiceTests.Running(service: service, status: status, task: Task { await service.run() })
        try await source.waitForOpen()
        return Running(daemon: daemon, lookups: lookups, queue: queue)
    }

    /// Sends a fix and waits for request number `request`.
    func send(_ latitude: Double, _ longitude: Double, request: Int) async throws {
        source.send(makeFix(latitude, longitude))
        try await provider.waitForRequests(request)
    }

    func object(_ line: [UInt8]) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])
    }

    func at(_ latitude: Double, _ longitude: Double) -> SocketProtocol.PlaceQuery {
        .coordinate(Coordinate(latitude: latitude, longitude: longitude))
    }

    /// `weather LAT,LON` for the daemon's rounded position while its fetch is in flight: no
    /// second request; both get the one answer.
    @Test func aLookupJoinsTheDaemonsFetchInFlight() async throws {
        let running = try await start()
        try await send(44.437512, 26.125049, request: 1)
        async let lookup = running.lookups.weather(at(44.4401, 26.1302), user: 1000, reader: .precise)
        #expect(await lines.wait { $0.contains { $0.contains("1 joined a request in flight") } })
        provider.answerNext(with: .success(makeWeather(-5)))
        let answer = try object(await lookup)
        #expect((answer["weather"] as? [String: Any])?["temperature"] as? Double == -5)
        await running.daemon.state("fresh") { $0.status == .fresh && $0.weather?.temperature == -5 }
        #expect(provider.requested == [Coordinate(latitude: 44.44, longitude: 26.13)])
        #expect(running.queue.counts == (1, 0))
        await running.stop()
    }

    /// The daemon arrives where a lookup has just fetched: the stored answer is published with
    /// the time the lookup fetched it, and no request is made.
    @Test func theDaemonUsesWhatALookupJustFetched() async throws {
        let running = try await start()
        try await send(10, 10, request: 1)
        provider.answerNext(with: .success(makeWeather(1)))
        await running.daemon.state("fresh at the first place") { $0.weather?.temperature == 1 }
        async let lookup = running.lookups.weather(at(10.5, 10.5), user: 1000, reader: .precise)
        try await provider.waitForRequests(2)
        provider.answerNext(with: .success(makeWeather(2)))
        _ = try object(await lookup)
        clock.advance(by: .seconds(200))
        source.send(makeFix(10.5012, 10.4987))
        let there = await running.daemon.state("the looked-up weather") { $0.weather?.temperature == 2 }
        #expect(there?.status == .fresh)
        #expect(there?.fetchedAt == Self.start, "the time the lookup fetched it, not now")
        #expect(there?.stamped(now: Self.start.addingTimeInterval(200)).ageSeconds == 200)
        #expect(provider.requested.count == 2)
        #expect(lines.values.contains { $0.contains("1 served from the cache") })
        // Refreshed MaxAge after the lookup's request, not after the daemon's fetch: never older.
        try await clock.waitForSleeper(until: clock.at(.seconds(900)))
        clock.advance(by: .seconds(700))
        try await provider.waitForRequests(3)
        #expect(provider.requested.last == Coordinate(latitude: 10.5, longitude: 10.5))
        await running.stop()
    }

    /// A lookup is never served an answer whose request started `MaxAge` or more ago (here
    /// 1.5 × `MaxAge`): the cache keeps no age of its own, each caller asks with its rule's.
    @Test func aLookupIsNotServedAnAnswerMaxAgeOld() async throws {
        let running = try await start()
        async let first = running.lookups.weather(at(20, 20), user: 1000, reader: .precise)
        try await provider.waitForRequests(1)
        provider.answerNext(with: .success(makeWeather(1)))
        _ = try object(await first)
        clock.advance(by: .seconds(899))
        let stored = try object(await running.lookups.weather(at(20, 20), user: 1000, reader: .precise))
        #expect((stored["weather"] as? [String: Any])?["temperature"] as? Double == 1)
        #expect(provider.requested.count == 1, "899 s old: served from the cache")
        clock.advance(by: .seconds(451))
        async let late = running.lookups.weather(at(20, 20), user: 1000, reader: .precise)
        try await provider.waitForRequests(2)
        provider.answerNext(with: .success(makeWeather(2)))
        #expect((try object(await late)["weather"] as? [String: Any])?["temperature"] as? Double == 2)
        await running.stop()
    }

    /// The daemon's refresh `MaxAge` after its fetch asks the provider although the answer is
    /// still stored: the session asks the cache with the throttle's `MaxAge`, never a longer one.
    @Test func theStationaryRefreshIsNotServedTheStoredAnswer() async throws {
        let running = try await start()
        try await send(10, 10, request: 1)
        provider.answerNext(with: .success(makeWeather(1)))
        await running.daemon.state("fresh") { $0.weather?.temperature == 1 }
        try await clock.waitForSleeper(until: clock.at(.seconds(900)))
        clock.advance(by: .seconds(900))
        try await provider.waitForRequests(2)
        provider.answerNext(with: .success(makeWeather(2)))
        await running.daemon.state("refreshed") { $0.status == .fresh && $0.weather?.temperature == 2 }
        #expect(!lines.values.contains { $0.contains("served from the cache") })
        await running.stop()
    }

    /// After a failed fetch the retry asks the provider, although the cache still holds the
    /// earlier answer for that cell: a stored answer would hide that the provider still fails.
    @Test func theRetryAfterAFailureAsksTheProvider() async throws {
        let running = try await start()
        try await send(10, 10, request: 1)
        provider.answerNext(with: .success(makeWeather(1)))
        await running.daemon.state("fresh") { $0.status == .fresh }
        clock.advance(by: .seconds(130))
        running.daemon.service.refresh()
        try await provider.waitForRequests(2)
        provider.answerNext(with: .failure(.http(status: 500, reason: nil, retryAfter: nil)))
        await running.daemon.state("stale after the failure") { $0.status == .stale }
        try await clock.waitForSleeper(until: clock.at(.seconds(135)))
        clock.advance(by: .seconds(5))
        try await provider.waitForRequests(3)
        provider.answerNext(with: .success(makeWeather(3)))
        await running.daemon.state("fresh again") { $0.status == .fresh && $0.weather?.temperature == 3 }
        await running.stop()
    }

    /// A move far enough for the throttle but inside the rounding cell: the fetch is served from
    /// the cache; a move into the next cell asks the provider.
    @Test func aMoveInsideTheRoundingCellMakesNoRequest() async throws {
        let running = try await start(minDistance: 100)
        try await send(48.1371, 11.5754, request: 1)
        provider.answerNext(with: .success(makeWeather(9)))
        await running.daemon.state("fresh") { $0.status == .fresh }
        clock.advance(by: .seconds(130))
        source.send(makeFix(48.1399, 11.5780))  // 370 m away, still 48.14,11.58
        #expect(await lines.wait { $0.contains { $0.contains("1 served from the cache") } })
        #expect(provider.requested.count == 1)
        clock.advance(by: .seconds(130))
        try await send(48.1460, 11.5754, request: 2)  // 48.15: the next cell
        #expect(provider.requested.last == Coordinate(latitude: 48.15, longitude: 11.58))
        await running.stop()
    }

    /// `around` the daemon's position while its fetch is in flight: the centre joins it, the
    /// other eight cells are asked (one request each: this provider cannot batch).
    @Test func aroundJoinsTheDaemonsFetchForItsCentre() async throws {
        let running = try await start()
        try await send(44.44, 26.13, request: 1)
        let around = Task {
            await running.lookups.around(
                nil, step: 0.1, current: Coordinate(latitude: 44.44, longitude: 26.13), user: 1, reader: .precise)
        }
        #expect(await lines.wait { $0.contains { $0.contains("1 joined a request in flight, 8 asked in 8 requests") } })
        for n in 1...9 {
            try await provider.waitForRequests(n)
            provider.answerNext(with: .success(makeWeather(Double(n))))
        }
        let cells = try #require(try object(await around.value)["cells"] as? [[String: Any]])
        #expect(cells.compactMap { ($0["weather"] as? [String: Any])?["temperature"] as? Double }.count == 9)
        #expect(provider.requested.count == 9)
        #expect(Set(provider.requested).count == 9)
        #expect(provider.maxInFlight == 1)
        await running.daemon.state("fresh") { $0.status == .fresh && $0.weather?.temperature == 1 }
        await running.stop()
    }
}
