import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One request as the fixture HTTP server recorded it (a line of its `requests.jsonl`).
public struct RecordedRequest: Sendable, Equatable, Decodable {
    /// `"GET"`.
    public var method: String
    /// Path without the query, e.g. `"/v1/forecast"`.
    public var path: String
    /// The raw query string without `?` (still percent-encoded).
    public var queryString: String
    /// Decoded query parameters; the last value wins for a repeated name.
    public var query: [String: String]
    /// Request headers; names in lower case.
    public var headers: [String: String]
    /// Arrival time, seconds since 1970.
    public var time: Double
}

/// A loopback HTTP/1.1 server (`Tests/Tools/fixture_http_server.py`, Python 3 stdlib) that
/// serves the recorded weather-API responses under `Tests/Fixtures` on 127.0.0.1.
///
/// `GET /v1/forecast` answers with Open-Meteo's recorded Bucharest response (metric, or °F/mph
/// when `temperature_unit=fahrenheit`; for N comma-separated coordinates, as Open-Meteo does, a
/// JSON array of N copies that the server builds from it), `GET /v1/search` Open-Meteo geocoding's recorded
/// "no match", `GET /weatherapi/locationforecast/2.0/compact` MET Norway's recorded New York
/// answer with its recorded `Date`, `Expires` and `Last-Modified` (a `*.wrapped.json` file is
/// served as its `data` with those headers), `GET /data/2.5/weather` and `GET /data/2.5/forecast`
/// OpenWeatherMap's recorded Zocca weather and Moravská Třebová forecast (from `root`: a test may
/// serve its own variants); ``respond(status:body:retryAfter:delaySeconds:file:headers:)`` changes
/// them all; `GET /redirect?to=/PATH` answers 302; other paths 404. Bodies are
/// gzip-compressed when the client accepts gzip. Every request is recorded (``requests()``).
///
/// The server process ends with ``stop()`` or `deinit`, and by itself when this process dies
/// (its stdin closes).
public final class FixtureHTTPServer: @unchecked Sendable {
    public struct StartError: Error, CustomStringConvertible {
        public var description: String
    }

    /// The TCP port on 127.0.0.1.
    public let port: Int
    /// `http://127.0.0.1:PORT`, without a trailing slash.
    public var baseURL: String { "http://127.0.0.1:\(port)" }
    /// The server's private directory: `control.json`, `requests.jsonl`, `server.log` (its stderr).
    public let stateDirectory: URL

    private let child: ChildProcess
    /// The process id of the server (or of its `launcher`, until that execs it).
    public var pid: pid_t { child.pid }
    private let watch: DirectoryWatch
    /// Complete lines in `requests.jsonl`, updated on each inotify event of the directory.
    private let requestCount = Observed(0)
    private let lock = NSLock()
    private var stopped = false

    /// How many servers of this process are between their start and their `PORT` line.
    private static let starting = Observed(0)
    /// At most this many start at once: a parallel test run starts some twenty at the same
    /// moment, and on 2 busy cores twenty Python start-ups at once make each one very slow.
    static let concurrentStarts = 4

    /// Starts the server over the fixtures in `root` and waits for the line in which it reports
    /// its port (queued behind other starts of this process, see ``concurrentStarts``). Throws
    /// when python3 cannot be started or does not report its port within `startTimeout` (a
    /// safety net: generous, for a loaded machine).
    /// `launcher` is put before the server's command line: a program that execs it (e.g.
    /// `unshare -rn …`, to serve in a network namespace of its own; ``pid`` is then that of the server).
    public init(
        root: URL = Fixtures.directory, startTimeout: Duration = .seconds(60), launcher: [String] = []
    )
        async throws
    {
        try await withDeadline(startTimeout, "a turn to start a fixture HTTP server") {
            while true {
                let limit = FixtureHTTPServer.concurrentStarts
                _ = try await FixtureHTTPServer.starting.wait { $0 < limit }
                let taken = FixtureHTTPServer.starting.update { (count: inout Int) -> Bool in
                    guard count < limit else { return false }
                    count += 1
                    return true
                }
                if taken { break }
            }
        }
        defer { FixtureHTTPServer.starting.update { $0 -= 1 } }

        let fileManager = FileManager.default
        let state = fileManager.temporaryDirectory.appendingPathComponent(
            "wundercast-fixture-http-\(UUID().uuidString)")
        try fileManager.createDirectory(at: state, withIntermediateDirectories: true)
        stateDirectory = state
        let requestsURL = state.appendingPathComponent("requests.jsonl")
        let requestCount = self.requestCount
        watch = try DirectoryWatch(directory: state.path) {
            let data = (try? Data(contentsOf: requestsURL)) ?? Data()
            let lines = data.reduce(0) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
            requestCount.update { $0 = lines }
        }

        let logURL = state.appendingPathComponent("server.log")
        do {
            // Its stdout ("PORT <n>") and stderr (the request log) in one stream, copied to server.log.
            child = try ChildProcess(
                launcher + [
                    "/usr/bin/env", "python3", "-u",
                    Fixtures.tools.appendingPathComponent("fixture_http_server.py").path,
                    "--root", root.path, "--port", "0", "--state", state.path,
                ], stdinPipe: true, outputCopy: logURL.path)
        } catch {
            watch.close()
            try? fileManager.removeItem(at: state)
            throw StartError(description: "cannot start python3 for the fixture HTTP server: \(error)")
        }

        let line = try? await child.output.waitFor("PORT from the fixture HTTP server", timeout: startTimeout) {
            $0.hasPrefix("PORT ")
        }
        guard let line, let port = Int(line.dropFirst(5)), port > 0 else {
            self.port = 0
            stop()
            throw StartError(
                description: "fixture HTTP server did not report its port within \(startTimeout); its output:\n"
                    + child.output.rawText)
        }
        self.port = port
    }

    deinit { stop() }

    /// Every request received so far, oldest first.
    public func requests() throws -> [RecordedRequest] {
        let url = stateDirectory.appendingPathComponent("requests.jsonl")
        guard FileManager.default.fileExists(atPath: url.path) else { return [] }
        let decoder = JSONDecoder()
        return try Data(contentsOf: url)
            .split(separator: UInt8(ascii: "\n"))
            .map { try decoder.decode(RecordedRequest.self, from: Data($0)) }
    }

    /// Waits until at least `count` requests have arrived and returns them all; throws
    /// ``WaitTimeout`` after `timeout` (a safety net). The wait is resumed by an inotify event
    /// of the state directory as the server records a request. A request is recorded when it
    /// arrives, before any `delaySeconds`, so this also tells that a delayed request is in flight.
    @discardableResult
    public func waitForRequests(count: Int = 1, timeout: Duration = .seconds(10)) async throws -> [RecordedRequest] {
        do {
            try await requestCount.wait(timeout: timeout, "\(count) requests") { $0 >= count }
        } catch is DeadlineExceeded {
            throw WaitTimeout(expected: count, received: try requests().count)
        }
        return try requests()
    }

    public struct WaitTimeout: Error, CustomStringConvertible {
        public var expected: Int
        public var received: Int
        public var description: String { "expected \(expected) requests at the fixture HTTP server, got \(received)" }
    }

    /// Sets how `GET /v1/forecast` and `GET /v1/search` answer from now on (each `nil` keeps the default): `status`
    /// (default 200), `body` text (wins over `file`), `file` relative to the fixtures root,
    /// a `Retry-After` header of `retryAfter` seconds, `delaySeconds` before the answer, and
    /// extra response `headers` sent as given (e.g. `["Retry-After": "<an HTTP-date>"]`).
    /// Failure shapes: `bodyBytes` makes the body exactly that long (the chosen body repeated),
    /// `gzip: false` never compresses, `chunked` sends it chunked without `Content-Length`,
    /// `truncateAt` sends only that many bytes of the announced body (on the wire) and closes.
    /// `lastModified` sends that `Last-Modified` and answers 304 without a body to a request
    /// whose `If-Modified-Since` is exactly it.
    /// Written atomically (`control.json`), so a concurrent request sees the old or the new answer.
    public func respond(
        status: Int? = nil, body: String? = nil, retryAfter: Double? = nil, delaySeconds: Double? = nil,
        file: String? = nil, headers: [String: String]? = nil, bodyBytes: Int? = nil, gzip: Bool? = nil,
        chunked: Bool? = nil, truncateAt: Int? = nil, lastModified: String? = nil
    ) throws {
        struct Control: Encodable {
            var status: Int?
            var body: String?
            var retryAfter: Double?
            var delaySeconds: Double?
            var file: String?
            var headers: [String: String]?
            var bodyBytes: Int?
            var gzip: Bool?
            var chunked: Bool?
            var truncateAt: Int?
            var lastModified: String?
        }
        let data = try JSONEncoder().encode(
            Control(
                status: status, body: body, retryAfter: retryAfter, delaySeconds: delaySeconds, file: file,
                headers: headers, bodyBytes: bodyBytes, gzip: gzip, chunked: chunked, truncateAt: truncateAt,
                lastModified: lastModified))
        try data.write(to: stateDirectory.appendingPathComponent("control.json"), options: .atomic)
    }

    /// Back to the default answers, and forgets the recorded requests.
    public func reset() throws {
        let fileManager = FileManager.default
        for name in ["control.json", "requests.jsonl"] {
            let url = stateDirectory.appendingPathComponent(name)
            if fileManager.fileExists(atPath: url.path) { try fileManager.removeItem(at: url) }
        }
    }

    /// ``stop()``, then waits for the server's exit (its port is closed then).
    public func stopAndWait() async {
        stop()
        if (try? await child.exited(timeout: .seconds(5))) == nil {
            child.signalGroup(SIGKILL)
            _ = try? await child.exited(timeout: .seconds(5))
        }
    }

    /// Stops the server: closes its stdin (it exits), sends SIGTERM, and returns at once; the
    /// state directory is removed once the server has exited (SIGKILL after 5 s; see
    /// ``ChildProcess/terminateInBackground(grace:then:)``). Idempotent.
    public func stop() {
        let alreadyStopped = lock.withLock {
            defer { stopped = true }
            return stopped
        }
        if alreadyStopped { return }
        watch.close()
        child.closeStdin()
        let state = stateDirectory
        child.terminateInBackground(grace: .seconds(5)) { try? FileManager.default.removeItem(at: state) }
    }
}
