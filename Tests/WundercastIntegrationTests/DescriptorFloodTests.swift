import Foundation
import Testing
import WundercastPOSIX
import WundercastTestSupport

/// A flood of connections against a real daemon with a low descriptor limit (`prlimit`): the
/// clients whose descriptor would take one of the reserve (``DescriptorReserve``, the last 8
/// below the limit) are refused with a line naming the limit, the reserve stays free, the
/// daemon's own weather fetches go on, and when descriptors do run out accepting pauses with
/// one log line and resumes by itself.
@Suite struct DescriptorFloodTests {
    /// Sets the daemon's soft descriptor limit; a daemon that has ended is a failure that says
    /// how it ended and what it logged (not prlimit's "No such process").
    private func prlimit(_ daemon: DaemonProcess, _ limit: Int) async throws {
        try #require(daemon.isRunning, "wundercastd ended (\(daemon.exitCode ?? -1)); log:\n\(daemon.log.suffix(3000))")
        let result = try await runProcess("/usr/bin/prlimit", ["--pid", "\(daemon.pid)", "--nofile=\(limit):"])
        #expect(
            result.status == 0,
            "prlimit: \(result.stderr); wundercastd \(daemon.exitCode.map { "ended (\($0))" } ?? "runs"); log:\n\(daemon.log.suffix(3000))"
        )
    }

    /// The descriptors `pid` has open now.
    private func openDescriptors(_ pid: pid_t) throws -> Set<Int> {
        Set(try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").compactMap { Int($0) })
    }

    /// The lowest descriptor number `pid` has free: with that as its limit, it can open none.
    private func lowestFreeDescriptor(_ pid: pid_t) throws -> Int {
        let open = try openDescriptors(pid)
        return (0...).first { !open.contains($0) }!
    }

    private func daemon(_ http: FixtureHTTPServer, maxAge: String) async throws -> DaemonProcess {
        let daemon = try await DaemonProcess(
            configuration: """
                [Location]
                Authorization=denied
                GPSD=127.0.0.1:1
                Fallback=59.9139,10.7522
                [Throttle]
                MinInterval=1s
                MaxAge=\(maxAge)
                [Weather]
                URL=\(http.baseURL)
                Timeout=1s
                [Socket]
                MaxClients=1000
                IdleTimeout=1h
                """)
        _ = try await daemon.waitForState(timeout: .seconds(30), "fresh weather") { $0["status"] as? String == "fresh" }
        return daemon
    }

    @Test func aFloodIsRefusedBeyondTheDescriptorReserveAndFetchesGoOn() async throws {
        let http = try await FixtureHTTPServer()
        let daemon = try await daemon(http, maxAge: "4s")
        _ = try await daemon.output.waitFor(containing: "closed (0 connected)", timeout: .seconds(30))
        // 128 descriptors: clients take what is free below the reserve (the last 8).
        try await prlimit(daemon, 128)
        let held = try openDescriptors(daemon.pid)
        let flood = try (0..<300).map { _ in try LineClient(path: daemon.socketPath) }
        defer { for client in flood { client.close() } }
        for client in flood { client.send("version\n") }
        let answers = try await onDedicatedThread("the flood's answers") {
            flood.map { $0.readLineBlocking() ?? "nothing" }
        }
        let served = zip(flood, answers).filter { $0.1.contains("\"VERSION\"") }.map(\.0)
        let refused = answers.filter { $0.contains("\"too-many-clients\"") }
        #expect(served.count == 128 - DescriptorReserve.count - held.count, "\(held.count) held before")
        #expect(refused.count == 300 - served.count, "\(Set(answers.filter { !$0.contains("VERSION") }))")
        #expect(refused.allSatisfy { $0.contains("the last 8 of the descriptor limit 128 are kept free") })
        #expect(try openDescriptors(daemon.pid).count <= 128 - DescriptorReserve.count)

        // With every client place held, the daemon's fetches go on (MaxAge=4s; libcurl keeps
        // its connection to the fixture) and stay fresh.
        let before = try http.requests().count
        _ = try await http.waitForRequests(count: before + 2, timeout: .seconds(30))
        let probe = try #require(served.first)
        probe.send("now\n")
        #expect(try jsonObject(await probe.readLine())["status"] as? String == "fresh")

        // The flood ends: a new client is served.
        for client in flood { client.close() }
        #expect(try await daemon.now()["status"] as? String == "fresh")
        #expect(daemon.log.components(separatedBy: "refusing clients beyond").count == 2, "one log line")
    }

    /// The finding (libdispatch traps when its `open` of `/proc/<tid>/stat` fails with
    /// `EMFILE`): with the limit at 16 (or the lowest that leaves two clients room: the
    /// daemon's own descriptors and the reserve), 40 clients at once and a lookup's fetch
    /// leave the reserve free; the daemon lives on, answers `now` once the others have left,
    /// and its log names the limit.
    @Test func atALowLimitFortyClientsAndAFetchLeaveTheReserveFree() async throws {
        let http = try await FixtureHTTPServer()
        // libcurl keeps no connection: the lookup's fetch below needs a socket of its own.
        try http.respond(headers: ["Connection": "close"])
        let daemon = try await daemon(http, maxAge: "1h")
        _ = try await daemon.output.waitFor(containing: "closed (0 connected)", timeout: .seconds(30))
        let held = try openDescriptors(daemon.pid)
        let limit = max(16, (held.max() ?? 0) + 1 + DescriptorReserve.count + 2)
        try await prlimit(daemon, limit)
        let flood = try (0..<40).map { _ in try LineClient(path: daemon.socketPath) }
        defer { for client in flood { client.close() } }
        for client in flood {
            client.receiveTimeout(seconds: 10)  // a client left in the backlog fails, never hangs
            client.send("now\n")
        }
        // Every client is answered at once (served or refused); after one that is not, the
        // rest are not waited for: one time-out, not forty.
        let answers = try await onDedicatedThread("the flood's answers") {
            var unanswered = false
            return flood.map { client -> String in
                guard !unanswered, let line = client.readLineBlocking() else {
                    unanswered = true
                    return "nothing"
                }
                return line
            }
        }
        let served = zip(flood, answers).filter { $0.1.contains("\"WEATHER\"") }.map(\.0)
        let refused = answers.filter {
            $0.contains("\"too-many-clients\"")
                && $0.contains("the last \(DescriptorReserve.count) of the descriptor limit \(limit) are kept free")
        }
        #expect(served.count == limit - DescriptorReserve.count - held.count, "\(held.count) held before")
        #expect(refused.count == 40 - served.count, "\(Set(answers.filter { !$0.contains("WEATHER") }))")
        let open = try openDescriptors(daemon.pid)
        #expect(open.allSatisfy { $0 < limit - DescriptorReserve.count }, "open: \(open.sorted())")

        // A lookup's fetch while every place is held: its socket would take one of the reserve,
        // so libcurl is refused one and the lookup fails with the reason; the reserve stays free.
        let asker = try #require(served.first)
        asker.send("weather 48.85,2.35\n")
        let lookup = try jsonObject(await asker.readLine())
        #expect(lookup["class"] as? String == "ERROR", "\(lookup)")
        #expect(
            (lookup["message"] as? String)?.contains("the last 8 of the descriptor limit \(limit) are kept free")
                == true,
            "\(lookup)")
        #expect(try openDescriptors(daemon.pid).count <= limit - DescriptorReserve.count)

        for client in flood { client.close() }
        #expect(try await daemon.now()["class"] as? String == "WEATHER")
        #expect(daemon.isRunning, "ended: \(daemon.exitCode ?? -1)")
        #expect(daemon.log.contains("descriptor limit \(limit)"))
    }

    /// No descriptor free at all (a limit at the lowest free descriptor number; no fetch
    /// runs, MaxAge=1h): accepting pauses with one log line through its retries, and resumes
    /// by itself once descriptors are back; the clients that waited are answered.
    @Test func outOfDescriptorsAcceptingPausesOnceAndResumesByItself() async throws {
        let http = try await FixtureHTTPServer()
        let daemon = try await daemon(http, maxAge: "1h")
        // The watcher that saw the fresh state has left: no descriptor closes after this.
        _ = try await daemon.output.waitFor(containing: "closed (0 connected)", timeout: .seconds(30))
        try await prlimit(daemon, try lowestFreeDescriptor(daemon.pid))
        let waiting = try (0..<3).map { _ in try LineClient(path: daemon.socketPath) }
        defer { for client in waiting { client.close() } }
        for client in waiting { client.send("now\n") }
        _ = try await daemon.output.waitFor(containing: "not accepting new clients", timeout: .seconds(30))
        _ = try await daemon.output.waitFor(containing: "(retry 2)", timeout: .seconds(30))

        try await prlimit(daemon, 1024)
        for client in waiting {
            #expect(try jsonObject(await client.readLine())["class"] as? String == "WEATHER")
        }
        _ = try await daemon.output.waitFor(containing: "accepting clients again", timeout: .seconds(30))
        #expect(daemon.log.components(separatedBy: "not accepting new clients").count == 2, "one warning")
        #expect(daemon.isRunning)
    }
}
