import Foundation
import Testing
import WundercastFormats
import WundercastPOSIX
import WundercastTestSupport

/// The built `wundercastctl` when the daemon is down, stuck, or restarts under a `watch`.
@Suite final class CtlConnectionProcessTests {
    let socket: TemporarySocketPath
    var path: String { socket.path }
    var directory: String { socket.directory }

    init() throws { socket = try TemporarySocketPath() }

    func ctl(_ arguments: [String]) async throws -> ProcessResult {
        // The safety net kills it after 30 s (a busy machine may start a process slowly): a run
        // that does not end by itself within its --timeout fails the status checks (137), it
        // never hangs the suite.
        try await runProcess(try Binaries.path("wundercastctl"), ["--socket", path] + arguments, timeout: .seconds(30))
    }

    /// Started with stdout closed (`>&-`): the socket must not take descriptor 1, or the weather
    /// line would be written into it as a request. `now` writes to /dev/null and exits 0; `watch`
    /// has no reader at all and ends at once.
    @Test func withStdoutClosedNothingIsWrittenToTheDaemon() async throws {
        let line = SampleStates.line(SampleStates.weather(code: 0))
        let daemon = try FakeDaemon(path: path) { _ in .lines([line]) }
        defer { daemon.stop() }
        let ctl = try Binaries.path("wundercastctl")
        for command in ["now", "watch"] {
            let result = try await runProcess(
                "/bin/sh", ["-c", "exec \"$0\" --socket \"$1\" \"$2\" >&-", ctl, path, command],
                timeout: .seconds(30))
            #expect(result.status == 0, "\(command): \(result.stderr)")
            #expect(result.stderr.isEmpty, "\(command): \(result.stderr)")
        }
        #expect(daemon.requests.value == ["now"], "\(daemon.requests.value)")
    }

    /// A daemon that accepts and never answers: `now` ends within its `--timeout`, plain with
    /// status 1 and the reason, bars with an offline line and status 0.
    @Test func nowEndsWithinTheTimeoutAgainstADaemonThatNeverAnswers() async throws {
        let stuck = try FakeDaemon(path: path) { _ in .silent }
        defer { stuck.stop() }
        let plain = try await ctl(["now", "--timeout", "1s"])
        #expect(plain.status == 1)
        #expect(plain.stderr.contains("no answer from wundercastd"), "\(plain.stderr)")
        #expect(plain.stderr.contains("within 1s"), "\(plain.stderr)")
        #expect(plain.stdout.isEmpty)
        let bar = try await ctl(["now", "--timeout", "300ms", "--format", "waybar"])
        #expect(bar.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(bar.stdout.utf8)) as? [String: Any])
        #expect(object["class"] as? [String] == ["daemon-offline"])
        #expect(object["text"] as? String == "⚠ wundercast offline")
        #expect(stuck.requests.value == ["now", "now"])
    }

    /// A daemon that never accepts, its connection queue full (a listening socket nobody
    /// accepts on, backlog 0, filled by the test): the connect itself has the deadline of the
    /// reads (`--timeout`), so `now` ends within it with status 1 and the reason.
    @Test func nowEndsWithinTheTimeoutAgainstADaemonThatNeverAccepts() async throws {
        let listener = try UnixSocket.listen(path: path, backlog: 0)
        defer { try? Descriptor.close(listener) }
        var queued: [DeadlineSocket] = []
        defer { withExtendedLifetime(queued) {} }
        // Connections nobody accepts, until the queue is full (Linux queues backlog + 1).
        while queued.count < 64, let socket = try? DeadlineSocket(connectingTo: path, deadline: .now) {
            queued.append(socket)
        }
        #expect(queued.count < 64, "the queue never filled")
        let plain = try await ctl(["now", "--timeout", "300ms"])
        #expect(plain.status == 1)
        #expect(plain.stderr.contains("within 300ms (its connection queue is full)"), "\(plain.stderr)")
        #expect(plain.stdout.isEmpty)
    }

    @Test(arguments: OutputFormat.allCases)
    func withoutADaemonBarsPrintAnOfflineLineAndPlainExits1(_ format: OutputFormat) async throws {
        let result = try await ctl(["now", "--format", format.rawValue])
        switch format {
        case .plain, .json:
            #expect(result.stderr.contains("wundercastd is not running"), "\(result.stderr)")
            #expect(result.status == 1)
            #expect(result.stdout.isEmpty)
        default:
            // Nothing on stderr, which a bar may show in the widget's place (polybar 3.6 does).
            #expect(result.stderr.isEmpty, "\(result.stderr)")
            #expect(result.status == 0)
            #expect(result.stdout.contains("wundercast offline"), "\(result.stdout)")
            let hidden = try await ctl(["now", "--format", format.rawValue, "--hide-offline"])
            #expect(hidden.status == 0)
            #expect(!hidden.stdout.contains("wundercast offline"), "\(hidden.stdout)")
        }
    }

    @Test func hideOfflineGivesPolybarAnEmptyLine() async throws {
        let result = try await ctl(["now", "--format", "polybar", "--hide-offline"])
        #expect(result.stdout == "\n")
        let noWeather = try FakeDaemon(path: path) { _ in
            .lines([SampleStates.line(SampleStates.withoutWeather(.noLocation))])
        }
        defer { noWeather.stop() }
        #expect(try await ctl(["now", "--format", "polybar", "--hide-offline"]).stdout == "\n")
        #expect(try await ctl(["now", "--format", "polybar"]).stdout == "⚠ no location\n")
    }

    /// `version` with the daemon down still says this program's version (and exits 1).
    @Test func versionWithoutADaemonGivesTheClientsVersion() async throws {
        let result = try await ctl(["version"])
        #expect(result.status == 1)
        #expect(
            result.stdout.hasPrefix("wundercastctl ") && result.stdout.contains("wundercastd unknown"),
            "\(result.stdout)")
        #expect(result.stderr.contains("wundercastd is not running"), "\(result.stderr)")
    }

    /// `watch` in a bar format: lines arrive as they are pushed (flushed), an offline line when
    /// the daemon goes away, and the stream resumes by itself when a daemon comes back on the
    /// same path.
    @Test func watchReconnectsWhenTheDaemonGoesAwayAndComesBack() async throws {
        let first = try FakeDaemon(path: path) { request in
            request.hasPrefix("watch") ? .lines([SampleStates.line(SampleStates.weather(code: 0))]) : .close
        }
        let log = directory + "/watch.log"
        let watch = try ChildProcess(
            [
                try Binaries.path("wundercastctl"), "--socket", path, "watch", "weather", "every", "60s", "--format",
                "waybar", "--log", log,
            ],
            separateStderr: true)
        defer { watch.signalGroup(SIGKILL) }
        try await watch.output.waitFor(containing: "Clear sky")
        #expect(first.requests.value == ["watch weather every 60s"])
        first.push(SampleStates.line(SampleStates.weather(code: 61)))
        try await watch.output.waitFor(containing: "Slight rain")

        first.stop()
        try await watch.output.waitFor(containing: "wundercast offline")

        let second = try FakeDaemon(path: path) { request in
            request.hasPrefix("watch") ? .lines([SampleStates.line(SampleStates.weather(code: 3))]) : .close
        }
        defer { second.stop() }
        try await watch.output.waitFor(containing: "Overcast", timeout: .seconds(30))
        #expect(watch.isRunning)
        for line in watch.output.lines {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(object?["text"] is String, "every line is a waybar object: \(line)")
        }
        let offline = watch.output.lines.filter { $0.contains("offline") }
        #expect(offline.count == 1, "one offline line per outage: \(watch.output.lines)")
        // A bar may show stderr in the widget's place (polybar does): nothing there, the retries
        // in --log's file.
        #expect(watch.errorOutput.rawText.isEmpty, "\(watch.errorOutput.rawText)")
        let logged = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        #expect(logged.contains("trying again in"), "\(logged)")
    }

    /// A state change that the format does not show (the alerts' fetch time, in a waybar line)
    /// prints nothing: one line per visible change.
    @Test func watchPrintsOnlyVisibleChanges() async throws {
        let clear = SampleStates.line(SampleStates.weather(code: 0))
        let daemon = try FakeDaemon(path: path) { _ in .lines([clear, clear]) }
        defer { daemon.stop() }
        let watch = try ChildProcess(
            [try Binaries.path("wundercastctl"), "--socket", path, "watch", "--format", "waybar"], separateStderr: true)
        defer { watch.signalGroup(SIGKILL) }
        try await watch.output.waitFor(containing: "Clear sky")
        daemon.push(SampleStates.line(SampleStates.weather(code: 3)))
        try await watch.output.waitFor(containing: "Overcast")
        #expect(watch.output.lines.count == 2, "\(watch.output.lines)")
    }

    /// The bar that reads `watch` goes away (its pipe's reader closes: `head` has its one line):
    /// `watch` ends at once — while the daemon is silent, and while it is down — not at its
    /// next line hours later (orphans under PID 1 otherwise).
    @Test(arguments: [true, false])
    func watchEndsWhenItsReaderIsGone(daemonUp: Bool) async throws {
        let daemon =
            daemonUp
            ? try FakeDaemon(path: path) { _ in .lines([SampleStates.line(SampleStates.weather(code: 0))]) } : nil
        defer { daemon?.stop() }
        let ctl = try Binaries.path("wundercastctl")
        let shell = try ChildProcess(
            ["/bin/sh", "-c", "'\(ctl)' --socket '\(path)' watch --format waybar | head -n 1"], separateStderr: true)
        defer { shell.signalGroup(SIGKILL) }
        try await shell.output.waitFor(containing: daemonUp ? "Clear sky" : "wundercast offline")
        // head exits after its line; the pipeline ends only once watch has ended too.
        #expect(try await shell.exited(timeout: .seconds(20)) == 0, "watch outlived its reader")
    }

    /// The i3bar stream keeps its one header across a reconnect.
    @Test func watchInI3barWritesTheHeaderOnce() async throws {
        let watch = try ChildProcess(
            [try Binaries.path("wundercastctl"), "--socket", path, "watch", "--format", "i3bar"], separateStderr: true)
        defer { watch.signalGroup(SIGKILL) }
        try await watch.output.waitFor(containing: "wundercast offline")
        let daemon = try FakeDaemon(path: path) { _ in .lines([SampleStates.line(SampleStates.weather(code: 3))]) }
        defer { daemon.stop() }
        try await watch.output.waitFor(containing: "Overcast", timeout: .seconds(30))
        let lines = watch.output.lines
        #expect(lines.first == #"{"version":1}"#)
        #expect(lines.filter { $0.contains("version") }.count == 1)
        #expect(lines[1] == "[")
        #expect(lines.dropFirst(2).allSatisfy { $0.hasPrefix("[{") && $0.hasSuffix("}],") })
    }
}
