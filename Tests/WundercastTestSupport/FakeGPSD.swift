import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A broken gpsd (`Tests/Tools/fake_gpsd.py`) on 127.0.0.1: every connection gets gpsd's VERSION
/// banner, then one line of `lineBytes` bytes (40 KB by default, far over libgps's buffer and
/// gpsd's 9,216-byte maximum report) — or the given `lines`, or the bytes of a `reports` file — then is closed.
///
/// The listening socket is bound and listening *before* the script starts (it inherits the
/// descriptor), so a client can connect at once, with no start-up race. ``stop()`` (and
/// `deinit`) kill the script; it also gets SIGTERM when the test process dies.
public final class FakeGPSD: @unchecked Sendable {
    public struct StartError: Error, CustomStringConvertible {
        public var description: String
    }

    /// The TCP port on 127.0.0.1.
    public let port: Int
    /// The script's pid (and process group).
    public let pid: pid_t
    /// The script's stdout and stderr: a `connection N` line per accepted connection.
    public let outputFile: URL

    private let lock = NSLock()
    private var stopped = false

    /// A gpsd that sends one line of `lineBytes` bytes on every connection.
    public convenience init(lineBytes: Int = 40 * 1024) throws {
        try self.init(arguments: ["--line-bytes", String(lineBytes)])
    }

    /// A gpsd that sends `lines` on every connection (`{time}` in a line becomes a new second
    /// each time it is sent: a new epoch). Connection number `holdConnection` (1-based) instead
    /// repeats its last line every 0.1 s until ``releaseHeldConnection()``.
    public convenience init(lines: [String], holdConnection: Int? = nil) throws {
        try self.init(
            arguments: lines.flatMap { ["--line", $0] }
                + (holdConnection.map { ["--hold-connection", String($0)] } ?? []))
    }

    /// A gpsd that sends `tpv` (one JSON object) every `interval` seconds on each connection,
    /// until the client closes: a stationary receiver.
    public convenience init(tpv: String, interval: Double) throws {
        try self.init(arguments: ["--tpv", tpv, "--interval", String(interval)])
    }

    /// A gpsd that sends the bytes of the file `reports` instead of the long line, after which
    /// the connection stays open until the client closes it.
    public convenience init(reports: URL) throws {
        try self.init(arguments: ["--reports", reports.path])
    }

    private init(arguments: [String]) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw StartError(description: "socket: \(String(cString: strerror(errno)))") }
        defer { close(fd) }  // the script holds its own copy
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let listening = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0 && listen(fd, 16) == 0
            }
        }
        guard listening else {
            throw StartError(description: "listen on 127.0.0.1:0: \(String(cString: strerror(errno)))")
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        outputFile = FileManager.default.temporaryDirectory
            .appendingPathComponent("fake-gpsd-\(port)-\(UUID().uuidString).log")
        // Children get only descriptors 0–2 (Spawn): the listening socket goes in as stdin.
        pid = try Spawn.process(
            [
                "/usr/bin/python3", "-u", Fixtures.tools.appendingPathComponent("fake_gpsd.py").path,
                "--fd", "0",
            ] + arguments, output: outputFile.path, stdin: fd)
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: outputFile)
    }

    /// What the script wrote so far.
    public var output: String { (try? String(contentsOf: outputFile, encoding: .utf8)) ?? "" }

    /// Connections the script accepted so far (its `connection N` lines).
    public var connections: Int { output.split(separator: "\n").count { $0.hasPrefix("connection ") } }

    /// Connections held open so far that ended (their `held N` lines).
    public var heldConnectionsEnded: Int { output.split(separator: "\n").count { $0.hasPrefix("held ") } }

    /// Ends the held connection (SIGUSR1): the script closes it after its current line.
    public func releaseHeldConnection() {
        _ = kill(pid, SIGUSR1)
    }

    /// Kills the script and reaps it. Idempotent.
    public func stop() {
        let first = lock.withLock {
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        _ = kill(pid, SIGKILL)
        var status: Int32 = 0
        _ = waitpid(pid, &status, 0)
    }
}
