import Foundation
import Testing
import WundercastModel
import WundercastProviders
import WundercastTestSupport

/// MET Norway's etiquette as a reusable client (issue 7, point 1), on a manual clock: no
/// request before `Expires`, `If-Modified-Since` with the stored `Last-Modified`, 304 keeps the
/// stored body, 203 is a success with one warning. The answers are invented (the test names
/// them); the loopback test in WundercastHTTPTests checks the same over the wire.
@Suite struct ConditionalRequestTests {
    let clock = ManualClock()
    /// 2026-01-16 20:00:00 UTC: the server's `Date` of the first answer.
    static let start = Date(timeIntervalSince1970: 1_768_593_600)
    static let url = "https://api.met.no/weatherapi/locationforecast/2.0/compact?lat=59.91&lon=10.75"
    static let lastModified = "Fri, 16 Jan 2026 19:55:41 GMT"

    /// An invented answer made at `date` that expires `lifetime` seconds later.
    static func answer(
        _ status: Int, body: String, date: Date? = start, lifetime: Double? = 1800, lastModified: String? = lastModified
    ) -> Result<HTTPResponse, WeatherError> {
        var headers: [String: String] = [:]
        if let lastModified { headers["last-modified"] = lastModified }
        return .success(
            HTTPResponse(
                status: status, headers: headers, body: Array(body.utf8), date: date,
                expires: lifetime.map { (date ?? start).addingTimeInterval($0) }))
    }

    func client(
        _ http: ScriptedHTTPClient, log: CapturedLog = CapturedLog(), wallClock: Date = start
    )
        -> ConditionalHTTPClient<ManualClock>
    {
        ConditionalHTTPClient(http: http, clock: clock, wallClock: { wallClock }, logger: log.logger)
    }

    @Test func noRequestBeforeExpiresThenIfModifiedSinceAnd304KeepsTheBody() async throws {
        let http = ScriptedHTTPClient([Self.answer(200, body: "first")])
        let conditional = client(http)
        let first = try await conditional.get(Self.url, headers: ["Accept": "application/json"])
        #expect(first.status == 200 && first.body == Array("first".utf8))
        #expect(http.requests == [.init(url: Self.url, headers: ["Accept": "application/json"])])

        clock.advance(by: .seconds(1799))
        let cached = try await conditional.get(Self.url, headers: ["Accept": "application/json"])
        #expect(cached.body == Array("first".utf8))
        #expect(http.requests.count == 1, "no request before Expires")

        clock.advance(by: .seconds(1))
        http.then(Self.answer(304, body: "", date: Self.start.addingTimeInterval(1800)))
        let revalidated = try await conditional.get(Self.url, headers: ["Accept": "application/json"])
        #expect(http.requests.count == 2)
        #expect(
            http.requests.last?.headers == ["Accept": "application/json", "If-Modified-Since": Self.lastModified])
        #expect(revalidated.status == 200, "the stored answer, as if it had come again")
        #expect(revalidated.body == Array("first".utf8))

        // The 304's Expires renews the stored answer.
        clock.advance(by: .seconds(1000))
        _ = try await conditional.get(Self.url, headers: [:])
        #expect(http.requests.count == 2)
    }

    @Test func status203IsASuccessWithOneWarning() async throws {
        let log = CapturedLog()
        let http = ScriptedHTTPClient([Self.answer(203, body: "deprecated", lifetime: 60)])
        let conditional = client(http, log: log)
        let first = try await conditional.get(Self.url, headers: [:])
        #expect(first.status == 203 && first.body == Array("deprecated".utf8))
        clock.advance(by: .seconds(60))
        http.then(Self.answer(203, body: "again", lifetime: 60, lastModified: "Fri, 16 Jan 2026 20:55:41 GMT"))
        let second = try await conditional.get(Self.url, headers: [:])
        #expect(second.body == Array("again".utf8))
        #expect(http.requests.last?.headers["If-Modified-Since"] == Self.lastModified)
        clock.advance(by: .seconds(60))
        http.then(Self.answer(304, body: "", lifetime: 60))
        let third = try await conditional.get(Self.url, headers: [:])
        #expect(third.status == 203 && third.body == Array("again".utf8))
        #expect(http.requests.last?.headers["If-Modified-Since"] == "Fri, 16 Jan 2026 20:55:41 GMT")
        let warnings = log.all.filter { $0.priority == .warning && $0.message.contains("203") }
        #expect(warnings.count == 1, "\(log.texts)")
    }

    /// An error status is returned as it is and the stored answer stays for the next request.
    @Test func errorStatusesLeaveTheStoredAnswer() async throws {
        let http = ScriptedHTTPClient([Self.answer(200, body: "good", lifetime: 10), Self.answer(500, body: "oops")])
        let conditional = client(http)
        _ = try await conditional.get(Self.url, headers: [:])
        clock.advance(by: .seconds(10))
        let failed = try await conditional.get(Self.url, headers: [:])
        #expect(failed.status == 500 && failed.body == Array("oops".utf8))
        http.then(Self.answer(304, body: "", lifetime: 10))
        let kept = try await conditional.get(Self.url, headers: [:])
        #expect(kept.body == Array("good".utf8))
        #expect(http.requests.map { $0.headers["If-Modified-Since"] } == [nil, Self.lastModified, Self.lastModified])
    }

    /// Freshness is `Expires` − `Date` (the server's clock): a machine clock a day off changes
    /// nothing. Without `Date`, the wall clock counts; `Expires` in the past means ask every
    /// time; one far away is capped at 6 h.
    @Test(arguments: [
        (true, 1800.0, 86_400.0, 1800), (false, 1800, 0, 1800), (false, 1800, 600, 1200), (true, -5, 0, 0),
        (true, 1e12, 0, 6 * 3600),
    ])
    func lifetime(withDate: Bool, expiresIn: Double, wallClockAhead: Double, requestAfter: Int) async throws {
        let http = ScriptedHTTPClient([
            Self.answer(200, body: "a", date: withDate ? Self.start : nil, lifetime: expiresIn)
        ])
        let conditional = client(http, wallClock: Self.start.addingTimeInterval(wallClockAhead))
        _ = try await conditional.get(Self.url, headers: [:])
        if requestAfter > 0 {
            clock.advance(by: .seconds(requestAfter - 1))
            _ = try await conditional.get(Self.url, headers: [:])
            #expect(http.requests.count == 1, "still fresh 1 s before \(requestAfter) s")
            clock.advance(by: .seconds(1))
        }
        http.then(Self.answer(304, body: ""))
        _ = try await conditional.get(Self.url, headers: [:])
        #expect(http.requests.count == 2, "asked again after \(requestAfter) s")
    }

    @Test func withoutExpiresEveryRequestGoesOutConditionally() async throws {
        let http = ScriptedHTTPClient([Self.answer(200, body: "a", lifetime: nil), Self.answer(304, body: "")])
        let conditional = client(http)
        _ = try await conditional.get(Self.url, headers: [:])
        let again = try await conditional.get(Self.url, headers: [:])
        #expect(again.body == Array("a".utf8))
        #expect(http.requests.map { $0.headers["If-Modified-Since"] } == [nil, Self.lastModified])
    }

    /// A moving receiver asks for ever new URLs: only the last `capacity` are remembered.
    @Test func onlyTheLastURLsAreRemembered() async throws {
        let http = ScriptedHTTPClient()
        let conditional = ConditionalHTTPClient(http: http, clock: clock, wallClock: { Self.start }, capacity: 2)
        for i in 0..<3 {
            http.then(Self.answer(200, body: "\(i)"))
            _ = try await conditional.get(Self.url + "&n=\(i)", headers: [:])
        }
        _ = try await conditional.get(Self.url + "&n=2", headers: [:])
        _ = try await conditional.get(Self.url + "&n=1", headers: [:])
        #expect(http.requests.count == 3, "n=1 and n=2 are stored")
        http.then(Self.answer(200, body: "0"))
        _ = try await conditional.get(Self.url + "&n=0", headers: [:])
        #expect(http.requests.count == 4, "n=0 was dropped")
        #expect(http.requests.last?.headers["If-Modified-Since"] == nil)
    }
}
