import Foundation
import Testing
import WundercastTestSupport

/// The in-process fixture HTTP server answers as `Tests/Tools/fixture_http_server.py` does:
/// each case is sent to both, and what comes back on the wire is compared — status, header
/// names in order and their values, the body (JSON compared as JSON: the recorded MET Norway
/// `data` is written again by each), how far a cut body goes — and so is the recorded request.
@Suite(.timeLimit(.minutes(1))) struct FixtureHTTPServerTests {
    /// One request (and the `respond` before it) sent to both servers.
    struct Case: Sendable {
        var name: String
        var target: String
        var headers: [String] = []
        var method = "GET"
        var control: @Sendable (any FixtureServer) throws -> Void = { _ in }
    }

    static let gzip = "Accept-Encoding: deflate, gzip"
    static let modified = "Fri, 16 Jan 2026 20:55:41 GMT"

    static let cases: [Case] = [
        Case(name: "Open-Meteo, metric", target: "/v1/forecast?latitude=44.44&longitude=26.13"),
        Case(name: "Open-Meteo, gzip", target: "/v1/forecast?latitude=44.44&longitude=26.13", headers: [gzip]),
        Case(name: "Open-Meteo, °F", target: "/v1/forecast?latitude=1&longitude=2&temperature_unit=fahrenheit"),
        Case(name: "Open-Meteo, three places", target: "/v1/forecast?latitude=1,2,3&longitude=4,5,6", headers: [gzip]),
        Case(name: "geocoding", target: "/v1/search?name=Atlantis&count=1"),
        Case(
            name: "Marine API", target: "/v1/marine?latitude=53.04&longitude=3.96&cell_selection=sea", headers: [gzip]),
        Case(name: "MET Norway", target: "/weatherapi/locationforecast/2.0/compact?lat=40.7&lon=-74", headers: [gzip]),
        Case(name: "OpenWeatherMap weather", target: "/data/2.5/weather?lat=44.34&lon=10.99&appid=k"),
        Case(name: "OpenWeatherMap forecast", target: "/data/2.5/forecast?lat=49.75&lon=16.64&appid=k"),
        Case(name: "a redirect to a path", target: "/redirect?to=/v1/forecast"),
        Case(name: "a redirect to another host", target: "/redirect?to=http://example.com/"),
        Case(name: "no fixture", target: "/nothing/here", headers: [gzip]),
        Case(name: "HEAD", target: "/v1/forecast?latitude=1&longitude=2", method: "HEAD"),
        Case(name: "an error status and text", target: "/v1/forecast?latitude=1&longitude=2") {
            try $0.respond(status: 500, body: "upstream down", retryAfter: 30)
        },
        Case(name: "a recorded error file", target: "/v1/forecast?latitude=1,2&longitude=3,4") {
            try $0.respond(status: 400, file: "weather/open-meteo/error_400.json")
        },
        Case(name: "a file outside the fixtures", target: "/v1/search?name=x") {
            try $0.respond(file: "../../../etc/passwd")
        },
        Case(name: "extra headers", target: "/weatherapi/locationforecast/2.0/compact?lat=1&lon=2") {
            try $0.respond(retryAfter: 2.5, headers: ["Expires": "Thu, 01 Jan 2026 00:00:00 GMT", "X-A": "b"])
        },
        Case(name: "an oversized gzip body", target: "/v1/forecast?latitude=1&longitude=2", headers: [gzip]) {
            try $0.respond(bodyBytes: 300_000)
        },
        Case(name: "an exact body, chunked", target: "/v1/forecast?latitude=1&longitude=2") {
            try $0.respond(bodyBytes: 40_000, gzip: false, chunked: true)
        },
        Case(name: "a cut body", target: "/v1/forecast?latitude=1&longitude=2") {
            try $0.respond(gzip: false, truncateAt: 700)
        },
        Case(name: "a cut gzip stream, chunked", target: "/v1/forecast?latitude=1&longitude=2", headers: [gzip]) {
            try $0.respond(chunked: true, truncateAt: 50)
        },
        Case(
            name: "not modified", target: "/weatherapi/locationforecast/2.0/compact?lat=1&lon=2",
            headers: ["If-Modified-Since: \(modified)"]
        ) { try $0.respond(lastModified: modified) },
        Case(
            name: "modified since", target: "/weatherapi/locationforecast/2.0/compact?lat=1&lon=2",
            headers: ["If-Modified-Since: Thu, 15 Jan 2026 20:55:41 GMT"]
        ) { try $0.respond(lastModified: modified) },
        Case(
            name: "an odd query and headers", target: "/v1/search?a=1&a=2&b=&c&d=x%20y+z&%C3%A9=%E2%82%AC",
            headers: ["X-Custom:  spaced value ", "user-agent: wundercast/test"]),
    ]

    static func ask(_ server: any FixtureServer, _ c: Case) async throws -> (RawHTTP.Response, RecordedRequest?) {
        try c.control(server)
        let head = (["\(c.method) \(c.target) HTTP/1.1", "Host: 127.0.0.1:\(server.port)"] + c.headers)
            .map { $0 + "\r\n" }.joined()
        let response = try #require(
            try await RawHTTP.exchange(port: server.port, [head], head: c.method == "HEAD").first)
        return (response, try server.requests().last)
    }

    /// Headers that differ by nature: the server's name, the moment, and lengths of bodies
    /// each writes its own way (compressed, JSON written again).
    static func comparable(_ response: RawHTTP.Response) -> [String] {
        var seenDate = false
        return response.headers.compactMap { header in
            switch header.name {
            case "Server": return nil
            case "Date" where !seenDate:
                seenDate = true
                return nil
            case "Content-Length": return "Content-Length"
            default: return "\(header.name): \(header.value)"
            }
        }
    }

    static func same(_ a: [UInt8]?, _ b: [UInt8]?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        if let x = try? JSONSerialization.jsonObject(with: Data(a), options: .fragmentsAllowed) as? NSObject,
            let y = try? JSONSerialization.jsonObject(with: Data(b), options: .fragmentsAllowed) as? NSObject
        {
            return x == y
        }
        return a == b
    }

    /// Every case in turn against one server of each kind (one Python start, not one a case:
    /// this suite runs beside every other at the start of a run).
    @Test func answersAsThePythonServerDoes() async throws {
        let swift = try await FixtureHTTPServer()
        defer { swift.stop() }
        let python = try await PythonFixtureHTTPServer()
        defer { python.stop() }
        for c in Self.cases {
            try swift.reset()
            try python.reset()
            let before = Date().timeIntervalSince1970
            let (ours, ourRequest) = try await Self.ask(swift, c)
            let after = Date().timeIntervalSince1970
            let (theirs, theirRequest) = try await Self.ask(python, c)
            #expect(ours.status == theirs.status, "\(c.name)")
            #expect(Self.comparable(ours) == Self.comparable(theirs), "\(c.name)")
            #expect(
                Self.same(ours.body, theirs.body),
                "\(c.name): \(ours.body?.count ?? -1) and \(theirs.body?.count ?? -1) bytes")
            if ours.body == nil {  // cut: as far as each announced
                #expect(ours.wireBody.count == theirs.wireBody.count, "\(c.name)")
            }
            var recorded = try #require(ourRequest, "\(c.name)")
            var expected = try #require(theirRequest, "\(c.name)")
            #expect((before...after).contains(recorded.time), "\(c.name): its arrival, in seconds since 1970")
            recorded.time = 0
            expected.time = 0
            recorded.headers["host"] = nil
            expected.headers["host"] = nil
            #expect(recorded == expected, "\(c.name)")
        }
    }

    /// One connection serves one request after another (keep-alive), as libcurl reuses it.
    @Test func aConnectionIsKeptForTheNextRequest() async throws {
        let server = try await FixtureHTTPServer()
        defer { server.stop() }
        let head = "GET /v1/search?name=a HTTP/1.1\r\nHost: x\r\n"
        let responses = try await RawHTTP.exchange(
            port: server.port, [head, head.replacingOccurrences(of: "=a", with: "=b")])
        #expect(responses.map(\.status) == [200, 200])
        #expect(try server.requests().map { $0.query["name"] } == ["a", "b"])
    }

    /// A request is recorded when it arrives: a delayed answer is in flight once the wait
    /// returns; stopping the server ends it, and the port refuses connections from then on.
    @Test func aDelayedRequestIsSeenAtOnceAndAStopEndsIt() async throws {
        let server = try await FixtureHTTPServer()
        try server.respond(delaySeconds: 3600)
        let asking = Task {
            try await RawHTTP.exchange(port: server.port, ["GET /v1/forecast?latitude=1&longitude=2 HTTP/1.1\r\n"])
        }
        #expect(try await server.waitForRequests(count: 1).count == 1)
        await server.stopAndWait()
        await #expect(throws: RawHTTP.Failure.self) { try await asking.value }
        await #expect(throws: RawHTTP.Failure.self) {
            try await RawHTTP.exchange(port: server.port, ["GET / HTTP/1.1\r\n"])
        }
    }

    /// `reset()` forgets the requests and the answer set by `respond`.
    @Test func resetForgetsRequestsAndAnswers() async throws {
        let server = try await FixtureHTTPServer()
        defer { server.stop() }
        try server.respond(status: 503)
        let failed = try await RawHTTP.exchange(port: server.port, ["GET /v1/search HTTP/1.1\r\n"])
        #expect(failed.first?.status == 503)
        try server.reset()
        #expect(try server.requests().isEmpty)
        let fine = try await RawHTTP.exchange(port: server.port, ["GET /v1/search HTTP/1.1\r\n"])
        #expect(fine.first?.status == 200)
        #expect(try server.requests().count == 1)
    }
}
