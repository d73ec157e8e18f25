import Foundation
import Synchronization
import Testing
import WundercastTestSupport

/// SIGHUP applies every key that can change at run time (issue 8, point 3), between
/// `RELOADING=1` and `READY=1`, restarting only what depends on it; a configuration that
/// cannot be used is rejected whole and the running one keeps serving.
@Suite(.serialized) struct DaemonReloadTests {
    static let boat = Fixtures.url("nmea/bundg_zeus_9.log")

    func fallback(url: String, extra: String = "") -> String {
        """
        [Weather]
        URL=\(url)
        [Location]
        Authorization=denied
        GPSD=127.0.0.1:1
        Fallback=59.9139,10.7522
        \(extra)
        """
    }

    func rewrite(_ daemon: DaemonProcess, _ text: String) throws {
        try daemon.rewriteConfiguration(text)
    }

    @Test func aNewProviderURLIsFetchedAtOnceBetweenReloadingAndReady() async throws {
        let first = try await FixtureHTTPServer()
        let second = try await FixtureHTTPServer()
        let daemon = try await DaemonProcess(configuration: fallback(url: first.baseURL))
        _ = try await daemon.waitForState(timeout: .seconds(30), "fresh weather from the first server") {
            $0["status"] as? String == "fresh"
        }
        let notify = try #require(daemon.notify)
        let before = notify.messages.lines.count
        try rewrite(daemon, fallback(url: second.baseURL))
        daemon.signal(SIGHUP)
        let requests = try await second.waitForRequests(count: 1, timeout: .seconds(30))
        #expect(requests.first?.query["latitude"] == "59.91")
        try await daemon.output.waitFor(
            containing:
                "configuration reloaded: changed URL=\(second.baseURL); a new open-meteo provider and weather cache")
        // The predicate sees every line once, in order (under the log's lock: it must not read the log).
        let readies = Mutex(0)
        let readiesBefore = notify.messages.lines.prefix(before).filter { $0.contains("READY=1") }.count
        _ = try await notify.messages.waitFor("READY=1 after the reload", timeout: .seconds(10)) { line in
            readies.withLock { seen in
                if line.contains("READY=1") { seen += 1 }
                return seen > readiesBefore
            }
        }
        let sent = Array(notify.messages.lines.dropFirst(before))
        let reloading = try #require(sent.firstIndex { $0.contains("RELOADING=1") }, "\(sent)")
        let ready = try #require(sent.firstIndex { $0.contains("READY=1") }, "\(sent)")
        #expect(reloading < ready, "\(sent)")
        // STATUS= stays the weather, said to be after a reload.
        #expect(sent[ready].contains("STATUS=configuration reloaded; -5°C"), "\(sent[ready])")
        let state = try await daemon.waitForState(timeout: .seconds(30), "fresh weather after the reload") {
            $0["status"] as? String == "fresh"
        }
        #expect(state["provider"] as? String == "open-meteo")
        // Lookups go to the new provider too; the first server is asked nothing more.
        let firstCount = try first.requests().count
        #expect(try await daemon.ctl("weather", "52.37,4.89").status == 0)
        let lookups = try await second.waitForRequests(count: 2, timeout: .seconds(30))
        #expect(lookups.last?.query["latitude"] == "52.37")
        #expect(try first.requests().count == firstCount)
    }

    @Test func aNewGPSDAddressReconnects() async throws {
        let http = try await FixtureHTTPServer()
        let port = try GPSFake.freePort()
        let gpsfake = try await GPSFake.start(log: Self.boat, cycle: 0.01, port: port)
        defer { gpsfake.stopInBackground() }
        let base = "[Weather]\nURL=\(http.baseURL)\n[Throttle]\nMinDistance=1km\n[Location]\nAuthorization=always\n"
        let daemon = try await DaemonProcess(configuration: base + "GPSD=127.0.0.1:1\n")
        let unreachable = try await daemon.waitForState(timeout: .seconds(30), "no gpsd") {
            $0[path: "error.code"] as? String == "gpsd-unreachable"
        }
        #expect(unreachable["location"] == nil)
        try rewrite(daemon, base + "GPSD=127.0.0.1:\(port)\n")
        daemon.signal(SIGHUP)
        let state = try await daemon.waitForState(timeout: .seconds(60), "weather from the new gpsd's fixes") {
            $0[path: "location.source"] as? String == "gpsd" && $0["status"] as? String == "fresh"
        }
        #expect(state["weather"] != nil)
        let status = try await daemon.ctl("--json", "status")
        #expect(status.stdout.contains("\"server\":\"127.0.0.1:\(port)\""), "\(status.stdout)")
        #expect(
            daemon.log.contains("changed GPSD=127.0.0.1:\(port); reconnecting to gpsd at 127.0.0.1:\(port)"),
            "\(daemon.log.suffix(2000))")
    }

    @Test func socketLimitsApplyToTheConnectionsThatFollow() async throws {
        let http = try await FixtureHTTPServer()
        let daemon = try await DaemonProcess(configuration: fallback(url: http.baseURL))
        _ = try await daemon.waitForState(timeout: .seconds(30), "fresh") { $0["status"] as? String == "fresh" }
        try rewrite(daemon, fallback(url: http.baseURL, extra: "[Socket]\nMaxClients=1\n"))
        daemon.signal(SIGHUP)
        try await daemon.output.waitFor(
            containing: "configuration reloaded: changed MaxClients=1; socket settings for the connections that follow")
        // One watcher holds the only place; the next connection is refused.
        let watch = try ChildProcess(
            [try Binaries.path("wundercastctl"), "--socket", daemon.socketPath, "watch", "--json"],
            separateStderr: true)
        defer { watch.signalGroup(SIGKILL) }
        try await watch.output.waitFor("the watcher's first line") { _ in true }
        let refused = try await daemon.ctl("now", "--json")
        #expect(
            (refused.stdout + refused.stderr).contains("MaxClients=1"), "\(refused.stdout)\(refused.stderr)")
    }

    @Test func aProviderThatCannotBeSetUpIsRejectedWhole() async throws {
        let http = try await FixtureHTTPServer()
        let daemon = try await DaemonProcess(configuration: fallback(url: http.baseURL))
        _ = try await daemon.waitForState(timeout: .seconds(30), "fresh") { $0["status"] as? String == "fresh" }
        let missing = daemon.configPath + ".no-such-key"
        // A new provider whose key file is missing, and a new authorization in the same file.
        try rewrite(
            daemon,
            """
            [Weather]
            Provider=openweathermap
            URL=\(http.baseURL)
            APIKeyFile=\(missing)
            [Location]
            Authorization=ask
            GPSD=127.0.0.1:1
            Fallback=59.9139,10.7522
            """)
        daemon.signal(SIGHUP)
        try await daemon.output.waitFor(containing: "configuration rejected")
        #expect(daemon.log.contains(missing), "\(daemon.log.suffix(2000))")
        let state = try await daemon.now()
        #expect(state["authorization"] as? String == "denied", "nothing of the rejected file applies")
        #expect(state["provider"] as? String == "open-meteo")
        #expect(state["status"] as? String == "fresh")
    }

    /// One reload that touches several parts: each says what it did, in the parts' order; the
    /// keys that need a restart say so (`WUNDERCAST_RESTART_NEEDED=yes`) and the daemon keeps
    /// serving where it was; reading the same file again changes nothing.
    @Test func eachPartSaysWhatItAppliedInOrder() async throws {
        let http = try await FixtureHTTPServer()
        let daemon = try await DaemonProcess(configuration: fallback(url: http.baseURL))
        _ = try await daemon.waitForState(timeout: .seconds(30), "fresh") { $0["status"] as? String == "fresh" }
        let moved = daemon.socketPath + ".moved"
        let text =
            fallback(url: http.baseURL, extra: "[Cache]\nEnabled=no\n")
            .replacingOccurrences(of: "Authorization=denied", with: "Authorization=ask")
            + "\n[Socket]\nPath=\(moved)\nPublicPrecision=2\n"
        try DaemonProcess.withTestDefaults(text).write(toFile: daemon.configPath, atomically: true, encoding: .utf8)
        daemon.signal(SIGHUP)
        let line = try await daemon.output.waitFor(containing: "configuration reloaded: ")
        #expect(
            line.contains(
                "; socket settings for the connections that follow; [Socket] Path= takes effect after a restart (still serving on \(daemon.socketPath)); [Cache] takes effect after a restart"
            ), "\(line)")
        #expect(line.contains("WUNDERCAST_RESTART_NEEDED=yes"), "\(line)")
        for key in ["Authorization=ask", "Path=\(moved)", "PublicPrecision=2", "Enabled=no"] {
            #expect(line.contains(key), "\(key): \(line)")
        }
        // The authorization switched at once; the old socket still serves.
        let state = try await daemon.now()
        #expect(state["authorization"] as? String == "notDetermined", "\(state)")
        #expect(!FileManager.default.fileExists(atPath: moved))
        daemon.signal(SIGHUP)
        let again = try await daemon.output.waitFor(containing: "configuration reloaded: nothing changed")
        #expect(again.contains("WUNDERCAST_RESTART_NEEDED=no"), "\(again)")

        // Back to the start-up `Path=` and `[Cache]`: what is bound and read since the start is
        // in force again, so no restart is needed and no other socket is named.
        try rewrite(
            daemon,
            fallback(url: http.baseURL).replacingOccurrences(of: "Authorization=denied", with: "Authorization=ask"))
        daemon.signal(SIGHUP)
        let back = try await daemon.output.waitFor(containing: "[Cache] as in force since the start again")
        #expect(back.contains("[Socket] Path= names the socket served (\(daemon.socketPath)) again; "), "\(back)")
        #expect(back.contains("WUNDERCAST_RESTART_NEEDED=no"), "\(back)")
        #expect(!back.contains(moved), "\(back)")
    }
}
