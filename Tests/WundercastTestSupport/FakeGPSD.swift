import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A broken or scripted gpsd (`Tests/Tools/fake_gpsd.py`) on 127.0.0.1. Made with
/// ``init(lineBytes:)``, every connection gets gpsd's VERSION banner, then one line of `lineBytes`
/// bytes (40 KB by default, far over libgps's buffer and gpsd's 9,216-byte maximum report), then
/// is closed. Made with ``init(script:)``, every connection plays the ``GPSDStep``s of the script
/// in force when it was accepted; ``play(_:)`` changes the script (ending open connections) and
/// ``fixes`` are the valid TPVs it has sent. The other initialisers play fixed lines
/// (``init(lines:holdConnection:)``), a stationary receiver (``init(tpv:interval:)``) or a
/// file's bytes (``init(reports:)``).
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
    /// The script's stdout and stderr, line by line as they arrive (a pipe): a `connection N`
    /// line per accepted connection (``connectionsReach(_:timeout:)`` awaits one).
    public let outputLog = OutputLog()

    private let lock = NSLock()
    private var stopped = false

    /// The script file of ``init(script:banner:)`` (`nil`: the junk-line gpsd).
    private let scriptFile: URL?

    public convenience init(lineBytes: Int = 40 * 1024) throws {
        try self.init(arguments: ["--line-bytes", String(lineBytes)], scriptFile: nil)
    }

    /// A gpsd that sends `lines` on every connection (`{time}` in a line becomes a new second
    /// each time it is sent: a new epoch). Connection number `holdConnection` (1-based) instead
    /// repeats its last line every 0.1 s until ``releaseHeldConnection()``.
    public convenience init(lines: [String], holdConnection: Int? = nil) throws {
        try self.init(
            arguments: lines.flatMap { ["--line", $0] }
                + (holdConnection.map { ["--hold-connection", String($0)] } ?? []), scriptFile: nil)
    }

    /// A gpsd that sends `tpv` (one JSON object) every `interval` seconds on each connection,
    /// until the client closes: a stationary receiver.
    public convenience init(tpv: String, interval: Double) throws {
        try self.init(arguments: ["--tpv", tpv, "--interval", String(interval)], scriptFile: nil)
    }

    /// A gpsd that sends the bytes of the file `reports` instead of the long line, after which
    /// the connection stays open until the client closes it.
    public convenience init(reports: URL) throws {
        try self.init(arguments: ["--reports", reports.path], scriptFile: nil)
    }

    /// A gpsd whose every connection plays `script` (after the VERSION banner, unless `banner`
    /// is false) and then closes; see ``GPSDStep``.
    public convenience init(script: [GPSDStep], banner: Bool = true) throws {
        let file = FileManager.default.temporaryDirectory
            .appendingPathComponent("fake-gpsd-script-\(UUID().uuidString).json")
        try GPSDStep.write(script, banner: banner, to: file)
        try self.init(arguments: ["--script", file.path], scriptFile: file)
    }

    /// Replaces the script (written atomically): connections open now close at their next
    /// step, and every later connection plays `script`.
    public func play(_ script: [GPSDStep], banner: Bool = true) throws {
        guard let scriptFile else { throw StartError(description: "a junk-line FakeGPSD has no script") }
        try GPSDStep.write(script, banner: banner, to: scriptFile)
    }

    /// One valid TPV the script sent (a `.fix` step): what gpsd reported, and when.
    public struct SentFix: Sendable, Equatable {
        public var latitude: Double
        public var longitude: Double
        /// Wall-clock time it was written, seconds since 1970.
        public var sentAt: Double
    }

    /// Every `.fix` step sent so far, oldest first.
    public var fixes: [SentFix] {
        outputLog.lines.compactMap { line in
            let fields = line.split(separator: " ")
            guard fields.count == 4, fields[0] == "fix", let lat = Double(fields[1]), let lon = Double(fields[2]),
                let time = Double(fields[3])
            else { return nil }
            return SentFix(latitude: lat, longitude: lon, sentAt: time)
        }
    }

    /// How many `.fault` steps have been played so far.
    public var faults: Int { outputLog.lines.count { $0.hasPrefix("fault ") } }

    /// Waits until the script has begun its `count`th `.fault` step (its `fault <count>` line);
    /// ``DeadlineExceeded`` after `timeout`, a safety net.
    public func faultsReach(_ count: Int, timeout: Duration = .seconds(60)) async throws {
        try await outputLog.waitFor("fault \(count) at the fake gpsd", timeout: timeout) { $0 == "fault \(count)" }
    }

    private init(arguments: [String], scriptFile: URL?) throws {
        self.scriptFile = scriptFile
        let (fd, port) = try LoopbackTCP.bind(listening: 16)
        defer { close(fd) }  // the script holds its own copy
        self.port = port
        // Children get only descriptors 0–2 (Spawn): the listening socket goes in as stdin.
        let pipe = try PipeDescriptors()
        do {
            pid = try Spawn.process(
                [
                    "/usr/bin/python3", "-u", Fixtures.tools.appendingPathComponent("fake_gpsd.py").path,
                    "--fd", "0",
                ] + arguments, stdin: fd, stdout: pipe.write, stderr: pipe.write)
        } catch {
            close(pipe.read)
            close(pipe.write)
            throw error
        }
        close(pipe.write)
        pipe.readToEnd(into: outputLog, name: "fake gpsd output")
    }

    deinit {
        stop()
        if let scriptFile { try? FileManager.default.removeItem(at: scriptFile) }
    }

    /// What the script wrote so far.
    public var output: String { outputLog.rawText }

    /// Connections the script accepted so far (its `connection N` lines).
    public var connections: Int { outputLog.lines.count { $0.hasPrefix("connection ") } }

    /// Waits until the script has accepted `count` connections (its `connection <count>` line
    /// arrives); ``DeadlineExceeded`` after `timeout`, a safety net.
    public func connectionsReach(_ count: Int, timeout: Duration = .seconds(30)) async throws {
        try await outputLog.waitFor("connection \(count) at the fake gpsd", timeout: timeout) {
            $0 == "connection \(count)"
        }
    }

    /// Ends the held connection of ``init(lines:holdConnection:)`` (SIGUSR1).
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

/// One step of a ``FakeGPSD`` script (see `Tests/Tools/fake_gpsd.py`).
public indirect enum GPSDStep: Sendable {
    /// `text` and CR LF; each `{now}` in it becomes the current UTC time (ISO 8601).
    case line(String)
    /// A 3D TPV with eph 5 m and the current time, at `latitude`, `longitude`: recorded in
    /// ``FakeGPSD/fixes``.
    case fix(latitude: Double, longitude: Double)
    /// One JSON line of `bytes` bytes.
    case junk(bytes: Int)
    /// `text` as it is, no line end.
    case raw(String)
    /// Silence for `seconds` (the fault's pacing, not a test's synchronisation).
    case pause(Double)
    /// `steps` `times` times; `nil`: until the connection ends or the script changes.
    case repeating([GPSDStep], times: Int?)
    /// Silence until the client closes or the script changes.
    case hold
    /// `step`, counted as one fault injected (``FakeGPSD/faults``).
    case fault(GPSDStep)

    /// A receiver at `latitude`, `longitude` reporting a fix every `interval` seconds, forever.
    public static func healthy(latitude: Double, longitude: Double, interval: Double = 1) -> [GPSDStep] {
        [.repeating([.fix(latitude: latitude, longitude: longitude), .pause(interval)], times: nil)]
    }

    var json: Any {
        switch self {
        case .line(let text): ["line": text]
        case .fix(let latitude, let longitude): ["fix": [latitude, longitude]]
        case .junk(let bytes): ["junk": bytes]
        case .raw(let text): ["raw": text]
        case .pause(let seconds): ["pause": seconds]
        case .repeating(let steps, let times):
            times.map { ["repeat": steps.map(\.json), "times": $0] as [String: Any] } ?? ["repeat": steps.map(\.json)]
        case .hold: ["hold": true]
        case .fault(let step):
            (step.json as? [String: Any] ?? [:]).merging(["fault": true]) { $1 }
        }
    }

    static func write(_ steps: [GPSDStep], banner: Bool, to file: URL) throws {
        let data = try JSONSerialization.data(withJSONObject: ["banner": banner, "steps": steps.map(\.json)])
        try data.write(to: file, options: .atomic)
    }
}
