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

/// Output of a finished process.
public struct ProcessResult: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String
}

/// Runs `executable` with `arguments` to completion (bounded by `timeout` seconds; then killed).
public func runProcess(
    _ executable: String, _ arguments: [String], environment: [String: String]? = nil, timeout: TimeInterval = 30
) throws -> ProcessResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let environment { process.environment = environment }
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let killer = DispatchWorkItem { if process.isRunning { process.terminate() } }
    DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: killer)
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    killer.cancel()
    return ProcessResult(
        status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
        stderr: String(decoding: errData, as: UTF8.self))
}

/// A running `wundercastd` with a configuration written by the test and a socket in a
/// temporary directory. ``stop()`` (and `deinit`) sends SIGTERM and waits.
public final class DaemonProcess: @unchecked Sendable {
    public let directory: URL
    public let socketPath: String
    public let configPath: String
    public let logPath: String
    /// The daemon's process id (spawned with ``Spawn``, its own process group).
    public let pid: pid_t
    private let lock = NSLock()
    private var exitStatus: Int32?

    public struct StartError: Error, CustomStringConvertible {
        public var description: String
    }

    /// Writes `configuration` (INI text; `Path=` of `[Socket]` is appended by this method) and
    /// starts the daemon, returning once its socket accepts connections.
    ///
    /// With `journalStream`, `JOURNAL_STREAM` names the device and inode of the daemon's stderr
    /// (the file at ``logPath``), as systemd sets it for a service whose stderr is the journal:
    /// the daemon then logs to the journal's native socket instead of stderr.
    public init(
        configuration: String, environment: [String: String] = [:], extraArguments: [String] = [],
        waitForSocket: Bool = true,
        journalStream: Bool = false
    ) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "wundercastd-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        socketPath = directory.appendingPathComponent("wundercast.sock").path
        configPath = directory.appendingPathComponent("wundercast.conf").path
        logPath = directory.appendingPathComponent("wundercastd.log").path
        try (configuration + "\n[Socket]\nPath=\(socketPath)\n").write(
            toFile: configPath, atomically: true, encoding: .utf8)
        var env = ProcessInfo.processInfo.environment
        env["WUNDERCAST_DEBUG"] = "1"
        env.removeValue(forKey: "NOTIFY_SOCKET")
        env.removeValue(forKey: "JOURNAL_STREAM")
        env.removeValue(forKey: "LISTEN_FDS")
        for (k, v) in environment { env[k] = v }
        if journalStream {
            // Made now so that its inode is known; `Spawn` opens it with O_TRUNC, which keeps it.
            guard FileManager.default.createFile(atPath: logPath, contents: nil) else {
                throw StartError(description: "cannot create \(logPath)")
            }
            var status = stat()
            guard stat(logPath, &status) == 0 else { throw StartError(description: "cannot stat \(logPath)") }
            env["JOURNAL_STREAM"] = "\(status.st_dev):\(status.st_ino)"
        }
        pid = try Spawn.process(
            [try Binaries.path("wundercastd"), "--config", configPath] + extraArguments, output: logPath,
            environment: env)
        guard waitForSocket else { return }
        let deadline = Date().addingTimeInterval(20)
        while !FileManager.default.fileExists(atPath: socketPath) {
            guard isRunning else { throw StartError(description: "wundercastd exited: \(self.log)") }
            guard Date() < deadline else {
                throw StartError(description: "wundercastd did not create its socket: \(self.log)")
            }
            usleep(20_000)
        }
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: directory)
    }

    public var isRunning: Bool { lock.withLock { Spawn.isRunning(pid, status: &exitStatus) } }

    /// What the daemon logged so far (stderr; debug entries included).
    public var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// Runs `wundercastctl --socket <this socket> arguments…`.
    public func ctl(_ arguments: String...) throws -> ProcessResult {
        try runProcess(try Binaries.path("wundercastctl"), ["--socket", socketPath] + arguments)
    }

    /// `wundercastctl now --json`, parsed.
    public func now() throws -> [String: Any] {
        let result = try ctl("now", "--json")
        guard result.status == 0,
            let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        else {
            throw StartError(description: "now --json failed (\(result.status)): \(result.stderr) \(result.stdout)")
        }
        return object
    }

    /// Polls `now --json` until `condition` holds (bounded by `timeout`); returns the last state.
    @discardableResult
    public func waitForState(
        timeout: TimeInterval = 60, _ what: String, _ condition: ([String: Any]) -> Bool
    ) throws -> [String: Any] {
        let deadline = Date().addingTimeInterval(timeout)
        var last: [String: Any] = [:]
        while Date() < deadline {
            last = try now()
            if condition(last) { return last }
            usleep(100_000)
        }
        throw StartError(description: "timed out waiting for \(what); last state: \(last); log:\n\(log.suffix(3000))")
    }

    /// Sends SIGTERM and waits (bounded, then SIGKILL) for the exit; returns the exit code
    /// (128 + signal number when a signal ended it).
    @discardableResult
    public func stop() -> Int32 {
        if isRunning {
            kill(pid, SIGTERM)
            let deadline = Date().addingTimeInterval(10)
            while isRunning && Date() < deadline { usleep(10_000) }
            if isRunning {
                kill(pid, SIGKILL)
                while isRunning { usleep(10_000) }
            }
        }
        let status = lock.withLock { exitStatus } ?? -1
        if status & 0x7f == 0 { return (status >> 8) & 0xff }
        return 128 + (status & 0x7f)
    }
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
