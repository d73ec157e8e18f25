import Foundation
import Synchronization
import Testing
import WundercastSupport
import WundercastModel
import WundercastProviders
import WundercastPipeline
import WundercastHTTP
import WundercastTestSupport

/// Issue 7, point 5: a fake API key in every request's query, every failure kind driven through
/// the loopback server (the server echoes the key back where it can: in reasons, a content
/// type, a member, a redirect), through the real client, the redaction where the answer enters
/// (``RedactingHTTPClient``), the provider queue, the service with its state and log line, and a
/// socket lookup. No captured text may contain the key.
@Suite(.timeLimit(.minutes(2))) struct RedactionOverHTTPTests {
    static let key = "f4k3k3y0123456789abcdef0123456789"

    /// A provider with an `appid=` key in its URLs that, as every provider with a key, redacts
    /// its answers where they enter and does nothing else about secrets: its errors carry
    /// whatever the client and the body said. Decodes Open-Meteo's bodies.
    final class KeyedProvider: WeatherProvider {
        let name = "keyed-test"
        var secrets: Secrets { http.secrets }
        /// 2 s: a TLS handshake refused by a fixture server on a loaded machine is still `tls`.
        let http = RedactingHTTPClient(
            CurlHTTPClient(userAgent: "wundercast-tests/1.0", loop: TestLoop.shared, timeout: .seconds(2)),
            secrets: Secrets([RedactionOverHTTPTests.key]))
        /// Everything before `latitude=` in the URL.
        let prefix: Mutex<String>

        init(prefix: String) {
            self.prefix = Mutex(prefix)
        }

        func url(_ c: Coordinate) -> String {
            prefix.withLock { $0 }
                + "latitude=\(c.latitude)&longitude=\(c.longitude)&appid=\(RedactionOverHTTPTests.key)"
        }

        func currentWeather(at coordinate: Coordinate) async throws(WeatherError) -> Weather {
            let response = try await http.get(url(coordinate), headers: [:])
            return try OpenMeteoProvider.decode(
                status: response.status, body: response.body, contentType: response.headers["content-type"])
        }
    }

    /// A failure the server (or the URL) makes, and the `error.code` it must end as.
    struct Case: Sendable {
        var code: String
        var prefix: (@Sendable (FixtureHTTPServer, Int) -> String)?
        var setUp: @Sendable (FixtureHTTPServer) throws -> Void = { _ in }
    }

    static func reason(_ text: String) -> String { #"{"error":true,"reason":"\#(text)"}"# }

    static let cases: [Case] = [
        Case(code: "dns", prefix: { _, _ in "http://no-such-host.invalid/v1/forecast?" }),
        Case(code: "connect", prefix: { _, closed in "http://127.0.0.1:\(closed)/v1/forecast?appid=\(key)&" }),
        Case(code: "timeout", prefix: nil) { try $0.respond(delaySeconds: 6) },
        Case(code: "tls", prefix: { s, _ in "https://127.0.0.1:\(s.port)/v1/forecast?" }),
        Case(code: "http-302", prefix: { s, _ in s.baseURL + "/redirect?to=ftp://127.0.0.1/x%3Fappid%3D\(key)&" }),
        Case(code: "truncated", prefix: nil) { try $0.respond(gzip: false, truncateAt: 100) },
        Case(code: "too-large", prefix: nil) { try $0.respond(bodyBytes: 3 << 20, chunked: true) },
        Case(code: "http-401", prefix: nil) {
            try $0.respond(status: 401, body: reason("Invalid API key \(key); see https://h.invalid/faq?appid=\(key)"))
        },
        Case(code: "http-403", prefix: nil) { try $0.respond(status: 403, body: reason("key \(key) is banned")) },
        Case(code: "http-404", prefix: nil) { try $0.respond(status: 404, body: reason("no \(key) here")) },
        Case(code: "http-429", prefix: nil) {
            try $0.respond(status: 429, body: reason("slow, \(key)"), retryAfter: 1)
        },
        Case(code: "http-500", prefix: nil) { try $0.respond(status: 500, body: reason("crash at appid=\(key)")) },
        Case(code: "not-json", prefix: nil) {
            try $0.respond(body: "<html>portal \(key)</html>", headers: ["Content-Type": "text/html; x=\(key)"])
        },
        Case(code: "error-body", prefix: nil) { try $0.respond(body: reason("key \(key) suspended")) },
        Case(code: "decoding", prefix: nil) { try $0.respond(body: #"{"current":{"time":"\#(key)"}}"#) },
    ]

    @Test func noCapturedTextEverContainsTheKey() async throws {
        let server = try await FixtureHTTPServer()
        defer { server.stop() }
        let closed = try await CurlHTTPClientTests.closedPort()
        let normal = server.baseURL + "/v1/forecast?"
        let provider = KeyedProvider(prefix: normal)
        let wall = Mutex(Date(timeIntervalSince1970: 1_768_593_600))
        let wallClock: @Sendable () -> Date = { wall.withLock { $0 } }
        let queue = ProviderQueue(provider, wallClock: wallClock)
        let clock = ManualClock()
        let log = CapturedLog()  // no redacting logger: the entry redaction alone must keep the key out
        let store = StateStore(provider: queue.name, authorization: .denied)
        let service = WeatherService(
            locationManager: LocationManager(
                source: ScriptedFixSource(), authorization: ObservableValue(.denied), maxHorizontalError: 50),
            provider: queue, store: store, clock: clock,
            settings: .init(
                throttle: ThrottlePolicy(minInterval: .seconds(10), minDistance: 1000, maxAge: .seconds(60)),
                maxFixAge: .seconds(120), precision: 2,
                fallback: .coordinate(Coordinate(latitude: 59.91, longitude: 10.75))),
            wallClock: wallClock, logger: log.logger)
        let lookups = LookupService(
            queue: queue, places: .none, settings: .init(precision: 2, maxAge: .seconds(60), lookupsPerMinute: 1000),
            wallClock: wallClock)
        let states = Mutex<[String]>([])
        let encoder = JSONEncoder()
        let collector = Task {
            for await state in store.states() {
                let json = String(decoding: try encoder.encode(state), as: UTF8.self)
                states.withLock { $0.append(json) }
            }
        }
        let running = Task { await service.run() }

        /// Lets 25 h pass (more than any back-off) and waits for a state that satisfies `predicate`.
        func next(_ what: String, _ predicate: @escaping @Sendable (WeatherState) -> Bool) async {
            wall.withLock { $0 += 25 * 3600 }
            clock.advance(by: .seconds(25 * 3600))
            if await store.waitFor(predicate) == nil { Issue.record("no state \(what); last: \(store.current)") }
        }

        var answers: [String] = []
        var codes: [String] = []
        await next("first fresh") { $0.status == .fresh }
        for (index, c) in Self.cases.enumerated() {
            try server.reset()
            provider.prefix.withLock { $0 = c.prefix?(server, closed) ?? normal }
            try c.setUp(server)
            let code = c.code
            await next("stale with \(code)") { $0.status == .stale && $0.error?.code == code }
            codes.append(store.current.error?.code ?? "none")
            let answer = await lookups.weather(
                .coordinate(Coordinate(latitude: Double(index), longitude: 1)), user: UInt32(index), reader: .precise)
            answers.append(String(decoding: answer, as: UTF8.self))
            try server.reset()
            provider.prefix.withLock { $0 = normal }
            await next("fresh after \(c.code)") { $0.status == .fresh }
        }
        running.cancel()
        await running.value
        store.finish()
        _ = await collector.result

        #expect(codes == Self.cases.map(\.code))
        for (answer, c) in zip(answers, Self.cases) {
            #expect(answer.contains(#""code":"\#(c.code)""#), "the lookup met the same failure: \(answer)")
        }
        let captured = states.withLock { $0 } + answers + log.texts
        #expect(captured.count > 3 * Self.cases.count)
        for text in captured {
            #expect(!text.contains(Self.key), "\(text)")
            #expect(!text.contains(String(Self.key.prefix(12))), "no part of the key either: \(text)")
        }
        let refused = log.texts.first { $0.contains("HTTP 401") }
        #expect(refused?.contains("Invalid API key REDACTED") == true, "\(String(describing: refused))")
        #expect(refused?.contains("appid=REDACTED") == true)
    }
}
