import Foundation
import Synchronization
import Testing
import WundercastSupport
import WundercastModel
import WundercastProviders
import WundercastPipeline
import WundercastHTTP
import WundercastTestSupport

/// OpenWeatherMap through the real client against the loopback server: the shape of both
/// requests, the recorded 401 and 429 answers, an error under HTTP 200, and the key redacted
/// from every log line, state and lookup answer whatever the failure (issue 7, points 1 and 5).
@Suite(.timeLimit(.minutes(2))) struct OpenWeatherMapOverHTTPTests {
    static let key = "f4k3owm0123456789abcdef012345678"

    static func provider(
        _ server: FixtureHTTPServer, base: String? = nil, units: UnitSystem = .metric
    )
        -> OpenWeatherMapProvider
    {
        OpenWeatherMapProvider(
            baseURL: base ?? server.baseURL, apiKey: key, units: units, language: "fr",
            http: CurlHTTPClient(userAgent: Wundercast.userAgent, loop: TestLoop.shared, timeout: .milliseconds(800)))
    }

    static func failure(_ provider: OpenWeatherMapProvider) async -> WeatherError? {
        do {
            _ = try await provider.currentWeather(at: Coordinate(latitude: 44.34, longitude: 10.99))
            return nil
        } catch {
            return error
        }
    }

    @Test func bothRequestsHaveTheirPathQueryAndUserAgent() async throws {
        let server = try await FixtureHTTPServer()
        defer { server.stop() }
        let weather = try await Self.provider(server, units: .imperial)
            .currentWeather(at: Coordinate(latitude: 44.34, longitude: -0.5))
        // The server answers the recorded (Kelvin) body whatever was asked; the answer carries no
        // unit, so its numbers are read in the units asked: that is what OpenWeatherMap would mean.
        #expect(weather.temperature == 298.48 && weather.units.temperature == "°F")
        let requests = try server.requests()
        #expect(requests.map(\.path) == ["/data/2.5/weather", "/data/2.5/forecast"])
        for request in requests {
            #expect(request.query["lat"] == "44.34" && request.query["lon"] == "-0.5")
            #expect(request.query["units"] == "imperial" && request.query["lang"] == "fr")
            #expect(request.query["appid"] == Self.key, "the key goes to the provider, and only there")
            #expect(request.headers["user-agent"] == Wundercast.userAgent)
            #expect(request.headers["accept"] == "application/json")
        }
        #expect(requests.last?.query["cnt"] == "32", "3-hour steps of Days=3 and the day begun: 8 × 3 + 8")
        #expect(requests.first?.query["cnt"] == nil)
    }

    @Test func theRecorded401SaysToCheckTheKeyFile() async throws {
        let server = try await FixtureHTTPServer()
        defer { server.stop() }
        try server.respond(status: 401, file: "weather/openweathermap/error_401.json")
        let error = try #require(await Self.failure(Self.provider(server)))
        #expect(error.code == "http-401")
        #expect(error.message.contains("Invalid API key") && error.message.contains("APIKeyFile="))
        var policy = RetryPolicy()
        #expect(policy.failed(error, now: Date()) >= .seconds(3600), "a refused key is not retried fast")
        #expect(try server.requests().map(\.path) == ["/data/2.5/weather"])
    }

    @Test(arguments: [
        (["Retry-After": "90"], 90.0), (["Retry-After": "Wed, 21 Oct 2015 07:28:00 GMT"], 0), ([:], nil),
    ])
    func theRecorded429HonoursRetryAfter(_ headers: [String: String], _ seconds: Double?) async throws {
        let server = try await FixtureHTTPServer()
        defer { server.stop() }
        try server.respond(status: 429, file: "weather/openweathermap/error_429.json", headers: headers)
        let error = try #require(await Self.failure(Self.provider(server)))
        #expect(error.kind == .rateLimited && error.retryAfter == seconds)
        var policy = RetryPolicy()
        let wait = policy.failed(error, now: Date())
        #expect(wait >= .seconds(seconds ?? 60), "Retry-After, else at least a minute: \(wait)")
    }

    @Test func anErrorUnderHTTP200IsAnErrorBody() async throws {
        let server = try await FixtureHTTPServer()
        defer { server.stop() }
        try server.respond(body: #"{"message":"","cod":"404"}"#)
        #expect(await Self.failure(Self.provider(server)) == .errorBody(status: 200, providerCode: "404", reason: nil))
    }

    /// The key in every request, echoed back by the server where it can be; the provider queue,
    /// the service (its state and log line) and a lookup see each failure. Nothing captured may
    /// hold the key or a part of it.
    @Test func noCapturedTextEverContainsTheKey() async throws {
        let server = try await FixtureHTTPServer()
        defer { server.stop() }
        let closed = try await CurlHTTPClientTests.closedPort()
        let key = Self.key
        struct Case {
            var code: String
            var base: String?
            var setUp: (FixtureHTTPServer) throws -> Void = { _ in }
        }
        func body(_ cod: String, _ message: String) -> String { #"{"cod":\#(cod),"message":"\#(message)"}"# }
        let cases: [Case] = [
            Case(code: "connect", base: "http://127.0.0.1:\(closed)"),
            Case(code: "timeout", base: nil) { try $0.respond(delaySeconds: 3) },
            Case(code: "http-401", base: nil) {
                try $0.respond(status: 401, body: body("401", "Invalid API key \(key). See faq?appid=\(key)"))
            },
            Case(code: "http-429", base: nil) {
                try $0.respond(status: 429, body: body("429", "blocked \(key)"), retryAfter: 1)
            },
            Case(code: "http-500", base: nil) { try $0.respond(status: 500, body: body("500", "appid=\(key)")) },
            Case(code: "not-json", base: nil) {
                try $0.respond(body: "<p>\(key)</p>", headers: ["Content-Type": "text/html; k=\(key)"])
            },
            Case(code: "error-body", base: nil) { try $0.respond(body: body("\"\(key)\"", "key \(key) suspended")) },
            Case(code: "decoding", base: nil) { try $0.respond(body: #"{"main":{"temp":"\#(key)"}}"#) },
        ]
        let wall = Mutex(Date(timeIntervalSince1970: 1_768_593_600))
        let wallClock: @Sendable () -> Date = { wall.withLock { $0 } }
        let provider = SwitchableBase(base: server.baseURL) { Self.provider(server, base: $0) }
        let queue = ProviderQueue(provider, wallClock: wallClock)
        let clock = ManualClock()
        let log = CapturedLog()
        let store = StateStore(provider: queue.name, authorization: .denied)
        let service = WeatherService(
            locationManager: LocationManager(
                source: ScriptedFixSource(), authorization: ObservableValue(.denied), maxHorizontalError: 50),
            provider: queue, store: store, clock: clock,
            settings: .init(
                throttle: ThrottlePolicy(minInterval: .seconds(10), minDistance: 1000, maxAge: .seconds(60)),
                maxFixAge: .seconds(120), precision: 2,
                fallback: .coordinate(Coordinate(latitude: 44.34, longitude: 10.99))),
            wallClock: wallClock, logger: log.logger)
        let lookups = LookupService(
            queue: queue, places: .none, settings: .init(precision: 2, maxAge: .seconds(60), lookupsPerMinute: 1000),
            wallClock: wallClock)
        let states = Mutex<[String]>([])
        let collector = Task {
            for await state in store.states() {
                let json = String(decoding: try JSONEncoder().encode(state), as: UTF8.self)
                states.withLock { $0.append(json) }
            }
        }
        let running = Task { await service.run() }
        func next(_ what: String, _ predicate: @escaping @Sendable (WeatherState) -> Bool) async {
            wall.withLock { $0 += 25 * 3600 }
            clock.advance(by: .seconds(25 * 3600))
            if await store.waitFor(predicate) == nil { Issue.record("no state \(what); last: \(store.current)") }
        }

        var answers: [String] = []
        await next("first fresh") { $0.status == .fresh }
        #expect(store.current.weather?.openWeatherMapID == 501)
        for (index, c) in cases.enumerated() {
            try server.reset()
            provider.base.withLock { $0 = c.base ?? server.baseURL }
            try c.setUp(server)
            let code = c.code
            await next("stale with \(code)") { $0.status == .stale && $0.error?.code == code }
            let answer = await lookups.weather(
                .coordinate(Coordinate(latitude: Double(index), longitude: 1)), user: UInt32(index), reader: .precise)
            answers.append(String(decoding: answer, as: UTF8.self))
            try server.reset()
            provider.base.withLock { $0 = server.baseURL }
            await next("fresh after \(code)") { $0.status == .fresh }
        }
        running.cancel()
        await running.value
        store.finish()
        _ = await collector.result

        let captured = states.withLock { $0 } + answers + log.texts
        #expect(captured.count > 3 * cases.count)
        for text in captured {
            #expect(!text.contains(key), "\(text)")
            #expect(!text.contains(String(key.prefix(12))), "no part of the key either: \(text)")
        }
        #expect(log.texts.contains { $0.contains("HTTP 401: Invalid API key REDACTED") })
        #expect(try server.requests().allSatisfy { $0.query["appid"] == key })
    }
}

/// An OpenWeatherMap provider whose base URL a test changes between fetches.
private final class SwitchableBase: WeatherProvider {
    let base: Mutex<String>
    let make: @Sendable (String) -> OpenWeatherMapProvider
    init(base: String, make: @escaping @Sendable (String) -> OpenWeatherMapProvider) {
        self.base = Mutex(base)
        self.make = make
    }
    var name: String { "openweathermap" }
    var secrets: Secrets { make("http://x").secrets }
    func currentWeather(at coordinate: Coordinate) async throws(WeatherError) -> Weather {
        try await make(base.withLock { $0 }).currentWeather(at: coordinate)
    }
}
