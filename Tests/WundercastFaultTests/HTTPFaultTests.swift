import Foundation
import Testing
import WundercastTestSupport

/// HTTP side: providers that lie (wrong JSON, impossible values, an error body under 200), stall,
/// flood (a 100 MB body, a gzip bomb), send every form of `Retry-After`, or answer 429/5xx in a
/// storm. The daemon keeps answering `now`, keeps its last good weather (stale, with the error),
/// never publishes what the provider got wrong, and is fresh again once the provider is.
@Suite(.enabled(if: FaultCampaign.isSelected, FaultCampaign.skipReason), .serialized)
struct HTTPFaultTests {
    /// A wrong answer of the provider: what `respond` is given.
    struct Answer: Sendable, CustomTestStringConvertible {
        var name: String
        var status: Int? = nil
        var body: String? = nil
        var headers: [String: String]? = nil
        var delaySeconds: Double? = nil
        var bodyBytes: Int? = nil
        var gzip: Bool? = nil
        var chunked: Bool? = nil
        var truncateAt: Int? = nil
        /// The fault ends by itself (a short `Retry-After`): weather is fresh again with no more
        /// than a `refresh`. Long waits keep the kept weather instead (checked).
        var recovers = true
        /// The answer is no weather at all: the last good weather stays (stale, with an error).
        /// Otherwise it is weather of which some values are impossible: those are left out, the
        /// rest is published (checked: no impossible value ever is).
        var keepsLastGood = true
        var testDescription: String { name }

        func serve(_ http: FixtureHTTPServer) throws {
            try http.respond(
                status: status, body: body, delaySeconds: delaySeconds, headers: headers, bodyBytes: bodyBytes,
                gzip: gzip, chunked: chunked, truncateAt: truncateAt)
        }
    }

    static let recorded =
        (try? String(
            contentsOf: Fixtures.url("weather/open-meteo/current_bucharest_metric.json"), encoding: .utf8)) ?? ""

    static let lies: [Answer] = [
        Answer(
            name: "impossible values (500 °C, 250 % humidity, wind from 720°)",
            body: recorded.replacingOccurrences(of: #""temperature_2m":-5.3"#, with: #""temperature_2m":500.0"#)
                .replacingOccurrences(of: #""relative_humidity_2m":72"#, with: #""relative_humidity_2m":250"#)
                .replacingOccurrences(of: #""wind_direction_10m":81"#, with: #""wind_direction_10m":720"#),
            keepsLastGood: false),
        // A named daily limit: no new request before its next window (no recovery within the test).
        Answer(
            name: "an error body under HTTP 200", status: 200,
            body: #"{"error":true,"reason":"Daily API request limit exceeded"}"#, recovers: false),
        Answer(
            name: "wrong JSON (every member of the wrong type)",
            body: #"{"latitude":"x","current":[1,2,3],"current_units":7}"#),
        Answer(name: "not JSON (an HTML page)", body: "<html><body>\u{1B}[31mBad gateway\u{07}</body></html>"),
        Answer(name: "an empty body", body: ""),
        Answer(name: "a body cut in the middle", truncateAt: 700),
        Answer(
            name: "NaN and Infinity as numbers",
            body: recorded.replacingOccurrences(of: #""temperature_2m":-5.3"#, with: #""temperature_2m":NaN"#)
                .replacingOccurrences(of: #""wind_speed_10m":4.7"#, with: #""wind_speed_10m":Infinity"#)),
        Answer(
            name: "an error body under HTTP 500 with escape codes", status: 500,
            body: "{\"error\":true,\"reason\":\"\\u001b[2J\\u0007forged\\nline\"}"),
    ]

    static let floods: [Answer] = [
        Answer(name: "a gzip bomb (100 MB of JSON in about 100 kB)", bodyBytes: 100_000_000, gzip: true),
        Answer(name: "a 100 MB body", bodyBytes: 100_000_000, gzip: false),
        Answer(name: "a 100 MB chunked body", bodyBytes: 100_000_000, gzip: false, chunked: true),
    ]

    static let retryAfters: [Answer] = [
        ("an HTTP-date in the past", "Wed, 21 Oct 2015 07:28:00 GMT", true),
        ("0 seconds", "0", true),
        ("1 second", "1", true),
        ("a negative number", "-30", true),
        ("not a number", "soon", true),
        ("a fraction", "1.5", true),
        ("an empty value", "", true),
        ("a number beyond Int64", "99999999999999999999999", false),
        ("a year", "31536000", false),
        ("an HTTP-date a day ahead", httpDate(Date().addingTimeInterval(86_400)), false),
        ("an HTTP-date in the obsolete RFC 850 form", "Sunday, 06-Nov-94 08:49:37 GMT", true),
        ("an HTTP-date in asctime form", "Sun Nov  6 08:49:37 1994", true),
    ].map {
        Answer(
            name: "429 with Retry-After: \($0.0)", status: 429, body: "{}", headers: ["Retry-After": $0.1],
            recovers: $0.2)
    }

    static func httpDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }

    static let truth = Truth(maxAge: 3600, precision: 2)

    /// Fresh weather, then `answer` for a `refresh`: the state keeps the weather, stale with an
    /// error, `now` answers meanwhile; then the provider's good answer makes it fresh again.
    func run(_ scenario: FaultScenario, _ answer: Answer, timeout: String = "3s") async throws {
        let http = try await FixtureHTTPServer()
        let daemon = try await DaemonProcess(
            configuration: FaultConfiguration.fallback(http, truth: Self.truth).replacingOccurrences(
                of: "Timeout=3s", with: "Timeout=\(timeout)"))
        let good = await scenario.recovered(daemon, "fresh weather", States.fresh)
        let goodFetch = good?["fetchedAt"] as? String
        let before = try http.requests().count
        try answer.serve(http)
        _ = try await daemon.ctl("refresh")
        _ = try await http.waitForRequests(count: before + 1, timeout: .seconds(30))
        await scenario.nows(daemon, Self.truth, 3)
        if answer.keepsLastGood {
            await scenario.recovered(daemon, "the last good weather kept, stale with an error") {
                $0["status"] as? String == "stale" && $0["error"] != nil && $0["weather"] != nil
                    && $0["fetchedAt"] as? String == goodFetch
            }
        } else {
            await scenario.recovered(daemon, "the answer's possible values published") {
                $0["weather"] != nil && $0["fetchedAt"] as? String != goodFetch
            }
        }
        await scenario.nows(daemon, Self.truth, 2)
        scenario.injected(try http.requests().count - before)
        try http.reset()
        if answer.recovers {
            _ = try await daemon.ctl("refresh")
            await scenario.recovered(daemon, "fresh weather again") {
                States.fresh($0) && $0["fetchedAt"] as? String != goodFetch
            }
        }
        await scenario.end(daemon, Self.truth)
        await http.stopAndWait()
    }

    @Test(arguments: FaultCampaign.pick(lies, ci: 2))
    func aLyingProviderIsNeverPublished(_ answer: Answer) async throws {
        try await run(FaultScenario("http", "provider lies: \(answer.name)"), answer)
    }

    @Test func aStallingProviderTimesOutWhileNowAnswers() async throws {
        try await run(
            FaultScenario("http", "provider stalls (no answer for 30 s, Timeout=2s)"),
            Answer(name: "stall", delaySeconds: 30), timeout: "2s")
    }

    @Test(arguments: FaultCampaign.pick(floods, ci: 1))
    func aFloodingProviderIsCutAtTheBound(_ answer: Answer) async throws {
        try await run(FaultScenario("http", "provider floods: \(answer.name)"), answer, timeout: "20s")
    }

    @Test(arguments: FaultCampaign.pick(retryAfters, ci: 2))
    func everyRetryAfterFormIsSurvived(_ answer: Answer) async throws {
        try await run(FaultScenario("http", answer.name), answer)
    }

    @Test func a5xxStormIsBackedOffFrom() async throws {
        let scenario = FaultScenario("http", "a storm of 503 and 429 answers under refresh requests")
        let http = try await FixtureHTTPServer()
        let daemon = try await DaemonProcess(configuration: FaultConfiguration.fallback(http, truth: Self.truth))
        await scenario.recovered(daemon, "fresh weather", States.fresh)
        let before = try http.requests().count
        try http.respond(status: 503, body: "Service Unavailable")
        let refreshes = FaultCampaign.count(ci: 20, full: 100)
        for round in 0..<refreshes {
            if round == refreshes / 2 { try http.respond(status: 429, body: #"{"error":true,"reason":"Too many"}"#) }
            _ = try await daemon.ctl("refresh")
            if round % 5 == 0 { await scenario.now(daemon, Self.truth) }
        }
        await scenario.recovered(daemon, "the last good weather kept, stale with an error") {
            $0["status"] as? String == "stale" && $0["error"] != nil && $0["weather"] != nil
        }
        let storm = try http.requests().count - before
        scenario.injected(storm)
        // Back-off: the first failure waits 5 s, so the refreshes of a few seconds reach the
        // provider once or twice, never once each.
        if storm > 4 { scenario.untruthful("\(storm) requests reached a failing provider for \(refreshes) refreshes") }
        try http.reset()
        _ = try await daemon.ctl("refresh")
        await scenario.recovered(daemon, "fresh weather again", timeout: .seconds(90), States.fresh)
        await scenario.end(daemon, Self.truth)
        await http.stopAndWait()
    }
}
