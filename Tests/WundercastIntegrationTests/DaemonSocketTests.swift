import Foundation
import Testing
import WundercastTestSupport

/// The daemon's own wiring of `[Socket]`: the mode of the socket it binds, a missing
/// `PreciseGroup=`, and the limits taken from the configuration.
@Suite struct DaemonSocketTests {
    @Test func theDaemonGivesItsSocketModeAndWarnsOnceAboutAMissingGroup() async throws {
        let daemon = try await DaemonProcess(
            configuration: """
                [Location]
                Authorization=denied
                [Socket]
                Mode=0640
                PreciseGroup=no-such-group-wundercast
                MaxClients=1
                """)
        var info = stat()
        #expect(stat(daemon.socketPath, &info) == 0)
        #expect(UInt32(info.st_mode) & 0o7777 == 0o640)
        // The warning reaches the daemon's output pipe in its own time: wait for it, then count.
        let warning = "PreciseGroup=no-such-group-wundercast: no such group"
        _ = try await daemon.output.waitFor(containing: warning, timeout: .seconds(20))
        #expect(daemon.log.components(separatedBy: warning).count == 2)
        // MaxClients=1: a second connection is refused while the first stays.
        let first = try LineClient(path: daemon.socketPath)
        defer { first.close() }
        first.send("version\n")
        #expect(try jsonObject(await first.readLine())["class"] as? String == "VERSION")
        let second = try LineClient(path: daemon.socketPath)
        defer { second.close() }
        #expect(try jsonObject(await second.readLine())["code"] as? String == "too-many-clients")
    }

    /// Another user's regular file at `[Socket] Path=` is not removed: `--check-config` and the
    /// start refuse, naming the path, and exit 1; so does a start with `--socket` at such a file.
    @Test func aRegularFileAtTheSocketPathIsAnErrorAndStaysAsItWas() async throws {
        let directory = URL(fileURLWithPath: try DatagramSocket.temporaryDirectory())
        defer { try? FileManager.default.removeItem(at: directory) }
        let socket = directory.appendingPathComponent("wundercast.sock").path
        let config = directory.appendingPathComponent("wundercast.conf").path
        try "precious data\n".write(toFile: socket, atomically: false, encoding: .utf8)
        if geteuid() == 0 { #expect(chown(socket, 65534, 65534) == 0) }
        try "[Location]\nAuthorization=denied\n[Socket]\nPath=\(socket)\n".write(
            toFile: config, atomically: true, encoding: .utf8)
        let daemon = try Binaries.path("wundercastd")
        let refusal =
            "Path=\"\(socket)\" is a regular file, not a socket: left in place; remove it or choose another Path="
        let check = try await runProcess(daemon, ["--check-config", "--config", config])
        #expect(check.status == 1)
        #expect(check.stderr == "\(config):4: \(refusal)\n", "\(check.stderr)")
        // A daemon that (wrongly) started is ended after 30 s: a failure, never a hang.
        let start = try await runProcess(daemon, ["--config", config], timeout: .seconds(30))
        #expect(start.status == 1)
        #expect(start.stderr == "wundercastd: \(config):4: \(refusal)\n", "\(start.stderr)")
        // `--socket` names the path on the command line: the bind refuses it the same way.
        let other = directory.appendingPathComponent("other.conf").path
        try "[Location]\nAuthorization=denied\n".write(toFile: other, atomically: true, encoding: .utf8)
        let override = try await runProcess(daemon, ["--config", other, "--socket", socket], timeout: .seconds(30))
        #expect(override.status == 1)
        let lines = override.stderr.split(separator: "\n").filter { $0.contains(socket) }
        #expect(lines.count == 1, "\(override.stderr)")
        #expect(lines.first?.contains("a regular file, not a socket: left in place") == true, "\(override.stderr)")
        #expect(try String(contentsOfFile: socket, encoding: .utf8) == "precious data\n")
    }
}
