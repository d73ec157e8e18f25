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
/// ``stopAndWait()``, ``stopInBackground()`` and `deinit` end gpsfake *and* its gpsd: the group gets SIGTERM, then
/// SIGKILL if it lingers. gpsfake's output is a pipe that gpsd inherits, read into an
/// ``OutputLog``: its end (EOF) is the event "gpsfake and gpsd are both gone".
///
/// gpsd gives no event when it listens (with `-q` neither gpsd nor gpsfake prints one), so
/// readiness is the one retried check here: a TCP connect, retried while waiting (20 ms at a
/// time) for gpsfake's exit event. ``start(log:cycle:once:linger:port:readyTimeout:)`` does
/// that without blocking a thread, and ``stopAndWait()`` and `deinit` end it without one.
public final class GPSFake: @unchecked Sendable {
    /// The TCP port gpsd listens on (127.0.0.1).
    public let port: Int
    /// The replayed log.
    public let log: URL
    /// A copy of gpsfake's (and gpsd's) stdout and stderr, for failure messages.
    public let outputFile: URL
    /// gpsfake's pid, also its process group id.
    public let pid: pid_t
    /// gpsfake's and gpsd's output, line by line; it ends when both have exited.
    public let outputLog: OutputLog

    private let child: ChildProcess
    private let lock = NSLock()
    private var stopped = false

    public struct StartError: Error, CustomStringConvertible {
        public var description: String
    }

    /// Starts gpsfake and returns once gpsd accepts connections, without blocking a thread.
    /// Throws when it does not within `readyTimeout`, and `CancellationError` when the task is
    /// cancelled; gpsfake is then ended in the background (`deinit`).
    /// - Parameters:
    ///   - log: the NMEA file to replay.
    ///   - cycle: seconds between sentences (`-c`); 0 floods.
    ///   - once: play the log once (`-1`) instead of looping.
    ///   - linger: with `once`, seconds gpsd stays up after the log ends (`-W`, gpsfake's
    ///     default is 60).
    ///   - port: the port to use (e.g. the port of a stopped instance); a free one by default.
    ///   - readyTimeout: how long to wait for the port to accept connections.
    public static func start(
        log: URL, cycle: Double = 0.1, once: Bool = false, linger: Int? = nil, port: Int? = nil,
        readyTimeout: Duration = .seconds(30)
    ) async throws -> GPSFake {
        let fake = try GPSFake(spawning: log, cycle: cycle, once: once, linger: linger, port: port)
        let deadline = ContinuousClock.now + readyTimeout
        while !GPSFake.acceptsConnections(port: fake.port) {
            try fake.checkStarting(deadline: deadline, readyTimeout: readyTimeout)
            _ = try? await fake.child.exited(timeout: .milliseconds(20))  // ends early when gpsfake exits
            try Task.checkCancellation()
        }
        return fake
    }

    private init(spawning log: URL, cycle: Double, once: Bool, linger: Int?, port: Int?) throws {
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
        child = try ChildProcess(arguments, outputCopy: outputFile.path)
        pid = child.pid
        outputLog = child.output
    }

    private func checkStarting(deadline: ContinuousClock.Instant, readyTimeout: Duration) throws {
        if let code = child.exitCode {
            throw StartError(description: "gpsfake exited (\(code)) before port \(port) opened: \(output)")
        }
        guard ContinuousClock.now < deadline else {
            throw StartError(description: "gpsfake did not open port \(port) within \(readyTimeout)")
        }
    }

    deinit { stopInBackground() }

    /// Ends gpsfake and its gpsd and returns at once: SIGTERM to the group now, SIGKILL 5 s
    /// later if needed, in the background (no thread waits); then its output file goes. For a
    /// test's `defer` (it also keeps the instance until then); `deinit` does it too.
    public func stopInBackground() {
        let first = lock.withLock {
            defer { stopped = true }
            return !stopped
        }
        let outputFile = self.outputFile
        let members = self.members
        if first { child.signalGroup(SIGTERM) }
        let child = self.child
        Task.detached {
            if (try? await child.exited(timeout: .seconds(5))) == nil
                || !GPSFake.stillIn(members, group: child.pid).isEmpty
            {
                child.signalGroup(SIGKILL)
                for member in GPSFake.stillIn(members, group: child.pid) { _ = kill(member, SIGKILL) }
            }
            try? FileManager.default.removeItem(at: outputFile)
        }
    }

    /// Whether gpsfake itself still runs (it exits after `linger` when playing once).
    public var isRunning: Bool { child.isRunning }

    /// Waits for gpsfake's exit (an event: the thread reaping it resumes the wait) and returns
    /// its exit code; ``DeadlineExceeded`` after `timeout`.
    @discardableResult
    public func exited(timeout: Duration = .seconds(180)) async throws -> Int32 {
        try await child.exited(timeout: timeout)
    }

    /// What gpsfake and gpsd wrote so far.
    public var output: String { child.output.rawText }

    /// The gpsd processes gpsfake spawned (live members of its process group but itself).
    public var gpsdProcesses: [pid_t] {
        GPSFake.processes(inGroup: pid).filter { $0 != pid }
    }

    /// Stops gpsfake and its gpsd and waits (bounded, 10 s) until both are gone, so a new
    /// instance can take the same port. Idempotent. It waits, without blocking a thread, on the
    /// events "gpsfake reaped" (gpsfake itself reaps gpsd before it exits) and "output ended"
    /// (gpsd held it too).
    public func stopAndWait() async {
        let first = lock.withLock {
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        let members = self.members
        func signalAll(_ signal: Int32) { self.signalAll(signal, members: members) }
        func gone(within timeout: Duration) async -> Bool {
            guard (try? await child.exited(timeout: timeout)) != nil else { return false }
            return (try? await child.output.waitForEnd("the end of gpsfake's and gpsd's output", timeout: timeout))
                != nil
        }
        signalAll(SIGTERM)  // gpsfake's handler terminates its gpsd too
        if await !gone(within: .seconds(5)) {
            signalAll(SIGKILL)
            _ = await gone(within: .seconds(5))
        }
        try? FileManager.default.removeItem(atPath: "/tmp/gpsfake-\(pid).sock")  // if gpsd was killed
    }

    /// gpsfake's gpsd (the rest of its group), read while gpsfake is unreaped: its group id
    /// is its own then. Empty once it has been reaped. gpsfake itself is not among them: it is
    /// signalled through ``ChildProcess``, never by a pid that may have been reused.
    private var members: [pid_t] {
        child.whileUnreaped { GPSFake.processes(inGroup: pid).filter { $0 != pid } } ?? []
    }

    /// Those of `members` alive and still in `group`.
    private static func stillIn(_ members: [pid_t], group: pid_t) -> [pid_t] {
        let current = Set(processes(inGroup: group))
        return members.filter(current.contains)
    }

    /// Signals gpsfake's group while gpsfake is unreaped (see ``ChildProcess/signalGroup(_:)``),
    /// and each of `members` still alive in it (gpsd, should gpsfake be gone).
    private func signalAll(_ signal: Int32, members: [pid_t]) {
        child.signalGroup(signal)
        for member in GPSFake.stillIn(members, group: pid) { _ = kill(member, signal) }
    }

    // MARK: - Helpers

    /// A TCP port that was free a moment ago: bind 127.0.0.1:0, read the port, close.
    public static func freePort() throws -> Int {
        let (fd, port) = try LoopbackTCP.bind()
        close(fd)
        return port
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
