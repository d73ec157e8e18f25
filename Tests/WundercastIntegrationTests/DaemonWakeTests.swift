import Foundation
import Testing
import WundercastPOSIX
import WundercastTestSupport

/// Issue 8, points 2 and 4, with the real daemon: the network's return ends a back-off at
/// once (a network namespace whose loopback goes down and up: real rtnetlink messages), and
/// `WATCHDOG=1` comes at half the interval and stops once the pipeline is wedged on purpose.
@Suite struct DaemonWakeTests {
    /// Whether this machine lets the test make a network namespace (CI runs as root).
    static let namespacesWork: Bool = {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        process.arguments = ["-rn", "/bin/true"]
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/nsenter")
    }()

    static func configuration(
        _ url: String, minInterval: String = "1s", maxAge: String = "1h", timeout: String = "2s"
    ) -> String {
        """
        [Location]
        Authorization=denied
        Fallback=44.44,26.13
        [Throttle]
        MinInterval=\(minInterval)
        MaxAge=\(maxAge)
        [Weather]
        URL=\(url)
        Timeout=\(timeout)
        """
    }

    /// The daemon in the server's network namespace, whose loopback is down: the first fetch
    /// fails (network) and backs off 2 min (the debug hook's first step). The loopback comes up
    /// (rtnetlink: link up, addresses, routes): the fetch is retried at once and the weather
    /// arrives long before the back-off would end; "network back" is logged once.
    @Test(.enabled(if: namespacesWork, "needs unshare -rn (user and network namespaces) and nsenter"))
    func theNetworksReturnEndsTheBackoff() async throws {
        let http = try await PythonFixtureHTTPServer(launcher: [
            "/usr/bin/unshare", "-rn", "/bin/sh", "-c", "ip link set lo up && exec \"$0\" \"$@\"",
        ])
        let inNamespace = ["/usr/bin/nsenter", "-t", "\(http.pid)", "-U", "-n", "--preserve-credentials", "--"]
        func ip(_ arguments: String...) async throws {
            let result = try await runProcess(inNamespace[0], Array(inNamespace.dropFirst()) + ["ip"] + arguments)
            try #require(result.status == 0, "ip \(arguments): \(result.stderr)")
        }
        try await ip("link", "set", "lo", "down")
        let daemon = try await DaemonProcess(
            configuration: Self.configuration(http.baseURL), environment: ["WUNDERCAST_TEST_BACKOFF": "120"],
            launcher: inNamespace)
        let offline = try await daemon.waitForState("offline") { $0["status"] as? String == "offline" }
        let code = (offline["error"] as? [String: Any])?["code"] as? String
        #expect(code.map(["timeout", "connect"].contains) == true, "a network failure: \(offline)")
        try await daemon.output.waitFor(containing: "retry in 120.0 seconds")
        #expect(try http.requests().isEmpty, "the request never got through")

        let cameBack = ContinuousClock.now
        try await ip("link", "set", "lo", "up")
        let fresh = try await daemon.waitForState(timeout: .seconds(60), "fresh weather") {
            $0["status"] as? String == "fresh"
        }
        #expect(ContinuousClock.now - cameBack < .seconds(60), "well before the 2 min back-off")
        #expect(fresh[path: "weather.temperature"] != nil)
        #expect(daemon.output.lines.filter { $0.contains("network back (") }.count == 1, "\(daemon.log)")
        #expect(try http.requests().filter { $0.path == "/v1/forecast" }.count == 1)
        #expect(await daemon.stop() == 0)
    }
}

extension DaemonWakeTests {
    /// A stand-in for logind on a private D-Bus broker: `PrepareForSleep(true)` does nothing,
    /// `PrepareForSleep(false)` refetches the weather and is logged once; the same signal from
    /// a connection that is not `org.freedesktop.login1` is not listened to, and logind's own
    /// is believed only when the clocks show the time asleep (the test hook adds 1 h to
    /// `CLOCK_BOOTTIME − CLOCK_MONOTONIC`).
    @Test(.enabled(if: PrivateBus.available, "needs dbus-daemon (Debian's dbus)"))
    func logindsResumeRefetches() async throws {
        let http = try await FixtureHTTPServer()
        let bus = try await PrivateBus()
        let slept = URL(fileURLWithPath: try DatagramSocket.temporaryDirectory()).appendingPathComponent("slept")
        defer { try? FileManager.default.removeItem(at: slept.deletingLastPathComponent()) }
        let daemon = try await DaemonProcess(
            configuration: Self.configuration(http.baseURL),
            environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.address, "WUNDERCAST_TEST_SLEPT_FILE": slept.path])
        try await daemon.output.waitFor(containing: "watching logind's PrepareForSleep")
        try await daemon.waitForState("fresh") { $0["status"] as? String == "fresh" }
        #expect(try await http.waitForRequests(count: 1).count == 1)

        try LogindStandIn(address: bus.address, ownsName: false).prepareForSleep(false)
        let logind = try LogindStandIn(address: bus.address)
        try logind.prepareForSleep(true)
        try await daemon.output.waitFor(containing: "logind: the machine is going to sleep")
        try logind.prepareForSleep(false)
        try await daemon.output.waitFor(containing: "logind: a resume the clocks do not show")
        try "3600\n".write(to: slept, atomically: true, encoding: .utf8)
        try logind.prepareForSleep(false)
        try await daemon.output.waitFor(containing: "resumed from suspend (logind")
        #expect(try await http.waitForRequests(count: 2).count == 2)
        #expect(daemon.output.lines.filter { $0.contains("resumed from suspend") }.count == 1, "\(daemon.log)")
        #expect(await daemon.stop() == 0)
    }

    /// A system bus that accepts the connection and never answers (a listening socket nobody
    /// reads: the kernel queues the connection and the daemon's first messages). The
    /// subscription used to wait there for the broker (~90 s) on the socket server's loop;
    /// now `now` is answered right after READY=1, and after 5 s without a confirmation the
    /// clocks tell resumes. The daemon stops at once too.
    @Test func aSilentSystemBusHoldsNothingUp() async throws {
        let http = try await FixtureHTTPServer()
        let directory = try DatagramSocket.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let listener = try UnixSocket.listen(path: "\(directory)/bus")
        defer { try? Descriptor.close(listener) }
        let daemon = try await DaemonProcess(
            configuration: Self.configuration(http.baseURL),
            environment: ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=\(directory)/bus"])
        let asked = ContinuousClock.now
        let now = try await daemon.now()
        #expect(now["status"] != nil, "\(now)")
        // The regression this guards is a loop blocked for sd-bus's default 90 s: the bound
        // stays far from it, and far above what a loaded machine takes to start a client.
        #expect(ContinuousClock.now - asked < .seconds(60), "answered long before sd-bus's 90 s")
        try await daemon.output.waitFor(containing: "did not confirm the subscription")
        #expect(!daemon.output.lines.contains { $0.contains("watching logind's PrepareForSleep") })
        let stopping = ContinuousClock.now
        #expect(await daemon.stop() == 0)
        #expect(ContinuousClock.now - stopping < .seconds(60), "long before sd-bus's 90 s: \(daemon.log)")
    }
}
