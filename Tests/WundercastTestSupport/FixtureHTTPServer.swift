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
/// when `temperature_unit=fahrenheit`); ``respond(status:body:retryAfter:delaySeconds:file:headers:)``
/// changes that answer; `GET /redirect?to=/PATH` answers 302; other paths 404. Bodies are
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

    private let process: Process
    private let stdinPipe: Pipe
    private let lock = NSLock()
    private var stopped = false

    /// Starts the server over the fixtures in `root` and waits (at most `startTimeout`) until it
    /// listens. Throws when python3 cannot be started or does not report its port in time.
    public init(root: URL = Fixtures.directory, startTimeout: TimeInterval = 10) throws {
        let fileManager = FileManager.default
        let state = fileManager.temporaryDirectory.appendingPathComponent(
            "wundercast-fixture-http-\(UUID().uuidString)")
        try fileManager.createDirectory(at: state, withIntermediateDirectories: true)
        stateDirectory = state

        let logURL = state.appendingPathComponent("server.log")
        _ = fileManager.createFile(atPath: logURL.path, contents: nil)
        let log = try FileHandle(forWritingTo: logURL)
        defer { try? log.close() }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", "-u", Fixtures.tools.appendingPathComponent("fixture_http_server.py").path,
            "--root", root.path, "--port", "0", "--state", state.path,
        ]
        let stdinPipe = Pipe()
        let stdoutPipe = Pipe()
        process.standardInput = stdinPipe
        process.standardOutput = stdoutPipe
        process.standardError = log
        do {
            try process.run()
        } catch {
            try? fileManager.removeItem(at: state)
            throw StartError(description: "cannot start python3 for the fixture HTTP server: \(error)")
        }
        self.process = process
        self.stdinPipe = stdinPipe

        // Read the "PORT <n>" line on another thread, so that the wait is bounded.
        let reader = stdoutPipe.fileHandleForReading
        let portBox = PortBox()
        let reading = Thread {
            var line = Data()
            while true {
                let chunk = reader.availableData
                if chunk.isEmpty { break }
                line.append(chunk)
                if line.contains(UInt8(ascii: "\n")) { break }
            }
            portBox.finish(String(decoding: line, as: UTF8.self))
        }
        reading.start()
        let text = portBox.wait(timeout: startTimeout)

        guard let text, let first = text.split(separator: "\n").first, first.hasPrefix("PORT "),
            let port = Int(first.dropFirst(5)), port > 0
        else {
            self.port = 0
            let serverLog = (try? String(contentsOf: logURL, encoding: .utf8)) ?? ""
            stop()
            throw StartError(
                description: "fixture HTTP server did not report its port within \(startTimeout) s"
                    + " (stdout: \(text.map { "\"\($0)\"" } ?? "nothing")); its log:\n\(serverLog)")
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

    /// Waits until at least `count` requests have arrived (polling every 10 ms) and returns them
    /// all; throws ``WaitTimeout`` after `timeout`. A request is recorded when it arrives, before
    /// any `delaySeconds`, so this also tells that a delayed request is in flight.
    @discardableResult
    public func waitForRequests(count: Int = 1, timeout: Duration = .seconds(10)) async throws -> [RecordedRequest] {
        let deadline = ContinuousClock.now + timeout
        while true {
            let received = try requests()
            if received.count >= count { return received }
            if ContinuousClock.now >= deadline { throw WaitTimeout(expected: count, received: received.count) }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    public struct WaitTimeout: Error, CustomStringConvertible {
        public var expected: Int
        public var received: Int
        public var description: String { "expected \(expected) requests at the fixture HTTP server, got \(received)" }
    }

    /// Sets how `GET /v1/forecast` answers from now on (each `nil` keeps the default): `status`
    /// (default 200), `body` text (wins over `file`), `file` relative to the fixtures root,
    /// a `Retry-After` header of `retryAfter` seconds, `delaySeconds` before the answer, and
    /// extra response `headers` sent as given (e.g. `["Retry-After": "<an HTTP-date>"]`).
    /// Written atomically (`control.json`), so a concurrent request sees the old or the new answer.
    public func respond(
        status: Int? = nil, body: String? = nil, retryAfter: Double? = nil, delaySeconds: Double? = nil,
        file: String? = nil, headers: [String: String]? = nil
    ) throws {
        struct Control: Encodable {
            var status: Int?
            var body: String?
            var retryAfter: Double?
            var delaySeconds: Double?
            var file: String?
            var headers: [String: String]?
        }
        let data = try JSONEncoder().encode(
            Control(
                status: status, body: body, retryAfter: retryAfter, delaySeconds: delaySeconds, file: file,
                headers: headers))
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

    /// Stops the server (closes its stdin, then SIGTERM), waits for it, and removes the state
    /// directory. Idempotent.
    public func stop() {
        let alreadyStopped = lock.withLock {
            defer { stopped = true }
            return stopped
        }
        if alreadyStopped { return }
        try? stdinPipe.fileHandleForWriting.close()
        if process.isRunning { process.terminate() }
        // Bounded: a server that ignores SIGTERM for 5 s gets SIGKILL.
        let deadline = Date(timeIntervalSinceNow: 5)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: stateDirectory)
    }
}

/// The first stdout text of the server, handed from the reading thread to `init`.
private final class PortBox: @unchecked Sendable {
    private let condition = NSCondition()
    private var text: String?

    func finish(_ text: String) {
        condition.lock()
        self.text = text
        condition.broadcast()
        condition.unlock()
    }

    func wait(timeout: TimeInterval) -> String? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while text == nil {
            if !condition.wait(until: deadline) { break }
        }
        return text
    }
}
