import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The fixture HTTP server as a process of its own (`Tests/Tools/fixture_http_server.py`,
/// Python 3 stdlib), for the tests that need one: a server in another network namespace
/// (`launcher`, ``pid``). Every other test uses the in-process ``FixtureHTTPServer``, which
/// serves the same (the Python one is also what `make demo` and `make bench` serve from).
///
/// Its routes, answers and ``FixtureServer/respond(status:body:retryAfter:delaySeconds:file:headers:bodyBytes:gzip:chunked:truncateAt:lastModified:)``
/// are the in-process server's (the script's docstring is the reference of both); its requests
/// are read back from its `requests.jsonl`.
///
/// The server process ends with ``stop()`` or `deinit`, and by itself when this process dies
/// (its stdin closes).
public final class PythonFixtureHTTPServer: FixtureServer, @unchecked Sendable {
    public struct StartError: Error, CustomStringConvertible {
        public var description: String
    }

    public let port: Int
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
    /// its port. Queued first behind other starts of this process (see ``concurrentStarts``):
    /// that wait has no deadline (each start ahead is bounded by its own) and ends when the task
    /// is cancelled. Then throws when python3 cannot be started or does not report its port
    /// within `startTimeout` (a safety net: generous, for a loaded machine), counted from its start.
    /// `launcher` is put before the server's command line: a program that execs it (e.g.
    /// `unshare -rn …`, to serve in a network namespace of its own; ``pid`` is then that of the server).
    public init(
        root: URL = Fixtures.directory, startTimeout: Duration = .seconds(60), launcher: [String] = []
    )
        async throws
    {
        while true {
            let limit = Self.concurrentStarts
            _ = try await Self.starting.wait { $0 < limit }
            let taken = Self.starting.update { (count: inout Int) -> Bool in
                guard count < limit else { return false }
                count += 1
                return true
            }
            if taken { break }
        }
        defer { Self.starting.update { $0 -= 1 } }

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
    /// ``FixtureRequestsTimeout`` after `timeout` (a safety net). The wait is resumed by an inotify event
    /// of the state directory as the server records a request. A request is recorded when it
    /// arrives, before any `delaySeconds`, so this also tells that a delayed request is in flight.
    @discardableResult
    public func waitForRequests(count: Int = 1, timeout: Duration = .seconds(10)) async throws -> [RecordedRequest] {
        do {
            try await requestCount.wait(timeout: timeout, "\(count) requests") { $0 >= count }
        } catch is DeadlineExceeded {
            throw FixtureRequestsTimeout(expected: count, received: try requests().count)
        }
        return try requests()
    }

    /// Written atomically (`control.json`), so a concurrent request sees the old or the new answer.
    public func respond(_ control: FixtureControl) throws {
        // Sorted: the extra headers go out in the order of their names, as from the in-process server.
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        try encoder.encode(control).write(to: stateDirectory.appendingPathComponent("control.json"), options: .atomic)
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
