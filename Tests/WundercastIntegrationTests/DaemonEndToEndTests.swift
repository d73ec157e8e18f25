import Foundation
import Testing
import WundercastModel
import WundercastPOSIX
import WundercastTestSupport

/// The whole main job with real processes: gpsfake replays a real track into a private gpsd,
/// a loopback HTTP server serves recorded Open-Meteo responses and records every request,
/// `wundercastd` runs with a temporary socket, `wundercastctl` asks it.
///
/// Serialized: each test floods a gpsd with a track at 5–10 ms per sentence and the daemon
/// follows every fix; three at once on a 2-core machine would measure the machine, not the
/// daemon. (The suite still runs beside the other suites.)
@Suite(.serialized) struct DaemonEndToEndTests {
    static let boat = Fixtures.url("nmea/bundg_zeus_9.log")
    static let car = Fixtures.url("nmea/nl2008u.log")

    func configuration(
        gpsdPort: Int, http: FixtureHTTPServer, minDistance: String = "50m", precision: Int = 4
    ) -> String {
        """
        [Location]
        Authorization=always
        GPSD=127.0.0.1:\(gpsdPort)
        MaxHorizontalError=10km
        [Throttle]
        MinInterval=1s
        MinDistance=\(minDistance)
        MaxAge=1h
        [Weather]
        URL=\(http.baseURL)
        Precision=\(precision)
        Timeout=5s
        """
    }

    func forecastRequests(_ http: FixtureHTTPServer) throws -> [RecordedRequest] {
        try http.requests().filter { $0.path == "/v1/forecast" }
    }

    func coordinate(of request: RecordedRequest) throws -> Coordinate {
        let lat = try #require(request.query["latitude"].flatMap(Double.init))
        let lon = try #require(request.query["longitude"].flatMap(Double.init))
        return Coordinate(latitude: lat, longitude: lon)
    }

    /// The track positions of the fetches from `start` on (itself first), each moved fetch the
    /// first position after the one before at `metres` from it (within a centimetre: the track
    /// and the daemon measure alike), at or after the first that is `minDistance` away; `nil`
    /// when some fetch is no such position (too early, or not on the track).
    static func fetches(
        _ track: [(latitude: Double, longitude: Double)], from start: Int, metres: [Double], minDistance: Double
    ) -> [Int]? {
        var fetched = [start]
        for moved in metres {
            let from = fetched.last!
            let later = track.indices.dropFirst(from + 1)
            guard let allowed = later.first(where: { NMEATrack.haversine(track[from], track[$0]) >= minDistance }),
                let index = later.first(where: { abs(NMEATrack.haversine(track[from], track[$0]) - moved) < 0.01 }),
                index >= allowed
            else { return nil }
            fetched.append(index)
        }
        return fetched
    }

    static func rounded(_ position: (latitude: Double, longitude: Double)) -> Coordinate {
        Coordinate(latitude: position.latitude, longitude: position.longitude).rounded(toDecimals: 4)
    }

    /// The distance of a fetch for a moved position, from the daemon's debug line
    /// `fetching weather for 52.8,5.3 (moved(metres: 50.91861928180769))`.
    static func movedMetres(_ line: String) -> Double? {
        guard line.hasPrefix("fetching weather for "), let range = line.range(of: "(moved(metres: ") else { return nil }
        return Double(line[range.upperBound...].prefix { $0 != ")" })
    }

    func decimals(_ text: String) -> Int {
        guard let dot = text.firstIndex(of: ".") else { return 0 }
        return text.distance(from: dot, to: text.endIndex) - 1
    }

    @Test func weatherFollowsARealTrackWithTheRequestsTheThrottleAllows() async throws {
        let http = try await FixtureHTTPServer()
        let port = try GPSFake.freePort()
        let minDistance = 50.0
        let daemon = try await DaemonProcess(
            configuration: configuration(gpsdPort: port, http: http, minDistance: "50m"))
        // The daemon is up and retrying gpsd; now gpsd appears and the log plays once.
        let gpsfake = try await GPSFake.start(log: Self.boat, cycle: 0.008, once: true, linger: 1, port: port)
        // gpsfake exits once the log has played and gpsd lingered 1 s.
        _ = try? await gpsfake.exited(timeout: .seconds(180))
        #expect(!gpsfake.isRunning, "gpsfake did not finish the log")
        // gpsd has gone with gpsfake: the weather stays, for the last known position, stale
        // (no fetch left to start or to end: every request the daemon makes has been made).
        let state = try await daemon.waitForState(timeout: .seconds(30), "the last weather for the last known position")
        {
            $0["weather"] != nil && $0[path: "location.status"] as? String == "lastKnown"
                && $0["status"] as? String == "stale"
        }
        #expect(["device-gone", "gpsd-unreachable"].contains(state[path: "error.code"] as? String ?? ""))

        let requests = try forecastRequests(http)
        try #require(!requests.isEmpty, "no weather request reached the server; log:\n\(daemon.log.suffix(2000))")

        // No request carries more decimals than Precision=4.
        for request in requests {
            #expect(decimals(request.query["latitude"] ?? "") <= 4, "\(request.queryString)")
            #expect(decimals(request.query["longitude"] ?? "") <= 4, "\(request.queryString)")
            #expect(request.headers["user-agent"]?.hasPrefix("wundercast/") == true)
        }

        // The distance rule, fetch by fetch, on the NMEA track (MaxAge is far beyond the replay).
        // The daemon joins gpsd a moment after gpsfake starts feeding, at a moment the load
        // decides, and a request names only its 11-m cell (4 decimals, some 5 positions of the
        // track): its debug log gives the metres of each moved fetch, which name the position
        // it fetched for, one after the other, from the cell of its first request on. Each is the
        // first position of the track at least MinDistance from the one fetched before — or a
        // later one, never an earlier one: a 50 m step is 4.5 s of replay, but a daemon that a
        // loaded machine held back takes the fixes of several steps within MinInterval=1s, and
        // that rule holds the fetch to the newest of them. (WeatherServiceTests check the time
        // rules on a manual clock.)
        let track = try NMEATrack.load(Self.boat).positions
        let measured = daemon.output.lines.compactMap(Self.movedMetres)
        #expect(requests.count == measured.count + 1, "one request a fetch: \(requests.map(\.queryString))")
        let cell = try track.indices.filter { try Self.rounded(track[$0]) == coordinate(of: requests[0]) }
        let fetched = try #require(
            cell.lazy.compactMap { Self.fetches(track, from: $0, metres: measured, minDistance: minDistance) }.first,
            "no position of the first request's cell explains the fetches \(measured); requests: \(requests.map(\.queryString))"
        )
        for (index, request) in zip(fetched, requests) {
            #expect(try coordinate(of: request) == Self.rounded(track[index]), "\(request.queryString)")
        }
        // Nothing left unfetched: every position after the last one fetched is within MinDistance of it.
        let last = track[fetched.last!]
        #expect(track[(fetched.last! + 1)...].allSatisfy { NMEATrack.haversine(last, $0) < minDistance })
        #expect(fetched.count >= 5)

        // `now --json` carries the recorded weather and a position from the track.
        #expect(state[path: "weather.temperature"] as? Double == -5.3)
        #expect(state[path: "weather.weatherCode"] as? Int == 0)
        #expect(state[path: "weather.units.temperature"] as? String == "°C")
        #expect(state["provider"] as? String == "open-meteo")
        #expect((state["fetchedAt"] as? String)?.hasSuffix("Z") == true)
        #expect(state["ageSeconds"] is Int)
        let lat = try #require(state[path: "location.latitude"] as? Double)
        let lon = try #require(state[path: "location.longitude"] as? Double)
        #expect(try coordinate(of: requests.last!) == Coordinate(latitude: lat, longitude: lon))
        #expect((state[path: "location.mode"] as? Int ?? 0) >= 2)
        let box = try #require(NMEATrack(positions: track).boundingBox)
        #expect(lat >= box.minLatitude - 0.0001 && lat <= box.maxLatitude + 0.0001)
        #expect(lon >= box.minLongitude - 0.0001 && lon <= box.maxLongitude + 0.0001)

        // The human line.
        let human = try await daemon.ctl("now")
        #expect(human.status == 0)
        #expect(human.stdout.hasPrefix("-5°C Clear sky, humidity 72%, "), "\(human.stdout)")
        #expect(await daemon.stop() == 0)
    }

    @Test func fixesResumeWhenGPSDIsKilledAndStartedAgain() async throws {
        let http = try await FixtureHTTPServer()
        let port = try GPSFake.freePort()
        let daemon = try await DaemonProcess(
            configuration: configuration(gpsdPort: port, http: http, minDistance: "1km"))
        var gpsfake: GPSFake? = try await GPSFake.start(log: Self.boat, cycle: 0.01, port: port)
        _ = try await daemon.waitForState(timeout: .seconds(60), "weather for the boat") {
            $0["status"] as? String == "fresh"
        }
        let boatRequests = try forecastRequests(http).count
        await gpsfake?.stopAndWait()
        gpsfake = nil
        // gpsd is gone; the daemon keeps serving its last state.
        #expect(try await daemon.now()[path: "weather.temperature"] as? Double == -5.3)
        // A new gpsd on the same port, replaying a car 260 km away: the daemon reconnects.
        let again = try await GPSFake.start(log: Self.car, cycle: 0.01, port: port)
        let carTrack = try #require(try NMEATrack.load(Self.car).boundingBox)
        let state = try await daemon.waitForState(timeout: .seconds(90), "weather for the car") { s in
            guard let lat = s[path: "location.latitude"] as? Double else { return false }
            return abs(lat - carTrack.minLatitude) < 0.1 && s["status"] as? String == "fresh"
        }
        #expect(try forecastRequests(http).count > boatRequests)
        #expect(state[path: "location.source"] as? String == "gpsd")
        await again.stopAndWait()
    }

    @Test func serverErrorsTurnTheStateStaleAndKeepTheLastWeather() async throws {
        let http = try await FixtureHTTPServer()
        let port = try GPSFake.freePort()
        let gpsfake = try await GPSFake.start(log: Self.boat, cycle: 0.005, port: port)
        let daemon = try await DaemonProcess(
            configuration: configuration(gpsdPort: port, http: http, minDistance: "20m"))
        _ = try await daemon.waitForState(timeout: .seconds(60), "fresh weather") { $0["status"] as? String == "fresh" }
        try http.respond(status: 500, body: #"{"error":true,"reason":"Internal error"}"#)
        // The boat moves on, the next fetch fails: stale, with the old weather.
        let stale = try await daemon.waitForState(timeout: .seconds(60), "stale state") {
            $0["status"] as? String == "stale"
        }
        #expect(stale[path: "weather.temperature"] as? Double == -5.3)
        #expect(stale[path: "error.code"] as? String == "http-500")
        #expect((stale[path: "error.message"] as? String)?.contains("Internal error") == true)
        let human = try await daemon.ctl("now")
        #expect(human.stdout.contains("(stale: the weather provider has a server error (HTTP 500))"), "\(human.stdout)")
        // Recovery.
        try http.reset()
        _ = try await daemon.waitForState(timeout: .seconds(90), "fresh again") { $0["status"] as? String == "fresh" }
        await gpsfake.stopAndWait()
    }
}

/// The daemon and wundercastctl at their edges: configuration errors, a missing daemon,
/// the socket path from the environment, `watch`, sd_notify and socket activation.
@Suite struct DaemonEdgeTests {
    @Test func configurationErrorStopsStartUpWithFileAndLine() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "wundercast-conf-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("bad.conf").path
        try "[Location]\nAuthorization=always\n\n[Throttle]\nMinInterval=5 parsecs\n".write(
            toFile: path, atomically: true, encoding: .utf8)
        let result = try await runProcess(try Binaries.path("wundercastd"), ["--config", path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("bad.conf:5: "), "\(result.stderr)")
        #expect(result.stderr.contains("MinInterval"), "\(result.stderr)")
        let check = try await runProcess(try Binaries.path("wundercastd"), ["--check-config", "--config", path])
        #expect(check.status == 1)
    }

    @Test func nowSaysWhyThereIsNoLocationWhenGPSDCannotBeReached() async throws {
        let port = try GPSFake.freePort()  // nothing listens there
        let daemon = try await DaemonProcess(configuration: "[Location]\nGPSD=127.0.0.1:\(port)\n")
        let state = try await daemon.waitForState(timeout: .seconds(30), "a gpsd error") {
            $0[path: "error.code"] as? String == "gpsd-unreachable"
        }
        #expect(state["status"] as? String == "noLocation")
        #expect(
            (state[path: "error.message"] as? String)?.hasPrefix("cannot reach gpsd at 127.0.0.1:\(port): ") == true)
        let human = try await daemon.ctl("now")
        // The human line says it in words; the address and libgps' reason are in --json and status.
        #expect(human.stdout == "no location: cannot reach gpsd\n", "\(human.stdout)")
    }

    /// A socket that accepts and never answers (a stuck daemon) must not hang a bar: `now`
    /// gives up with a message that says so.
    @Test func ctlGivesUpOnADaemonThatNeverAnswers() async throws {
        let directory = try DatagramSocket.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/stuck.sock"
        let listening = try UnixSocket.listen(path: path)  // connections queue; none is accepted
        defer { try? Descriptor.close(listening) }
        let result = try await runProcess(try Binaries.path("wundercastctl"), ["--socket", path, "now"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("no answer from wundercastd"), "\(result.stderr)")
    }

    @Test func ctlSaysClearlyWhenTheDaemonIsNotRunning() async throws {
        let result = try await runProcess(
            try Binaries.path("wundercastctl"), ["--socket", "/nonexistent/wundercast.sock", "now"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("not running"), "\(result.stderr)")
    }

    /// A daemon under `denied` with `Fallback=59.9139,10.7522`, asking `http`, once its weather is fresh.
    func fallbackDaemon(_ http: FixtureHTTPServer) async throws -> DaemonProcess {
        let daemon = try await DaemonProcess(
            configuration: """
                [Location]
                Authorization=denied
                GPSD=127.0.0.1:1
                Fallback=59.9139,10.7522
                [Weather]
                URL=\(http.baseURL)
                Precision=2
                """)
        try await daemon.waitForState(timeout: .seconds(30), "fresh fallback weather") {
            $0["status"] as? String == "fresh"
        }
        return daemon
    }

    @Test func deniedWithFallbackServesTheFallbackAndEnvironmentSetsTheSocket() async throws {
        let http = try await FixtureHTTPServer()
        let daemon = try await fallbackDaemon(http)
        var env = Spawn.environment
        env["WUNDERCAST_SOCKET"] = daemon.socketPath
        let result = try await runProcess(try Binaries.path("wundercastctl"), ["now", "--json"], environment: env)
        #expect(result.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object[path: "location.source"] as? String == "fallback")
        #expect(object[path: "location.latitude"] as? Double == 59.91)
        #expect(object["authorization"] as? String == "denied")
        let requests = try http.requests().filter { $0.path == "/v1/forecast" }
        #expect(requests.map { $0.query["latitude"] } == ["59.91"])
    }

    /// Issue 18, item 7: `authorize ask` → `denied` serves the fallback place again at once,
    /// with the weather it has — never "waiting for a GPS fix" while GPS is denied.
    @Test func deniedAgainServesTheFallbackAtOnce() async throws {
        let http = try await FixtureHTTPServer()
        let daemon = try await fallbackDaemon(http)
        #expect(try await daemon.ctl("authorize", "ask").stdout == "GPS authorization: ask\n")
        try await daemon.waitForState(timeout: .seconds(30), "not decided") {
            $0["authorization"] as? String == "notDetermined"
        }
        #expect(try await daemon.ctl("authorize", "denied").stdout == "GPS authorization: denied\n")
        let denied = try await daemon.waitForState(timeout: .seconds(30), "denied") {
            $0["authorization"] as? String == "denied"
        }
        #expect(denied[path: "location.source"] as? String == "fallback", "\(denied)")
        #expect(denied["status"] as? String == "fresh", "\(denied)")
        #expect(denied["error"] == nil, "\(denied)")
        let line = try await daemon.ctl("now")
        #expect(!line.stdout.contains("GPS fix"), "\(line.stdout)")
        #expect(try http.requests().filter { $0.path == "/v1/forecast" }.count == 1, "its weather stands")
    }

    @Test func watchStreamsChangesAndAuthorizeDecides() async throws {
        let http = try await FixtureHTTPServer()
        let daemon = try await DaemonProcess(
            configuration: """
                [Location]
                Authorization=ask
                GPSD=127.0.0.1:1
                Fallback=52.37,4.89
                [Weather]
                URL=\(http.baseURL)
                """)
        let ask = try await daemon.now()
        #expect(ask["status"] as? String == "noLocation")
        #expect(ask[path: "error.code"] as? String == "not-determined")
        // A watcher sees the decision take effect: noLocation → (fetching →) fresh.
        let watch = try ChildProcess(
            [try Binaries.path("wundercastctl"), "--socket", daemon.socketPath, "watch", "--json"],
            separateStderr: true)
        defer { watch.signalGroup(SIGKILL) }
        // Decide only once the watcher has its first line (it is connected).
        try await watch.output.waitFor("the watcher's first line") { _ in true }
        let decided = try await daemon.ctl("authorize", "denied")
        #expect(decided.stdout == "GPS authorization: denied\n")
        // On this watcher's own stream: a watcher that connects later can be answered from the
        // store before the publisher has broadcast the same change to those already connected.
        try await watch.output.waitFor("fresh on the watcher", timeout: .seconds(30)) { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["status"] as? String
                == "fresh"
        }
        watch.signal(SIGKILL)
        try await watch.output.waitForEnd("the end of the watcher's output")
        let lines = watch.output.lines
        let statuses = lines.compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["status"] as? String
        }
        // A watcher gets the newest state (PROTOCOL: latest wins), so `fetching` may be superseded
        // by `fresh` before it is sent when the fixture answers at once: not asserted.
        #expect(statuses.first == "noLocation")
        #expect(statuses.last == "fresh")
        #expect(statuses.allSatisfy { ["noLocation", "fetching", "fresh"].contains($0) }, "\(statuses)")
    }

    @Test func sighupAppliesAuthorizationAndRefusesABadFileKeepingTheLastGoodState() async throws {
        let http = try await FixtureHTTPServer()
        let base = """
            [Weather]
            URL=\(http.baseURL)
            [Location]
            GPSD=127.0.0.1:1
            Fallback=59.9139,10.7522

            """
        let daemon = try await DaemonProcess(configuration: base + "Authorization=denied\n")
        _ = try await daemon.waitForState(timeout: .seconds(30), "fresh fallback weather") {
            $0["status"] as? String == "fresh"
        }
        try daemon.rewriteConfiguration(base + "Authorization=ask\n")
        daemon.signal(SIGHUP)
        _ = try await daemon.waitForState(timeout: .seconds(30), "authorization from the reloaded file") {
            $0["authorization"] as? String == "notDetermined"
        }
        // A broken file: refused with file:line, the daemon keeps running and serving.
        try daemon.rewriteConfiguration(base + "Authorization=sometimes\n")
        daemon.signal(SIGHUP)
        try await daemon.output.waitFor(containing: "configuration rejected")
        #expect(
            daemon.log.contains("configuration rejected, keeping the running one: \(daemon.configPath):6: "),
            "\(daemon.log.suffix(2000))")
        #expect(daemon.isRunning)
        let state = try await daemon.now()
        #expect(state["authorization"] as? String == "notDetermined")
        #expect(state[path: "weather.temperature"] as? Double == -5.3, "the last good weather is kept")
        // Back to the start-up value: applied too (compared with the last file, not the first).
        try daemon.rewriteConfiguration(base + "Authorization=denied\n")
        daemon.signal(SIGHUP)
        _ = try await daemon.waitForState(timeout: .seconds(30), "authorization back to denied") {
            $0["authorization"] as? String == "denied"
        }
    }

    @Test func anAuthorizationDecisionSurvivesARestart() async throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent(
            "wundercast-state-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: state) }
        let configuration = "[Location]\nAuthorization=ask\nGPSD=127.0.0.1:1\n"
        let first = try await DaemonProcess(configuration: configuration, environment: ["STATE_DIRECTORY": state.path])
        #expect(try await first.now()["authorization"] as? String == "notDetermined")
        #expect(try await first.ctl("authorize", "when-in-use").stdout == "GPS authorization: when-in-use\n")
        #expect(await first.stop() == 0)
        #expect(
            try String(contentsOf: state.appendingPathComponent("authorization"), encoding: .utf8) == "when-in-use\n")
        let second = try await DaemonProcess(configuration: configuration, environment: ["STATE_DIRECTORY": state.path])
        #expect(try await second.now()["authorization"] as? String == "authorizedWhenInUse")
    }

    /// A saved `denied` wins over a configured `always` at the next start: the more private
    /// choice is never undone by a restart.
    @Test func aSavedDenialOutranksTheConfigurationAfterARestart() async throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent(
            "wundercast-state-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: state) }
        let configuration = "[Location]\nAuthorization=always\nGPSD=127.0.0.1:1\n"
        let first = try await DaemonProcess(configuration: configuration, environment: ["STATE_DIRECTORY": state.path])
        #expect(try await first.now()["authorization"] as? String == "authorizedAlways")
        #expect(try await first.ctl("authorize", "denied").stdout == "GPS authorization: denied\n")
        #expect(await first.stop() == 0)
        let second = try await DaemonProcess(configuration: configuration, environment: ["STATE_DIRECTORY": state.path])
        #expect(try await second.now()["authorization"] as? String == "denied")
        #expect(await second.stop() == 0)
    }

    @Test func readyIsSentOnceTheSocketListens() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "wundercast-notify-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let notifyPath = dir.appendingPathComponent("notify").path
        let notify = try NotifySocket(path: notifyPath)
        defer { notify.close() }
        let daemon = try await DaemonProcess(
            configuration: "[Location]\nAuthorization=denied\n", environment: ["NOTIFY_SOCKET": notifyPath],
            waitForSocket: false)
        // Datagrams until READY=1 (STATUS= updates may come too), for at most 20 s.
        let ready = try? await notify.messages.waitFor("READY=1", timeout: .seconds(20)) { $0.contains("READY=1") }
        let messages = notify.messages.lines
        try #require(ready != nil, "no READY=1; got \(messages); log: \(daemon.log)")
        // At READY=1 the socket already answers.
        #expect(FileManager.default.fileExists(atPath: daemon.socketPath))
        #expect(try await daemon.now()["class"] as? String == "WEATHER")
        #expect(await daemon.stop() == 0)
    }

    @Test func socketActivationServesTheInheritedSocket() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "wundercast-act-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let socketPath = dir.appendingPathComponent("activated.sock").path
        let configPath = dir.appendingPathComponent("c.conf").path
        try "[Location]\nAuthorization=denied\n[Socket]\nPath=\(dir.path)/unused.sock\n".write(
            toFile: configPath, atomically: true, encoding: .utf8)
        // Not Foundation's Process: systemd-socket-activate closes inherited descriptors before
        // exec, which Process takes for the child's death (see Spawn).
        let activate = try ChildProcess([
            "/usr/bin/systemd-socket-activate", "-l", socketPath, "--fdname=control",
            try Binaries.path("wundercastd"),
            "--config", configPath,
        ])
        // systemd-socket-activate says "Listening on <path>" once the socket listens.
        try await activate.output.waitFor(containing: "Listening on", timeout: .seconds(10))
        // The first connection starts the daemon, which answers on the inherited socket.
        let result = try await runProcess(
            try Binaries.path("wundercastctl"), ["--socket", socketPath, "now", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(#""class":"WEATHER""#))
        #expect(!FileManager.default.fileExists(atPath: "\(dir.path)/unused.sock"))
        activate.signal(SIGTERM)
        #expect(try await activate.exited(timeout: .seconds(20)) == 0, "the activated daemon stops cleanly on SIGTERM")
    }
}
