import Foundation
import Testing
import WundercastSupport
import WundercastModel
import WundercastProviders
import WundercastHTTP
import WundercastTestSupport

/// MET Norway's terms over the wire, the provider on the real client against the loopback
/// server, which serves the recorded New York answer with its recorded `Date`, `Expires` (31 min
/// later) and `Last-Modified`: the request's shape, no request before `Expires` (manual clock),
/// `If-Modified-Since` and the 304, the 203 warned once, 429 with `Retry-After`, 403.
@Suite struct MetNorwayOverHTTPTests {
    static let contact = "ops@example.org"
    /// The recording's headers: `Date` 11:44:31, `Expires` 12:14:53, so 1822 s of freshness.
    static let lastModified = "Mon, 20 Jul 2020 11:44:31 GMT"
    static let lifetime: Duration = .seconds(1822)
    static let place = Coordinate(latitude: 40.7, longitude: -74)

    static func provider(
        _ server: FixtureHTTPServer, clock: ManualClock, log: CapturedLog = CapturedLog()
    ) -> MetNorwayProvider {
        MetNorwayProvider(
            baseURL: server.baseURL + "/", contact: contact, units: .metric,
            http: CurlHTTPClient(userAgent: Wundercast.userAgent, loop: TestLoop.shared), clock: clock,
            wallClock: { Date(timeIntervalSince1970: 1_595_245_471) }, logger: log.logger)
    }

    static func failure(_ provider: MetNorwayProvider) async -> WeatherError? {
        do {
            _ = try await provider.currentWeather(at: place)
            Issue.record("expected an error")
            return nil
        } catch {
            return error
        }
    }

    @Test func requestShapeAtMostFourDecimalsAndTheUserAgentWithTheContact() async throws {
        let server = try await FixtureHTTPServer()
        defer { server.stop() }
        let weather = try await Self.provider(server, clock: ManualClock()).currentWeather(
            at: Coordinate(latitude: 40.712_776, longitude: -74.005_974))
        #expect(weather.temperature == 26.5 && weather.symbolCode == "partlycloudy_day")
        let request = try #require(try server.requests().first)
        #expect(request.path == "/weatherapi/locationforecast/2.0/compact")
        #expect(request.queryString == "lat=40.7128&lon=-74.006")
        let userAgent = try #require(request.headers["user-agent"])
        #expect(userAgent == "wundercast/\(Wundercast.version) (+\(Wundercast.projectURL); \(Self.contact))")
        #expect(userAgent == MetNorwayProvider.userAgent(contact: Self.contact))
        #expect(request.headers["accept"] == "application/json")
        #expect(request.headers["if-modified-since"] == nil)
    }

    @Test func noRequestBeforeExpiresThenIfModifiedSince() async throws {
        let server = try await FixtureHTTPServer()
        defer { server.stop() }
        let clock = ManualClock()
        let provider = Self.provider(server, clock: clock)
        let first = try await provider.currentWeather(at: Self.place)
        clock.advance(by: Self.lifetime - .seconds(1))
        #expect(try await provider.currentWeather(at: Self.place) == first)
        #expect(try server.requests().count == 1, "no request before Expires")
        clock.advance(by: .seconds(2))
        #expect(try await provider.currentWeather(at: Self.place) == first)
        let requests = try server.requests()
        #expect(requests.map { $0.headers["if-modified-since"] } == [nil, Self.lastModified])
        #expect(requests.map(\.queryString) == ["lat=40.7&lon=-74", "lat=40.7&lon=-74"])
    }

    @Test func a304KeepsTheStoredAnswer() async throws {
        let server = try await FixtureHTTPServer()
        defer { server.stop() }
        try server.respond(lastModified: Self.lastModified)
        let clock = ManualClock()
        let provider = Self.provider(server, clock: clock)
        let first = try await provider.currentWeather(at: Self.place)
        clock.advance(by: Self.lifetime + .seconds(1))
        // The server now answers 304 without a body to the If-Modified-Since it is sent.
        #expect(try await provider.currentWeather(at: Self.place) == first)
        clock.advance(by: .seconds(3600))
        #expect(try await provider.currentWeather(at: Self.place) == first)
        let requests = try server.requests()
        #expect(requests.map { $0.headers["if-modified-since"] } == [nil, Self.lastModified, Self.lastModified])
    }

    /// A captive portal's page under 200 with a far `Expires` is not kept: the next fetch asks
    /// the network again (and gets the weather).
    @Test func anAnswerThatDoesNotDecodeIsNotKeptUntilItsExpires() async throws {
        let server = try await FixtureHTTPServer()
        defer { server.stop() }
        try server.respond(
            body: "<html>captive portal</html>",
            headers: ["Content-Type": "text/html", "Expires": "Thu, 01 Jan 2099 00:00:00 GMT"])
        let clock = ManualClock()
        let provider = Self.provider(server, clock: clock)
        let portal = try #require(await Self.failure(provider))
        #expect(portal.code == "not-json")
        try server.respond()
        clock.advance(by: .seconds(5))
        #expect(try await provider.currentWeather(at: Self.place).temperature == 26.5)
        let requests = try server.requests()
        #expect(requests.count == 2)
        #expect(requests.last?.headers["if-modified-since"] == nil)
    }

    @Test func a203IsASuccessWarnedOnce() async throws {
        let server = try await FixtureHTTPServer()
        defer { server.stop() }
        try server.respond(status: 203)
        let clock = ManualClock()
        let log = CapturedLog()
        let provider = Self.provider(server, clock: clock, log: log)
        let first = try await provider.currentWeather(at: Self.place)
        #expect(first.temperature == 26.5)
        clock.advance(by: Self.lifetime + .seconds(1))
        #expect(try await provider.currentWeather(at: Self.place) == first)
        #expect(try server.requests().count == 2)
        let warnings = log.all.filter { $0.priority == .warning }
        #expect(warnings.count == 1)
        #expect(warnings.first?.message.contains("203 Non-Authoritative Information") == true)
    }

    @Test func a429WithRetryAfterAndA403NamingContact() async throws {
        let server = try await FixtureHTTPServer()
        defer { server.stop() }
        try server.respond(status: 429, body: "Too Many Requests", retryAfter: 120)
        let provider = Self.provider(server, clock: ManualClock())
        let limited = try #require(await Self.failure(provider))
        #expect(limited == .http(status: 429, reason: nil, retryAfter: 120))
        #expect(limited.kind == .rateLimited && limited.code == "http-429")

        try server.respond(status: 403, body: "<html>Forbidden</html>")
        let refused = try #require(await Self.failure(provider))
        #expect(refused.kind == .forbidden && refused.message.contains("[Weather] Contact="))
        // Failures are not stored: the next call asks again.
        #expect(try server.requests().count == 2)
    }
}
