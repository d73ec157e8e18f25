import Foundation
import Testing
import WundercastProviders
import WundercastHTTP
import WundercastTestSupport

/// Conditional requests over the wire: the dates libcurl reads, the request's headers, the 304.
@Suite struct ConditionalOverHTTPTests {
    static let userAgent = "wundercast/0.1 test@example.invalid"
    static let lastModified = "Fri, 16 Jan 2026 19:55:41 GMT"

    @Test func dateHeadersAreReadAsInstants() async throws {
        let server = try await FixtureHTTPServer()
        defer { server.stop() }
        try server.respond(
            headers: ["Expires": "Fri, 16 Jan 2026 20:30:00 GMT", "Date": "Fri, 16 Jan 2026 20:00:00 GMT"],
            lastModified: Self.lastModified)
        let response = try await CurlHTTPClient(userAgent: Self.userAgent, loop: TestLoop.shared).get(
            server.baseURL + "/v1/forecast", headers: [:])
        #expect(response.lastModified == Date(timeIntervalSince1970: 1_768_593_341))
        #expect(response.expires == Date(timeIntervalSince1970: 1_768_595_400))
        // Python's server sends its own Date first; the last value wins, which is ours.
        #expect(response.date == Date(timeIntervalSince1970: 1_768_593_600))
        #expect(response.headers["last-modified"] == Self.lastModified)
    }

    @Test func unreadableDatesAreNil() async throws {
        let server = try await FixtureHTTPServer()
        defer { server.stop() }
        try server.respond(headers: ["Expires": "0", "Last-Modified": "yesterday-ish"])
        let response = try await CurlHTTPClient(userAgent: Self.userAgent, loop: TestLoop.shared).get(
            server.baseURL + "/v1/forecast", headers: [:])
        #expect(response.expires == nil)
        #expect(response.lastModified == nil)
    }

    /// The second request carries the User-Agent and `If-Modified-Since` exactly as stored; the
    /// server's 304 (no body) gives back the stored body.
    @Test func ifModifiedSinceAndThe304() async throws {
        let server = try await FixtureHTTPServer()
        defer { server.stop() }
        try server.respond(lastModified: Self.lastModified)
        let clock = ManualClock()
        let client = ConditionalHTTPClient(
            http: CurlHTTPClient(userAgent: Self.userAgent, loop: TestLoop.shared), clock: clock)
        let url = server.baseURL + "/v1/forecast?lat=59.9139&lon=10.7522"
        let first = try await client.get(url, headers: ["Accept": "application/json"])
        #expect(first.status == 200)
        let second = try await client.get(url, headers: ["Accept": "application/json"])
        #expect(second.status == 200)
        #expect(second.body == first.body)
        #expect(second.body == (try Fixtures.bytes(CurlHTTPClientTests.metric)))

        let requests = try server.requests()
        #expect(requests.count == 2)
        #expect(requests.allSatisfy { $0.headers["user-agent"] == Self.userAgent })
        #expect(requests.allSatisfy { $0.headers["accept"] == "application/json" })
        #expect(requests.allSatisfy { $0.query == ["lat": "59.9139", "lon": "10.7522"] })
        #expect(requests.map { $0.headers["if-modified-since"] } == [nil, Self.lastModified])
        let plain = try await CurlHTTPClient(userAgent: Self.userAgent, loop: TestLoop.shared).get(
            url, headers: ["If-Modified-Since": Self.lastModified])
        #expect(plain.status == 304 && plain.body.isEmpty, "a 304 is a normal response of the plain client")
    }
}
