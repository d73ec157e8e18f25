import Foundation
import Synchronization
import Testing
import WundercastSupport
import WundercastModel
import WundercastProviders
import WundercastPipeline
import WundercastTestSupport

/// The weather cache on its own (issue 7, point 6): a scripted provider that counts requests and
/// answers only when the test says, a monotonic clock the test moves, and the cache's debug
/// lines to know when a request has joined another (no sleeps).
@Suite(.timeLimit(.minutes(1))) struct WeatherCacheTests {
    /// The age the tests' callers allow (the daemon's default `MaxAge`).
    static let maxAge: Duration = .seconds(900)

    let provider = ScriptedWeatherProvider()
    let clocks = Clocks()
    let lines = EventRecorder<String>()

    /// A monotonic clock and a wall clock that the test moves together.
    final class Clocks: Sendable {
        private let now = Mutex((uptime: Duration.zero, wall: Date(timeIntervalSince1970: 1_764_583_200)))
        var uptime: Duration { now.withLock { $0.uptime } }
        var wall: Date { now.withLock { $0.wall } }
        func advance(_ seconds: Int) {
            now.withLock {
                $0.uptime += .seconds(seconds)
                $0.wall += Double(seconds)
            }
        }
    }

    func cache(capacity: Int = 512) -> WeatherCache {
        let clocks = self.clocks
        return WeatherCache(
            provider: provider, precision: 2, capacity: capacity, uptime: { clocks.uptime },
            wallClock: { clocks.wall }, logger: Logger(sink: RecordingSink(lines), threshold: .debug))
    }

    func advance(_ seconds: Int) { clocks.advance(seconds) }

    static func temperature<R>(_ outcome: WeatherCache.Outcome<R>) -> Double? {
        if case .weather(let answer) = outcome { answer.weather.temperature } else { nil }
    }

    /// Fetches a position through `cache` that needs a request, answering it with `temperature`.
    @discardableResult
    func fetch(
        _ cache: WeatherCache, _ latitude: Double, _ longitude: Double, answer temperature: Double
    ) async throws
        -> CachedWeather
    {
        let before = provider.requested.count
        async let answer = cache.weather(at: Coordinate(latitude: latitude, longitude: longitude), maxAge: Self.maxAge)
        try await provider.waitForRequests(before + 1)
        provider.answerNext(with: .success(makeWeather(temperature)))
        return try await answer
    }

    @Test func concurrentRequestsForOneRoundedPositionMakeOneRequest() async throws {
        let cache = cache()
        async let first = cache.weather(at: Coordinate(latitude: 48.1371, longitude: 11.5754), maxAge: Self.maxAge)
        try await provider.waitForRequests(1)
        async let second = cache.weather(at: Coordinate(latitude: 48.1369, longitude: 11.5751), maxAge: Self.maxAge)
        #expect(await lines.wait { $0.contains { $0.contains("1 joined a request in flight") } })
        provider.answerNext(with: .success(makeWeather(7)))
        let (a, b) = try await (first, second)
        #expect(provider.requested == [Coordinate(latitude: 48.14, longitude: 11.58)])
        #expect(a == b)
        #expect(a.weather.temperature == 7)
        #expect(!a.fromCache && !b.fromCache, "both waited for the one request")
    }

    @Test func aStoredAnswerKeepsItsFetchTimeAndObservationTime() async throws {
        let cache = cache()
        var observed = makeWeather(3)
        observed.time = Date(timeIntervalSince1970: 1_764_583_000)
        async let first = cache.weather(at: Coordinate(latitude: 10, longitude: 10), maxAge: Self.maxAge)
        try await provider.waitForRequests(1)
        provider.answerNext(with: .success(observed))
        let fetched = try await first
        #expect(fetched.fetchedAt == Date(timeIntervalSince1970: 1_764_583_200))
        advance(600)
        let again = try await cache.weather(at: Coordinate(latitude: 10.001, longitude: 9.999), maxAge: Self.maxAge)
        #expect(again.fromCache)
        #expect(again.fetchedAt == fetched.fetchedAt, "not the time it was served again")
        #expect(again.weather.time == observed.time)
        #expect(provider.requested.count == 1)
    }

    /// The TTL runs from the start of the request: at exactly `MaxAge` the answer is expired, so
    /// the daemon's stationary refresh `MaxAge` after its fetch still asks the provider.
    @Test func theAnswerExpiresTTLAfterItsRequestStarted() async throws {
        let cache = cache()
        async let first = cache.weather(at: Coordinate(latitude: 1, longitude: 2), maxAge: Self.maxAge)
        try await provider.waitForRequests(1)
        advance(5)  // the request takes 5 s
        provider.answerNext(with: .success(makeWeather(1)))
        _ = try await first
        advance(894)  // 899 s after the request started
        #expect(try await cache.weather(at: Coordinate(latitude: 1, longitude: 2), maxAge: Self.maxAge).fromCache)
        advance(1)  // 900 s
        async let expired = cache.weather(at: Coordinate(latitude: 1, longitude: 2), maxAge: Self.maxAge)
        try await provider.waitForRequests(2)
        provider.answerNext(with: .success(makeWeather(2)))
        let renewed = try await expired
        #expect(!renewed.fromCache)
        #expect(renewed.weather.temperature == 2)
    }

    @Test func reloadAsksAgainAndStoresTheNewAnswer() async throws {
        let cache = cache()
        try await fetch(cache, 5, 5, answer: 1)
        async let reloaded = cache.weather(
            at: Coordinate(latitude: 5, longitude: 5), maxAge: Self.maxAge, freshness: .reload)
        try await provider.waitForRequests(2)
        provider.answerNext(with: .success(makeWeather(2)))
        #expect(try await reloaded.weather.temperature == 2)
        #expect(
            try await cache.weather(at: Coordinate(latitude: 5, longitude: 5), maxAge: Self.maxAge).weather.temperature
                == 2)
    }

    @Test func failuresAreNotStored() async throws {
        let cache = cache()
        let failing = Task { try await cache.weather(at: Coordinate(latitude: 3, longitude: 3), maxAge: Self.maxAge) }
        try await provider.waitForRequests(1)
        provider.answerNext(with: .failure(.http(status: 500, reason: nil, retryAfter: nil)))
        await #expect(throws: WeatherError.http(status: 500, reason: nil, retryAfter: nil)) { try await failing.value }
        try await fetch(cache, 3, 3, answer: 4)
        #expect(provider.requested.count == 2)
    }

    /// At most `capacity` answers; the least recently used goes first.
    @Test func theCacheIsBoundedAndDropsTheLeastRecentlyUsed() async throws {
        let cache = cache(capacity: 3)
        for n in 1...3 { try await fetch(cache, Double(n), 0, answer: Double(n)) }
        #expect(cache.count == 3)
        advance(10)
        _ = try await cache.weather(at: Coordinate(latitude: 1, longitude: 0), maxAge: Self.maxAge)  // 1 is used again: 2 is oldest
        try await fetch(cache, 4, 0, answer: 4)
        #expect(cache.count == 3)
        #expect(try await cache.weather(at: Coordinate(latitude: 1, longitude: 0), maxAge: Self.maxAge).fromCache)
        #expect(try await cache.weather(at: Coordinate(latitude: 3, longitude: 0), maxAge: Self.maxAge).fromCache)
        #expect(provider.requested.count == 4)
        try await fetch(cache, 2, 0, answer: 2)
        #expect(provider.requested.count == 5, "the dropped answer is asked again")
        for n in 10...40 { try await fetch(cache, Double(n), 0, answer: 0) }
        #expect(cache.count == 3)
    }

    /// A waiter that leaves does not end the request for the others; the last one does, and
    /// returns only after the request has ended.
    @Test func aCancelledWaiterLeavesAndTheLastOneEndsTheRequest() async throws {
        let cache = cache()
        let position = Coordinate(latitude: 6, longitude: 6)
        let leaving = Task { try await cache.weather(at: position, maxAge: Self.maxAge) }
        try await provider.waitForRequests(1)
        async let staying = cache.weather(at: position, maxAge: Self.maxAge)
        #expect(await lines.wait { $0.contains { $0.contains("joined") } })
        leaving.cancel()
        await #expect(throws: WeatherError.cancelled) { try await leaving.value }
        #expect(provider.cancelledCount == 0)
        provider.answerNext(with: .success(makeWeather(6)))
        #expect(try await staying.weather.temperature == 6)

        let alone = Task { try await cache.weather(at: Coordinate(latitude: 7, longitude: 7), maxAge: Self.maxAge) }
        try await provider.waitForRequests(2)
        alone.cancel()
        await #expect(throws: WeatherError.cancelled) { try await alone.value }
        #expect(provider.cancelledCount == 1, "the request ended before its last waiter returned")
        #expect(provider.log.last == .ended(Coordinate(latitude: 7, longitude: 7)))
        // Abandoned, not joined: a new waiter makes a new request.
        try await fetch(cache, 7, 7, answer: 7)
        #expect(provider.requested.count == 3)
    }

    /// Nine positions at once: the ones stored are served, one asked twice is asked once, the
    /// rest go to a provider that batches in one request.
    @Test func positionsThatNeedARequestGoTogetherToABatchProvider() async throws {
        let batches = BatchRecorder()
        let clocks = self.clocks
        let cache = WeatherCache(
            provider: batches, precision: 1, uptime: { clocks.uptime },
            wallClock: { clocks.wall })
        let grid = LookupService.grid(around: Coordinate(latitude: 50, longitude: 8), step: 0.1)
        let first = await cache.weather(atEach: Array(grid.prefix(4)), maxAge: Self.maxAge, admit: { Never?.none })
        #expect(batches.calls.map(\.count) == [4])
        #expect(first.compactMap(Self.temperature).count == 4)
        let all = await cache.weather(atEach: grid + [grid[8]], maxAge: Self.maxAge, admit: { Never?.none })
        #expect(batches.calls.count == 2)
        let rounded = (grid + [grid[8]]).map { $0.rounded(toDecimals: 1) }
        #expect(batches.calls.last == Array(rounded[4...8]), "only the missing cells, each once")
        let temperatures = all.map(Self.temperature)
        #expect(temperatures == rounded.map(\.latitude))
        #expect(Set(temperatures).count == 3)
        // A cell that fails fails alone.
        batches.failing = Coordinate(latitude: 51, longitude: 8)
        let mixed = await cache.weather(
            atEach: [Coordinate(latitude: 51, longitude: 8), Coordinate(latitude: 52, longitude: 8)],
            maxAge: Self.maxAge, admit: { Never?.none })
        guard case .failure(.decoding) = mixed[0], case .weather = mixed[1] else {
            Issue.record("\(mixed)")
            return
        }
    }

    @Test func aRefusedPositionMakesNoRequestAndOthersStillDo() async throws {
        let cache = cache()
        let admitted = Mutex(0)
        async let outcomes = cache.weather(
            atEach: [
                Coordinate(latitude: 1, longitude: 1), Coordinate(latitude: 2, longitude: 2),
                Coordinate(latitude: 2.001, longitude: 2),
            ], maxAge: Self.maxAge
        ) { () -> String? in
            admitted.withLock { n in
                n += 1
                return n == 1 ? nil : "no room"
            }
        }
        try await provider.waitForRequests(1)
        provider.answerNext(with: .success(makeWeather(1)))
        let result = await outcomes
        guard case .weather = result[0], case .refused("no room") = result[1], case .refused("no room") = result[2]
        else {
            Issue.record("\(result)")
            return
        }
        #expect(provider.requested == [Coordinate(latitude: 1, longitude: 1)])
        #expect(admitted.withLock { $0 } == 2, "a position asked twice is offered once")
    }
}

/// A log sink that records each message.
struct RecordingSink: LogSink {
    let recorder: EventRecorder<String>
    init(_ recorder: EventRecorder<String>) { self.recorder = recorder }
    func log(
        _ priority: LogPriority, _ message: String, fields: [(String, String)], file: String, line: Int,
        function: String
    ) {
        recorder.append(message)
    }
}

/// A provider that batches and answers at once: each position's latitude as its temperature
/// (a named one fails); records each batch.
final class BatchRecorder: BatchWeatherProvider {
    let name = "batch-recorder"
    let secrets = Secrets.none
    let batchLimit = 25
    private let state = Mutex<(calls: [[Coordinate]], failing: Coordinate?)>(([], nil))
    var calls: [[Coordinate]] { state.withLock { $0.calls } }
    var failing: Coordinate? {
        get { state.withLock { $0.failing } }
        set { state.withLock { $0.failing = newValue } }
    }

    func currentWeather(at coordinate: Coordinate) async throws(WeatherError) -> Weather {
        try await currentWeather(atEach: [coordinate])[0].get()
    }

    func currentWeather(atEach coordinates: [Coordinate]) async throws(WeatherError) -> [Result<Weather, WeatherError>]
    {
        let failing = state.withLock { s in
            s.calls.append(coordinates)
            return s.failing
        }
        return coordinates.map {
            $0 == failing ? .failure(.decoding(message: "location: null")) : .success(makeWeather($0.latitude))
        }
    }
}
