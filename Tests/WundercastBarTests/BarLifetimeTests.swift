import Foundation
import Testing
import WundercastTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// No `wundercastctl watch` outlives its bar (issue 18, item 2), with each snippet's real
/// command line in a real waybar and a real polybar, the bar killed with SIGTERM and with
/// SIGKILL. The output's hang-up cannot tell here: another module of the same bar, started
/// after ours, holds the read end of our module's pipe (waybar 0.9.17's and polybar 3.6's pipes
/// are not close-on-exec, so every child started later inherits them; this one stays, as a
/// script that writes rarely would). What ends the watch is the signal its parent's end sends
/// (`PR_SET_PDEATHSIG`), the parent being the bar itself thanks to the snippet's `exec`.
///
/// Each bar runs beside the first process of a PID namespace of its own, so that it can be
/// killed alone and what it leaves behind stays there to be found (and is killed with it at
/// the end).
extension RealBarTests {
    /// A daemon that refuses every `watch` (the watch retries, which a daemon that is down
    /// makes it do forever), and the module that starts once our watch asked it (the file
    /// `watch-connected`), saying so by a file `other-started`.
    struct Sibling {
        let daemon: FakeDaemon
        let execIf: String
        let exec: String
        let started: String

        init(in dir: ScratchDirectory) throws {
            let connected = dir.file("watch-connected")
            daemon = try FakeDaemon(path: dir.file("refusing.sock")) { _ in
                _ = FileManager.default.createFile(atPath: connected, contents: nil)
                return .close
            }
            execIf = "test -e \(connected)"
            started = dir.file("other-started")
            exec = "touch \(started); sleep 600"
        }

        func waitUntilStarted(in dir: ScratchDirectory) async throws {
            _ = try await waitForFile(in: dir.path, "the other module started") { $0 == "other-started" }
        }
    }

    /// Kills the process named `bar` in `contained`'s namespace with `signal`, and expects every
    /// `wundercastctl` there (at least one) to end within 15 s.
    static func expectNoWatchOutlives(_ bar: String, in contained: Contained, signal: Int32) async throws {
        let namespace = try contained.namespace()
        let watches = namespace.processes(named: "wundercastctl")
        #expect(!watches.isEmpty, "the bar's watch runs")
        let barProcess = try #require(namespace.processes(named: bar).first, "\(bar) runs")
        #expect(kill(barProcess, signal) == 0)
        for watch in watches {
            #expect(try await processEnded(watch, within: .seconds(15)), "wundercastctl \(watch) outlived \(bar)")
        }
        #expect(namespace.processes(named: "wundercastctl").isEmpty)
    }

    /// `kind` with its snippet and the other module, killed with `signal`.
    static func expectNoWatchOutlives(_ kind: SnippetBar.Kind, killedWith signal: Int32) async throws {
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        let sibling = try Sibling(in: dir)
        defer { sibling.daemon.stop() }
        let bar = try await SnippetBar.start(
            kind, socket: sibling.daemon.path, in: dir, with: .script(execIf: sibling.execIf, exec: sibling.exec),
            killableAlone: true)
        defer { bar.stop() }

        try await sibling.waitUntilStarted(in: dir)
        try await Self.expectNoWatchOutlives(kind.rawValue, in: bar.bar, signal: signal)
    }

    @Test(.enabled(if: waybarRuns, waybarMissing), arguments: [SIGTERM, SIGKILL])
    func noWatchOutlivesWaybar(_ signal: Int32) async throws {
        try await Self.expectNoWatchOutlives(.waybar, killedWith: signal)
    }

    @Test(.enabled(if: polybarRuns, polybarMissing), arguments: [SIGTERM, SIGKILL])
    func noWatchOutlivesPolybar(_ signal: Int32) async throws {
        try await Self.expectNoWatchOutlives(.polybar, killedWith: signal)
    }
}
