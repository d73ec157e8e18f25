import Foundation

/// The built `wundercastd`/`wundercastctl` binaries, run as real processes.
public enum Binaries {
    /// `$WUNDERCAST_BIN_DIR`, else the directory of the running test bundle
    /// (`.build/debug`, where `swift build` puts the executables).
    public static var directory: URL {
        if let dir = ProcessInfo.processInfo.environment["WUNDERCAST_BIN_DIR"], !dir.isEmpty {
            return URL(fileURLWithPath: dir)
        }
        let exe =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var url = URL(fileURLWithPath: exe).deletingLastPathComponent()
        // The bundle may be run from inside `X.xctest/…` on some layouts.
        while url.path.contains(".xctest") { url.deleteLastPathComponent() }
        return url
    }

    public struct Missing: Error, CustomStringConvertible {
        public var description: String
    }

    /// The path of executable `name`; throws when it was not built (run `swift build` first;
    /// `make test` does).
    public static func path(_ name: String) throws -> String {
        let url = directory.appendingPathComponent(name)
        guard FileManager.default.isExecutableFile(atPath: url.path) else {
            throw Missing(description: "\(url.path) not built: run `swift build` before the tests (`make test` does)")
        }
        return url.path
    }
}

/// A running `wundercastd` with a configuration written by the test and a socket in a
/// temporary directory.
///
/// Everything a test waits for arrives as an event: `READY=1` on a private `NOTIFY_SOCKET`
/// (start-up), a line of its output (``output``), a state on a `wundercastctl watch --json`
/// stream (``waitForState(timeout:_:_:)``), its exit (``stop()``). No polling, and no Swift
/// concurrency thread blocks (see ``ChildProcess``).
///
/// `deinit` of a daemon still running sends SIGTERM, and SIGKILL 10 s later if needed.
public final class DaemonProcess: @unchecked Sendable {
    public let directory: URL
    public let socketPath: String
    public let configPath: String
    /// A copy of the daemon's stdout and stderr, written as it arrives.
    public let logPath: String
    /// The daemon's process id (spawned with ``Spawn``, its own process group).
    public let pid: pid_t
    /// The daemon's stdout and stderr, line by line (debug entries included).
    public var output: OutputLog { child.output }
    private let child: ChildProcess
    /// The `NOTIFY_SOCKET` of this object (`nil` when the test gave its own).
    public let notify: NotifySocket?

    public struct StartError: Error, CustomStringConvertible {
        public var description: String
    }

    /// The first line the daemon answers `request` with, asked as `nobody` (uid and gid 65534,
    /// a public reader) through `socat` under `setpriv`; fails when socat does not end within
    /// 60 s, ends with an error, or nothing was answered (``StartError``).
    public func firstLine(asNobody request: String) async throws -> String {
        let socat = try ChildProcess(
            [
                "/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/socat", "-t", "30",
                "-", "UNIX-CONNECT:\(socketPath)",
            ], stdinPipe: true, separateStderr: true)
        socat.writeToStdin(Array((request + "\n").utf8))
        socat.closeStdin()
        let status = try await socat.exited(timeout: .seconds(60))
        guard status == 0 else {
            throw StartError(description: "socat as nobody exited \(status): \(socat.errorOutput.rawText)")
        }
        try await socat.output.waitForEnd("socat's output")
        guard let line = socat.output.lines.first else {
            throw StartError(description: "no answer to \(request) as nobody")
        }
        return line
    }

    /// `configuration` with the tests' defaults: `Marine=no` in `[Weather]` unless it sets
    /// `Marine=` (the sea state, default auto, is off: the fixture servers answer every path with
    /// the weather's recording, and tests count requests).
    public static func withTestDefaults(_ configuration: String) -> String {
        configuration + (configuration.contains("Marine=") ? "" : "\n[Weather]\nMarine=no")
    }

    /// Rewrites the configuration file for a reload as ``init(configuration:environment:waitForSocket:launcher:journalStream:)``
    /// writes it: `configuration` with the tests' defaults and this daemon's socket path.
    public func rewriteConfiguration(_ configuration: String) throws {
        try (Self.withTestDefaults(configuration) + "\n[Socket]\nPath=\(socketPath)\n").write(
            toFile: configPath, atomically: true, encoding: .utf8)
    }

    /// Writes `configuration` (INI text; `Path=` of `[Socket]` is appended by this method, and
    /// `Marine=no` of `[Weather]` unless it sets `Marine=`) and
    /// starts the daemon. With `waitForSocket`, returns once the daemon has sent `READY=1`
    /// (which it sends once its socket listens) on a `NOTIFY_SOCKET` of this object; throws
    /// when it exits first. An `environment` that sets `NOTIFY_SOCKET` keeps the daemon's
    /// notifications for the test (then pass `waitForSocket: false`).
    ///
    /// `launcher` is put before the daemon's command line: a program that execs it (e.g.
    /// `nsenter … --`, to start it in another network namespace; its pid is then the daemon's).
    ///
    /// With `journalStream`, `JOURNAL_STREAM` names the device and inode of the daemon's
    /// stderr (a pipe read by this object), as systemd sets it for a service whose stderr is
    /// the journal: the daemon then logs to the journal's native socket instead of stderr.
    public init(
        configuration: String, environment: [String: String] = [:], extraArguments: [String] = [],
        waitForSocket: Bool = true,
        journalStream: Bool = false,
        startTimeout: Duration = .seconds(60),
        launcher: [String] = []
    ) async throws {
        let directory = URL(fileURLWithPath: try DatagramSocket.temporaryDirectory())
        self.directory = directory
        socketPath = directory.appendingPathComponent("wundercast.sock").path
        configPath = directory.appendingPathComponent("wundercast.conf").path
        logPath = directory.appendingPathComponent("wundercastd.log").path
        try (Self.withTestDefaults(configuration) + "\n[Socket]\nPath=\(socketPath)\n").write(
            toFile: configPath, atomically: true, encoding: .utf8)
        var env = Spawn.environment
        env["WUNDERCAST_DEBUG"] = "1"
        env.removeValue(forKey: "NOTIFY_SOCKET")
        env.removeValue(forKey: "JOURNAL_STREAM")
        env.removeValue(forKey: "LISTEN_FDS")
        env.removeValue(forKey: "WATCHDOG_USEC")
        // The kernel's clock state is the test's, never the machine's: not synchronised
        // (adjtimex's TIME_ERROR) unless a test says otherwise.
        env["WUNDERCAST_TEST_KERNEL_CLOCK"] = "5"
        for (k, v) in environment { env[k] = v }
        if environment["NOTIFY_SOCKET"] == nil {
            let notify = try NotifySocket(path: directory.appendingPathComponent("notify").path)
            env["NOTIFY_SOCKET"] = notify.path
            self.notify = notify
        } else {
            notify = nil
        }
        let pipe = try PipeDescriptors()
        if journalStream { env["JOURNAL_STREAM"] = pipe.journalStream }
        child = try ChildProcess(
            launcher + [try Binaries.path("wundercastd"), "--config", configPath] + extraArguments, environment: env,
            outputCopy: logPath, outputPipe: pipe)
        pid = child.pid
        guard waitForSocket, let notify else { return }

        enum Start: Sendable {
            case ready
            case exited
        }
        let child = self.child
        let start: Start
        do {
            start = try await withDeadline(startTimeout, "READY=1 from wundercastd") {
                try await withThrowingTaskGroup(of: Start.self) { group in
                    group.addTask {
                        try await notify.messages.waitFor("READY=1") { $0.contains("READY=1") }
                        return .ready
                    }
                    group.addTask {
                        _ = try await child.waitStatus.wait { $0 != nil }
                        return .exited
                    }
                    defer { group.cancelAll() }
                    return try await group.next()!
                }
            }
        } catch let error as DeadlineExceeded {
            throw StartError(description: "\(error); log:\n\(log.suffix(3000))")
        }
        if start == .exited {
            throw StartError(description: "wundercastd exited (\(child.exitCode ?? -1)): \(log.suffix(3000))")
        }
    }

    deinit {
        notify?.close()
        let directory = self.directory
        child.terminateInBackground { try? FileManager.default.removeItem(at: directory) }
    }

    public var isRunning: Bool { child.isRunning }

    /// The exit code once the daemon has ended (128 + the signal number when a signal ended
    /// it); `nil` while it runs.
    public var exitCode: Int32? { child.exitCode }

    /// What the daemon logged so far (stderr; debug entries included).
    public var log: String { child.output.rawText }

    /// Runs `wundercastctl --socket <this socket> arguments…`.
    public func ctl(_ arguments: String...) async throws -> ProcessResult {
        try await runProcess(try Binaries.path("wundercastctl"), ["--socket", socketPath] + arguments)
    }

    /// `wundercastctl now --json`, parsed.
    public func now() async throws -> [String: Any] {
        let result = try await runProcess(
            try Binaries.path("wundercastctl"), ["--socket", socketPath, "now", "--json"])
        guard result.status == 0,
            let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        else {
            throw StartError(description: "now --json failed (\(result.status)): \(result.stderr) \(result.stdout)")
        }
        return object
    }

    /// Waits until a state for which `condition` holds and returns it: the current state and
    /// each change arrive on a `wundercastctl watch --json` stream, and each is checked as it
    /// comes. ``StartError`` after `timeout` (a safety net) or when the stream ends.
    @discardableResult
    public func waitForState(
        timeout: Duration = .seconds(60), _ what: String, _ condition: @escaping @Sendable ([String: Any]) -> Bool
    ) async throws -> [String: Any] {
        let watch = try ChildProcess(
            [try Binaries.path("wundercastctl"), "--socket", socketPath, "watch", "--json"], separateStderr: true)
        defer { watch.signalGroup(SIGKILL) }
        do {
            let line = try await watch.output.waitFor(what, timeout: timeout) { line in
                Self.object(line).map(condition) ?? false
            }
            return Self.object(line) ?? [:]
        } catch {
            let last = watch.output.lines.last ?? "nothing"
            throw StartError(
                description:
                    "no state with \(what): \(error); last state: \(last); watch stderr: \(watch.errorOutput.rawText); log:\n\(log.suffix(3000))"
            )
        }
    }

    private static func object(_ line: String) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
    }

    /// Sends SIGTERM and waits (bounded, then SIGKILL) for the exit; returns the exit code
    /// (128 + signal number when a signal ended it).
    @discardableResult
    public func stop() async -> Int32 {
        await child.terminate(grace: .seconds(10))
    }

    /// Waits (at most `timeout`) for the daemon to exit by itself, signalling nothing; returns
    /// its exit code. Throws when it is still running then.
    public func exited(timeout: Duration) async throws -> Int32 {
        try await child.exited(timeout: timeout)
    }

    /// Sends `signal` (e.g. SIGHUP) to the daemon.
    public func signal(_ signal: Int32) { child.signal(signal) }
}

extension Dictionary where Key == String, Value == Any {
    /// The value at a dotted path, e.g. `"weather.temperature"`.
    public subscript(path path: String) -> Any? {
        var current: Any? = self
        for key in path.split(separator: ".") {
            current = (current as? [String: Any])?[String(key)]
        }
        return current
    }
}
