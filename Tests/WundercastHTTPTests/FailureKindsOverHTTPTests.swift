import CCurl
import Foundation
import Testing
import WundercastModel
import WundercastHTTP
import WundercastTestSupport

/// Every transfer failure of issue 7 (point 5) through the real client against the loopback
/// server: each ends as its own ``FailureKind``.
@Suite struct FailureKindsOverHTTPTests {
    static let userAgent = CurlHTTPClientTests.userAgent
    static let metric = CurlHTTPClientTests.metric

    /// The error of GET `path` (or of `url`), failing the test when there is none.
    static func failure(
        _ client: CurlHTTPClient, _ url: String, sourceLocation: SourceLocation = #_sourceLocation
    ) async -> WeatherError? {
        do {
            let response = try await client.get(url, headers: [:])
            Issue.record("expected an error, got HTTP \(response.status)", sourceLocation: sourceLocation)
            return nil
        } catch {
            return error
        }
    }

    /// The table in WundercastModel uses libcurl's numbers; here they are checked against its names.
    @Test(arguments: [
        (CURLE_COULDNT_RESOLVE_HOST, FailureKind.dns), (CURLE_COULDNT_RESOLVE_PROXY, .dns),
        (CURLE_COULDNT_CONNECT, .connect), (CURLE_OPERATION_TIMEDOUT, .timeout),
        (CURLE_SSL_CONNECT_ERROR, .tls), (CURLE_PEER_FAILED_VERIFICATION, .tls), (CURLE_SSL_CACERT_BADFILE, .tls),
        (CURLE_SSL_CERTPROBLEM, .tls), (CURLE_SSL_PINNEDPUBKEYNOTMATCH, .tls), (CURLE_SSL_CLIENTCERT, .tls),
        (CURLE_SSL_ISSUER_ERROR, .tls), (CURLE_SSL_INVALIDCERTSTATUS, .tls), (CURLE_USE_SSL_FAILED, .tls),
        (CURLE_PARTIAL_FILE, .truncated), (CURLE_FILESIZE_EXCEEDED, .tooLarge),
        (CURLE_RECV_ERROR, .network), (CURLE_GOT_NOTHING, .network), (CURLE_WRITE_ERROR, .network),
        (CURLE_UNSUPPORTED_PROTOCOL, .network), (CURLE_TOO_MANY_REDIRECTS, .network),
    ])
    func curlCodesAreSortedIntoKinds(code: CURLcode, kind: FailureKind) {
        #expect(WeatherError.transport(code: Int(code.rawValue), message: "").kind == kind)
    }

    @Test func unknownHostIsDNS() async throws {
        let client = CurlHTTPClient(userAgent: Self.userAgent, loop: TestLoop.shared, timeout: .seconds(5))
        let error = await Self.failure(client, "http://no-such-host.invalid/v1/forecast?appid=SECRET")
        #expect(error?.kind == .dns, "\(String(describing: error))")
        #expect(error?.code == "dns")
        #expect(error?.message.contains("SECRET") == false)
    }

    @Test func refusedConnectionIsConnect() async throws {
        let port = try await CurlHTTPClientTests.closedPort()
        let error = await Self.failure(
            CurlHTTPClient(userAgent: Self.userAgent, loop: TestLoop.shared), "http://127.0.0.1:\(port)/")
        #expect(error?.kind == .connect)
        #expect(error?.code == "connect")
    }

    @Test func slowAnswerIsTimeout() async throws {
        let server = try await FixtureHTTPServer()
        defer { server.stop() }
        try server.respond(delaySeconds: 5)
        let client = CurlHTTPClient(userAgent: Self.userAgent, loop: TestLoop.shared, timeout: .milliseconds(400))
        let error = await Self.failure(client, server.baseURL + "/v1/forecast")
        #expect(error?.kind == .timeout)
    }

    /// TLS spoken to a plain HTTP server: the handshake fails.
    @Test func tlsToAPlainServerIsTLS() async throws {
        let server = try await FixtureHTTPServer()
        defer { server.stop() }
        let error = await Self.failure(
            CurlHTTPClient(userAgent: Self.userAgent, loop: TestLoop.shared),
            "https://127.0.0.1:\(server.port)/v1/forecast")
        #expect(error?.kind == .tls, "\(String(describing: error))")
        #expect(error?.code == "tls")
    }

    /// The connection closes before the announced body is complete: `Content-Length`, chunks,
    /// and a gzip stream; each at several cut points.
    @Test(arguments: [
        (false, false, 10), (false, false, 3000), (false, true, 100), (false, true, 5000), (true, false, 50),
    ])
    func bodyCutShortIsTruncated(gzip: Bool, chunked: Bool, truncateAt: Int) async throws {
        let server = try await FixtureHTTPServer()
        defer { server.stop() }
        try server.respond(gzip: gzip, chunked: chunked, truncateAt: truncateAt)
        let error = await Self.failure(
            CurlHTTPClient(userAgent: Self.userAgent, loop: TestLoop.shared), server.baseURL + "/v1/forecast")
        #expect(error?.kind == .truncated, "\(String(describing: error))")
        #expect(error?.code == "truncated")
        #expect(error?.kind.isNetwork == true)
    }

    /// Over the cap: announced by `Content-Length` (refused before the body comes), sent in
    /// chunks, or a small gzip stream that inflates past it (aborted in the write callback).
    @Test(arguments: [(false, false), (false, true), (true, false)])
    func bodyOverTheCapIsTooLarge(gzip: Bool, chunked: Bool) async throws {
        let server = try await FixtureHTTPServer()
        defer { server.stop() }
        let cap = 2 << 20
        try server.respond(bodyBytes: cap + 1, gzip: gzip, chunked: chunked)
        let error = await Self.failure(
            CurlHTTPClient(userAgent: Self.userAgent, loop: TestLoop.shared), server.baseURL + "/v1/forecast")
        #expect(error == .tooLarge(limit: cap))
        #expect(error?.code == "too-large")
        #expect(error?.kind.isNetwork == false)
    }

    @Test func bodyExactlyAtTheCapArrives() async throws {
        let server = try await FixtureHTTPServer()
        defer { server.stop() }
        try server.respond(bodyBytes: 4096, chunked: true)
        let response = try await CurlHTTPClient(userAgent: Self.userAgent, loop: TestLoop.shared, maxBodySize: 4096)
            .get(
                server.baseURL + "/v1/forecast", headers: [:])
        #expect(response.body.count == 4096)
        let fixture = try Fixtures.bytes(Self.metric)
        #expect(fixture.count > 4096)
        #expect(response.body.elementsEqual(fixture.prefix(4096)), "the fixture's first 4096 bytes")
    }

    @Test func headersOverTheirCapAreAnError() async throws {
        let server = try await FixtureHTTPServer()
        defer { server.stop() }
        var headers: [String: String] = [:]
        for i in 0..<80 { headers["X-Filler-\(i)"] = String(repeating: "h", count: 1000) }
        try server.respond(headers: headers)
        let error = await Self.failure(
            CurlHTTPClient(userAgent: Self.userAgent, loop: TestLoop.shared), server.baseURL + "/v1/forecast")
        #expect(error == .transport(code: 23, message: "response headers larger than 65536 bytes"))
    }
}
