import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A running `gpsfake` (and the `gpsd` it spawns) replaying an NMEA log on a private TCP port.
///
/// Starts `gpsfake -q -P <port> -c <cycle> [-1] [-W <linger>] <log>`. Without `-P` gpsfake
/// takes 2947 and collides with a real gpsd (PITFALLS, gpsfake). ``start(log:cycle:once:linger:port:readyTimeout:)``
/// returns once gpsd accepts TCP connections and lists gpsfake's device (gpsfake can lose its
/// add: ``deviceTimeout``), or throws after `readyTimeout`.
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
/// readiness is the one retried check here: `?DEVICES;` over TCP, asked again while waiting (20 ms
/// at a time) for gpsfake's exit event, until gpsd lists the device. ``start(log:cycle:once:linger:port:readyTimeout:)`` does
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
    ///   - readyTimeout: how long to wait for gpsd to accept connections and list the device.
    public static func start(
        log: URL, cycle: Double = 0.1, once: Bool = false, linger: Int? = nil, port: Int? = nil,
        readyTimeout: Duration = .seconds(30)
    ) async throws -> GPSFake {
        let deadline = ContinuousClock.now + readyTimeout
        var lost: [String] = []
        while true {
            let fake = try GPSFake(spawning: log, cycle: cycle, once: once, linger: linger, port: port)
            if try await fake.hasDevice(
                before: min(deadline, ContinuousClock.now + deviceTimeout), readyBy: deadline,
                readyTimeout: readyTimeout)
            {
                return fake
            }
            // gpsfake's add was lost (``deviceTimeout``), or gpsfake ended before gpsd listed
            // its device (with `once`, a lost add ends it after the log and `linger`): start
            // over, on the same port when one was given.
            lost.append(fake.child.exitCode.map { "exited (\($0)): \(fake.output)" } ?? fake.output)
            await fake.stopAndWait()
            guard ContinuousClock.now < deadline, lost.count < 3 else {
                throw StartError(
                    description:
                        "gpsd on port \(fake.port) never listed gpsfake's device (\(lost.count) tries): \(lost)")
            }
        }
    }

    /// How long gpsd may listen without listing gpsfake's device before gpsfake is started again.
    /// gpsfake waits only for its control socket's *file* (`fake.py` `wait_ready`), and its
    /// `add_device` does nothing, silently, when connecting to that socket fails — as it does
    /// between gpsd's `bind` and `listen` of it. Such a gpsd accepts clients and never sends a
    /// fix (seen once in CI, on a loaded machine: `reconnectsWhenGpsdRestartsOnTheSamePort`
    /// connected and waited 30 s in silence). Normally the device is listed within a second.
    static let deviceTimeout: Duration = .seconds(10)

    /// Waits until gpsd accepts connections and its `?DEVICES;` lists a device (gpsfake added its
    /// pseudo-terminal): `true`; `false` when it has none by `deadline` or gpsfake exits first
    /// (seen under load in CI: `gpsfake -1 -W 3` played its 1.6 s log into a device gpsd never
    /// opened, and exited). Throws when `readyTimeout` passed, or when the task is cancelled. No thread waits: the probe's
    /// socket is non-blocking and each retry waits 20 ms for gpsfake's exit event.
    private func hasDevice(
        before deadline: ContinuousClock.Instant, readyBy: ContinuousClock.Instant, readyTimeout: Duration
    ) async throws -> Bool {
        var probe: DevicesProbe?
        defer { probe?.close() }
        while true {
            if probe == nil { probe = DevicesProbe(port: port) }
            switch probe?.answer() {
            case .some(.listsDevice): return true
            case .some(.noDevice), .some(.failed): probe?.close(); probe = nil  // ask again
            case .some(.waiting), nil: break
            }
            if child.exitCode != nil { return false }
            try checkStarting(deadline: readyBy, readyTimeout: readyTimeout)
            if ContinuousClock.now >= deadline { return false }
            _ = try? await child.exited(timeout: .milliseconds(20))  // ends early when gpsfake exits
            try Task.checkCancellation()
        }
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

/// One `?DEVICES;` asked of gpsd over a non-blocking loopback connection (``GPSFake``'s readiness).
struct DevicesProbe {
    enum Answer { case waiting, listsDevice, noDevice, failed }

    private var fd: Int32
    private var received: [UInt8] = []

    /// Connects to 127.0.0.1:`port` and asks.
    init(port: Int) {
        fd = LoopbackTCP.connect(port: port) ?? -1
        let request = Array("?DEVICES;\n".utf8)
        guard fd >= 0, send(fd, request, request.count, Int32(MSG_NOSIGNAL)) == request.count else {
            close()
            return
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    /// What gpsd answered so far: its `DEVICES` line lists a device, lists none, has not come
    /// yet, or the connection failed.
    mutating func answer() -> Answer {
        guard fd >= 0 else { return .failed }
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count > 0 {
                received += buffer[..<count]
                continue
            }
            if count < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { break }
            return .failed  // closed or an error, without the answer
        }
        let text = String(decoding: received, as: UTF8.self)
        guard let line = text.split(separator: "\n").first(where: { $0.contains(#""class":"DEVICES""#) }) else {
            return .waiting
        }
        return line.contains(#""path":"#) ? .listsDevice : .noDevice
    }

    mutating func close() {
        if fd >= 0 { _ = Glibc.close(fd) }
        fd = -1
    }
}
