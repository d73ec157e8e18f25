import Foundation
import Synchronization
import Testing
import WundercastTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// Issue 8, point 4, with the real daemon and a fake `NOTIFY_SOCKET`: `WATCHDOG=1` at half
/// of `WATCHDOG_USEC` (counted between two observable events: the `STATUS=` of two `MaxAge`
/// refreshes), and none once the weather pipeline is wedged on purpose (the debug hook
/// `WUNDERCAST_TEST_WEDGE=pipeline`: the first `refresh` wedges it), while the socket still answers.
@Suite struct DaemonWatchdogTests {
    /// Sends `text` as one datagram to the socket at `path` (a marker in the notify stream:
    /// datagrams queue in the order they are sent).
    static func send(_ text: String, to path: String) throws {
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        try #require(fd >= 0)
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in path.utf8.prefix(raw.count - 1).enumerated() { raw[i] = byte }
        }
        let sent = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { target in
                Array(text.utf8).withUnsafeBytes {
                    sendto(fd, $0.baseAddress, $0.count, 0, target, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
        }
        try #require(sent == text.utf8.count)
    }

    static func pings(_ messages: ArraySlice<String>) -> Int { messages.filter { $0 == "WATCHDOG=1" }.count }

    @Test func pingsAtHalfTheIntervalAndNoneOnceThePipelineIsWedged() async throws {
        let http = try await FixtureHTTPServer()
        let directory = try DatagramSocket.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let notifyPath = directory + "/notify"
        let notify = try NotifySocket(path: notifyPath)
        defer { notify.close() }
        let daemon = try await DaemonProcess(
            configuration: DaemonWakeTests.configuration(http.baseURL, minInterval: "1s", maxAge: "4s", timeout: "1s"),
            environment: [
                "NOTIFY_SOCKET": notifyPath, "WATCHDOG_USEC": "400000", "WUNDERCAST_TEST_WEDGE": "pipeline",
            ], waitForSocket: false)

        // Cadence: between the STATUS= of two MaxAge refreshes (4 s apart) come about 4 s / 0.2 s pings.
        let refreshed = { @Sendable (line: String) in line.hasPrefix("STATUS=") && line.contains("°C") }
        let seen = Mutex(0)
        _ = try await notify.messages.waitFor("three weather states") { line in
            seen.withLock { count in
                if refreshed(line) { count += 1 }
                return count >= 3
            }
        }
        let lines = notify.messages.lines
        let states = lines.indices.filter { refreshed(lines[$0]) }
        for (a, b) in zip(states, states.dropFirst()).prefix(2) {
            let count = Self.pings(lines[a..<b])
            #expect((8...32).contains(count), "pings between two refreshes 4 s apart: \(count); \(lines)")
        }

        // Wedge the pipeline: the first warning, then three more silent ticks without a ping.
        let refresh = try await daemon.ctl("refresh")
        #expect(refresh.status == 0, "\(refresh.stderr)")
        try await daemon.output.waitFor(containing: "WATCHDOG=1 withheld")
        try Self.send("MARKER=1", to: notifyPath)
        try await notify.messages.waitFor(containing: "MARKER=1")
        try await daemon.output.waitFor(containing: "silent for 4 ticks")
        try Self.send("MARKER=2", to: notifyPath)
        try await notify.messages.waitFor(containing: "MARKER=2")
        let all = notify.messages.lines
        let first = try #require(all.firstIndex(of: "MARKER=1"))
        let second = try #require(all.firstIndex(of: "MARKER=2"))
        #expect(Self.pings(all[first..<second]) == 0, "\(all[first...])")
        #expect(Self.pings(all[..<first]) >= 10)
        // The socket loop still answers: only the pipeline is wedged.
        #expect(try await daemon.now()["class"] as? String == "WEATHER")
        #expect(await daemon.stop() == 0)
    }
}
