import Foundation
import Testing
import WundercastModel
import WundercastProviders
import WundercastPOSIX
import WundercastTestSupport

@testable import WundercastHTTP

#if canImport(Glibc)
import Glibc
#endif

/// Names are resolved by libcurl's threaded resolver on a thread of its own, and a resolution
/// that does not end in time never holds the loop: neither a transfer that times out while its
/// name is resolved nor one cancelled then waits for the resolver (libcurl 7.88 joins the
/// resolver's thread when it gives up on a transfer, unless `CURLOPT_QUICK_EXIT`).
@Suite struct CurlNameResolutionTests {
    /// Run in a child process in namespaces of its own (`unshare -rmn`): its `/etc/resolv.conf`
    /// names a server on 127.0.0.1:53 that never answers (``slowNamesOnTheLoop()``), so each name
    /// takes the resolver 3 s (`options timeout:3 attempts:1`).
    @Test func aSlowNameNeverHoldsTheLoop() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "wundercast-dns-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let resolvConf = folder.appendingPathComponent("resolv.conf").path
        try "nameserver 127.0.0.1\noptions timeout:3 attempts:1\n".write(
            toFile: resolvConf, atomically: true, encoding: .utf8)
        let result = try await runTestsAlone(
            "slowNamesOnTheLoop", environment: ["WUNDERCAST_SLOW_NAMES": "1"], launcher: ["/usr/bin/unshare", "-rmn"],
            setUp: "mount --bind \"$1\" /etc/resolv.conf && ip link set lo up", arguments: [resolvConf])
        #expect(result.stdout.contains("slowNamesOnTheLoop() passed"), "\(result.stdout.suffix(3000)) \(result.stderr)")
        #expect(result.status == 0)
    }

    @Test(
        .enabled(
            if: ProcessInfo.processInfo.environment["WUNDERCAST_SLOW_NAMES"] == "1",
            "run alone in a child process by aSlowNameNeverHoldsTheLoop"))
    func slowNamesOnTheLoop() async throws {
        // The name server that never answers: queries are received and dropped.
        let sink = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        defer { close(sink) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(53).bigEndian
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(sink, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        try #require(sink >= 0 && bound == 0, "errno \(errno)")

        let loop = try EventLoop(name: "curl-dns")
        defer { loop.stop() }
        let sockets = Observed(0)
        let client = CurlHTTPClient(
            userAgent: CurlHTTPClientTests.userAgent, loop: loop, connectTimeout: .seconds(10), timeout: .seconds(10),
            maxBodySize: 1 << 20, probe: { callback, _ in if callback == .socket { sockets.update { $0 += 1 } } })
        let quick = CurlHTTPClient(
            userAgent: CurlHTTPClientTests.userAgent, loop: loop, connectTimeout: .milliseconds(500),
            timeout: .milliseconds(500))

        // How late the loop's timers run meanwhile: a tick every 20 ms.
        let lateness = LoopBound((worst: Duration.zero, ticking: true), loop: loop)
        @Sendable func tick(at deadline: ContinuousClock.Instant) {
            loop.schedule(at: deadline) {
                lateness.value.worst = max(lateness.value.worst, deadline.duration(to: .now))
                if lateness.value.ticking { tick(at: deadline + .milliseconds(20)) }
            }
        }
        await loop.perform { tick(at: .now) }

        // A transfer times out while its name is resolved, and returns when it does.
        let start = ContinuousClock.now
        do {
            _ = try await quick.get("http://slow-name.wundercast.test/", headers: [:])
            Issue.record("a name no server answers for was resolved")
        } catch {
            guard case .transport(28, _) = error else {
                Issue.record("expected a timeout, got \(error)")
                return
            }
        }
        #expect(start.duration(to: .now) < .seconds(2))

        // The name is resolved on a thread libcurl made (it carries the loop's name; the first
        // name's may still wait for its answer, alone); a cancellation meanwhile answers at once.
        let task = Task { () async throws(WeatherError) -> HTTPResponse in
            try await client.get("http://another-slow-name.wundercast.test/", headers: [:])
        }
        // The resolver's thread wakes the loop through a socket libcurl asks it to watch.
        try await sockets.wait(timeout: .seconds(10), "the resolver's socket watched") { $0 >= 1 }
        let named = CurlOnTheLoopTests.threads().values.filter { $0 == "curl-dns" }.count
        #expect(named >= 2, "the loop and libcurl's resolver")
        let cancelled = ContinuousClock.now
        task.cancel()
        let result = await task.result
        #expect(throws: WeatherError.cancelled) { try result.get() }
        #expect(cancelled.duration(to: .now) < .seconds(1))
        #expect(await client.census().transfers == 0)

        let worst = await loop.perform { () -> Duration in
            lateness.value.ticking = false
            return lateness.value.worst
        }
        #expect(worst < .seconds(1), "the loop's timers ran up to \(worst) late")
    }
}
