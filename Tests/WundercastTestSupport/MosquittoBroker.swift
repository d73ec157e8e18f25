import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A real MQTT broker (Debian's `mosquitto` 2.0) on 127.0.0.1 and a free port, with a
/// configuration of its own in a temporary directory; and `mosquitto_sub` to read what it holds.
///
/// ``start(port:extra:)`` returns once the broker logs that it runs (`log_type all` to its
/// output, which failure messages quote); ``stop()`` ends it with SIGTERM and waits; `deinit`
/// ends it in the background. A broker started again on the same port keeps nothing
/// (`persistence false`): retained messages come back only from the clients.
public final class MosquittoBroker: @unchecked Sendable {
    public let port: Int
    public let directory: URL
    private let child: ChildProcess

    public struct StartError: Error, CustomStringConvertible {
        public var description: String
    }

    /// Whether Debian's broker and its clients are installed (tests skip, saying so, without them).
    public static var isInstalled: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/sbin/mosquitto")
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/mosquitto_sub")
    }

    /// Starts a broker on `port` (a free one by default) with `extra` lines appended to its
    /// configuration (a `password_file`, an `acl_file`, TLS listener options). `files` are
    /// written into its directory first (name → text), readable by the broker; `$DIR` in
    /// `extra` names that directory.
    public static func start(
        port: Int? = nil, extra: String = "", files: [String: String] = [:], allowAnonymous: Bool = true,
        timeout: Duration = .seconds(30)
    ) async throws -> MosquittoBroker {
        let broker = try MosquittoBroker(
            port: port ?? GPSFake.freePort(), extra: extra, files: files, allowAnonymous: allowAnonymous)
        do {
            try await broker.child.output.waitFor("mosquitto running", timeout: timeout) { $0.contains(" running") }
        } catch {
            throw StartError(description: "mosquitto on port \(broker.port) did not start: \(error)")
        }
        return broker
    }

    private init(port: Int, extra: String, files: [String: String], allowAnonymous: Bool) throws {
        self.port = port
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("mosquitto-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // Started as root, mosquitto runs as user `mosquitto`: it must read what it is given.
        _ = chmod(directory.path, 0o755)
        for (name, text) in files { _ = try Self.write(text, to: directory.appendingPathComponent(name).path) }
        let extra = extra.replacingOccurrences(of: "$DIR", with: directory.path)
        let configuration = """
            listener \(port) 127.0.0.1
            allow_anonymous \(allowAnonymous)
            persistence false
            log_dest stderr
            log_type all
            \(extra)

            """
        let path = directory.appendingPathComponent("mosquitto.conf").path
        try configuration.write(toFile: path, atomically: true, encoding: .utf8)
        _ = chmod(path, 0o644)
        child = try ChildProcess(["/usr/sbin/mosquitto", "-c", path])
    }

    deinit {
        let directory = self.directory
        child.terminateInBackground { try? FileManager.default.removeItem(at: directory) }
    }

    /// The broker's log so far.
    public var log: String { child.output.rawText }

    /// Waits for a line of the broker's log containing `text`.
    @discardableResult
    public func waitForLog(containing text: String, timeout: Duration = .seconds(30)) async throws -> String {
        try await child.output.waitFor(containing: text, timeout: timeout)
    }

    /// Ends the broker (SIGTERM, SIGKILL after 10 s) and waits for its exit: the port is free.
    public func stop() async {
        await child.terminate()
    }

    /// Ends the broker with SIGKILL and waits for its exit (no clean close of its clients).
    public func kill() async {
        child.signal(SIGKILL)
        _ = try? await child.exited(timeout: .seconds(30))
    }

    /// Writes `text` to `path`, readable by everyone (the broker runs as user `mosquitto`).
    private static func write(_ text: String, to path: String) throws -> String {
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        _ = chmod(path, 0o644)
        return path
    }

    /// A `password_file` line for `user` with `password` (hashed by `mosquitto_passwd`).
    public static func passwordLine(user: String, password: String) async throws -> String {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("passwd-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        _ = try write("", to: file)
        let made = try await runProcess("/usr/bin/mosquitto_passwd", ["-b", file, user, password])
        guard made.status == 0 else { throw StartError(description: "mosquitto_passwd: \(made.stderr)") }
        return try String(contentsOfFile: file, encoding: .utf8)
    }

    /// `mosquitto_sub -v` on `topic` (MQTT 5): each message a line `TOPIC PAYLOAD`, retained ones
    /// first. End it with ``Subscriber/stop()``.
    public func subscribe(_ topic: String = "#") throws -> Subscriber {
        try Subscriber(port: port, topic: topic)
    }

    /// A running `mosquitto_sub`.
    public final class Subscriber: @unchecked Sendable {
        private let child: ChildProcess

        init(port: Int, topic: String) throws {
            child = try ChildProcess([
                "/usr/bin/mosquitto_sub", "-h", "127.0.0.1", "-p", String(port), "-V", "mqttv5", "-v", "-t", topic,
            ])
        }

        deinit { child.terminateInBackground() }

        /// The lines so far.
        public var lines: [String] { child.output.rawText.split(separator: "\n").map(String.init) }

        /// Waits for a line for which `predicate` holds and returns it.
        @discardableResult
        public func waitFor(
            _ what: String, timeout: Duration = .seconds(30), _ predicate: @escaping @Sendable (String) -> Bool
        ) async throws -> String {
            try await child.output.waitFor(what, timeout: timeout, predicate)
        }

        /// Waits for the message `payload` on `topic`.
        @discardableResult
        public func waitFor(topic: String, payload: String, timeout: Duration = .seconds(30)) async throws -> String {
            try await waitFor("\(topic) \(payload)", timeout: timeout) { $0 == "\(topic) \(payload)" }
        }

        public func stop() async { await child.terminate() }
    }
}
