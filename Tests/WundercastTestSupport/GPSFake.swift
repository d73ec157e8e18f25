import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A running `gpsfake` (and the `gpsd` it spawns) replaying an NMEA log on a private TCP port.
///
/// Starts `gpsfake -q -P <port> -c <cycle> [-1] [-W <linger>] <log>`. Without `-P` gpsfake
/// takes 2947 and collides with a real gpsd (PITFALLS, gpsfake). The initialiser returns
/// once the port accepts TCP connections, or throws after `readyTimeout`.
///
/// Timing (PITFALLS, and checked here): gpsfake starts feeding the moment it has added the
/// device, right after gpsd listens. A client that is already watching then sees the log
/// from its first fix; a client that connects later sees only the rest. Without `once` the
/// log loops; with it, gpsd stays up `linger` seconds after the end, then gpsfake exits 1.
///
/// Spawned with `posix_spawn`, not Foundation's `Process`: a process spawned from a Swift
/// concurrency (libdispatch) thread inherits that thread's signal mask, in which SIGTERM is
/// blocked, and `Process` does not reset it (seen here: `SigBlk: fffffffe3bfbea27`). gpsd
/// then ignores the SIGTERM that gpsfake sends it after `-W`, and gpsfake loops forever. Here
/// the mask is emptied, dispositions reset, and gpsfake leads its own process group.
///
/// ``stop()`` (and `deinit`) ends gpsfake *and* its gpsd: the group gets SIGTERM, then
/// SIGKILL if it lingers.
public final class GPSFake: @unchecked Sendable {
    /// The TCP port gpsd listens on (127.0.0.1).
    public let port: Int
    /// The replayed log.
    public let log: URL
    /// gpsfake's stdout and stderr (for failure messages).
    public let outputFile: URL
    /// gpsfake's pid, also its process group id.
    public let pid: pid_t

    /// Guards `exitStatus` and `stopped` (reaping happens once, from any thread).
    private let lock = NSLock()
    private var exitStatus: Int32?
    private var stopped = false

    public struct StartError: Error, CustomStringConvertible {
        public var description: String
    }

    /// - Parameters:
    ///   - log: the NMEA file to replay.
    ///   - cycle: seconds between sentences (`-c`); 0 floods.
    ///   - once: play the log once (`-1`) instead of looping.
    ///   - linger: with `once`, seconds gpsd stays up after the log ends (`-W`, gpsfake's
    ///     default is 60).
    ///   - port: the port to use (e.g. the port of a stopped instance); a free one by default.
    ///   - readyTimeout: how long to wait for the port to accept connections.
    public init(
        log: URL, cycle: Double = 0.1, once: Bool = false, linger: Int? = nil, port: Int? = nil,
        readyTimeout: Duration = .seconds(30)
    ) throws {
        self.log = log
        self.port = try port ?? GPSFake.freePort()
        outputFile = FileManager.default.temporaryDirectory
            .appendingPathComponent("gpsfake-\(self.port)-\(UUID().uuidString).log")

        // gpsfake is a /usr/bin/python3 script (python3-gps lives there); it finds gpsd on
        // PATH and adds /usr/sbin itself.
        var arguments = ["/usr/bin/gpsfake", "-q", "-P", String(self.port), "-c", String(cycle)]
        if once { arguments.append("-1") }
        if let linger { arguments += ["-W", String(linger)] }
        arguments.append(log.path)
        pid = try Spawn.process(arguments, output: outputFile.path)

        let clock = ContinuousClock()
        let deadline = clock.now + readyTimeout
        while !GPSFake.acceptsConnections(port: self.port) {
            guard isRunning else {
                let status = lock.withLock { exitStatus } ?? -1
                throw StartError(description: "gpsfake exited (\(status)) before port \(self.port) opened: \(output)")
            }
            guard clock.now < deadline else {
                stop()
                throw StartError(description: "gpsfake did not open port \(self.port) within \(readyTimeout)")
            }
            usleep(20_000)  // polling a condition with a deadline, not a fixed sleep
        }
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: outputFile)
    }

    /// Whether gpsfake itself still runs (it exits after `linger` when playing once). Reaps it.
    public var isRunning: Bool {
        lock.withLock { Spawn.isRunning(pid, status: &exitStatus) }
    }

    /// What gpsfake and gpsd wrote so far.
    public var output: String { (try? String(contentsOf: outputFile, encoding: .utf8)) ?? "" }

    /// The gpsd processes gpsfake spawned (live members of its process group but itself).
    public var gpsdProcesses: [pid_t] {
        GPSFake.processes(inGroup: pid).filter { $0 != pid }
    }

    /// Stops gpsfake and its gpsd and waits (bounded, 10 s) until both are gone and the port
    /// is closed, so a new instance can take the same port. Idempotent.
    public func stop() {
        let first = lock.withLock {
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }

        // gpsd is gpsfake's child in gpsfake's process group. While gpsfake is unreaped the
        // group id cannot be reused, so signalling the group hits only these two.
        let members = GPSFake.processes(inGroup: pid)
        func signalAll(_ signal: Int32) {
            if isRunning { _ = killpg(pid, signal) }
            for member in members where GPSFake.isAlive(member) { _ = kill(member, signal) }
        }
        func alive() -> Bool { isRunning || members.contains(where: GPSFake.isAlive) }

        signalAll(SIGTERM)  // gpsfake's handler terminates its gpsd too
        let clock = ContinuousClock()
        var deadline = clock.now + .seconds(5)
        while clock.now < deadline, alive() { usleep(10_000) }
        if alive() {
            signalAll(SIGKILL)
            deadline = clock.now + .seconds(5)
            while clock.now < deadline, alive() { usleep(10_000) }
        }
        deadline = clock.now + .seconds(5)
        while clock.now < deadline, GPSFake.acceptsConnections(port: port) { usleep(10_000) }
        try? FileManager.default.removeItem(atPath: "/tmp/gpsfake-\(pid).sock")  // if gpsd was killed
    }

    // MARK: - Helpers

    /// A TCP port that was free a moment ago: bind 127.0.0.1:0, read the port, close.
    public static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw StartError(description: "socket: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else { throw StartError(description: "bind 127.0.0.1:0: \(String(cString: strerror(errno)))") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Whether something accepts TCP connections on 127.0.0.1:`port` (connects and closes).
    public static func acceptsConnections(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    /// Live (not zombie) processes whose process group is `group`, from `/proc`.
    static func processes(inGroup group: pid_t) -> [pid_t] {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        return entries.compactMap { pid_t($0) }.filter { pid in
            guard let stat = GPSFake.stat(pid) else { return false }
            return stat.group == group && stat.state != "Z"
        }
    }

    static func isAlive(_ pid: pid_t) -> Bool {
        guard let stat = stat(pid) else { return false }
        return stat.state != "Z"
    }

    /// State letter and process group from `/proc/<pid>/stat` (fields after the `)` of comm).
    private static func stat(_ pid: pid_t) -> (state: Character, group: pid_t)? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // state ppid pgrp ...
        guard fields.count > 2, let state = fields[0].first, let group = pid_t(fields[2]) else { return nil }
        return (state, group)
    }
}
