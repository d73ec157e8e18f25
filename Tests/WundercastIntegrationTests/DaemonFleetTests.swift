import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import Testing
import WundercastTestSupport

/// The real daemon publishing into a real broker (issue 16): availability, state, location and
/// one discovery message; `offline` by the will when the daemon is killed, by the daemon itself
/// on a clean stop; the broker restarted mid-stream; Home Assistant's birth message; a reload.
@Suite(
    .serialized, .timeLimit(.minutes(2)),
    .enabled(if: MosquittoBroker.isInstalled, "needs Debian's mosquitto and mosquitto-clients"))
struct DaemonFleetTests {
    func configuration(broker: Int, http: FixtureHTTPServer, extra: String = "") -> String {
        """
        [Weather]
        URL=\(http.baseURL)
        [Location]
        Authorization=denied
        GPSD=127.0.0.1:1
        Fallback=59.9139,10.7522
        [MQTT]
        Broker=mqtt://127.0.0.1:\(broker)
        TopicPrefix=wundercast/van
        Precision=2
        \(extra)
        """
    }

    func json(_ line: String, topic: String) throws -> [String: Any] {
        let payload = String(line.dropFirst(topic.count + 1))
        return try #require(try JSONSerialization.jsonObject(with: Data(payload.utf8)) as? [String: Any], "\(line)")
    }

    /// What a newcomer sees with `mosquitto_sub -v -t '#'`: availability, the state (fresh, no
    /// ages, the position at `[MQTT] Precision=`), the location for the device tracker, and one
    /// discovery message; a clean stop says `offline`.
    @Test func theDaemonPublishesAvailabilityStateLocationAndDiscovery() async throws {
        let broker = try await MosquittoBroker.start()
        let http = try await FixtureHTTPServer()
        let subscriber = try broker.subscribe()
        let state = try DatagramSocket.temporaryDirectory()
        let daemon = try await DaemonProcess(
            configuration: configuration(broker: broker.port, http: http), environment: ["STATE_DIRECTORY": state])
        try await subscriber.waitFor(topic: "wundercast/van/availability", payload: "online")
        let fresh = try await subscriber.waitFor("a fresh state", timeout: .seconds(60)) {
            $0.hasPrefix("wundercast/van/state ") && $0.contains(#""status":"fresh""#)
        }
        let published = try json(fresh, topic: "wundercast/van/state")
        #expect(published["ageSeconds"] == nil, "no age in a retained state")
        let location = try #require(published["location"] as? [String: Any])
        #expect(location["ageSeconds"] == nil)
        #expect(location["latitude"] as? Double == 59.91, "\(location)")
        #expect(location["longitude"] as? Double == 10.75, "\(location)")
        let tracker = try await subscriber.waitFor("the location") { $0.hasPrefix("wundercast/van/location ") }
        let attributes = try json(tracker, topic: "wundercast/van/location")
        #expect(attributes["latitude"] as? Double == 59.91)
        #expect(attributes["longitude"] as? Double == 10.75)
        #expect((attributes["gps_accuracy"] as? Int ?? 0) >= 500, "at least the rounding error of 2 decimals")
        let discovery = try await subscriber.waitFor("discovery") {
            $0.hasPrefix("homeassistant/device/wundercast-") && $0.contains("/config ")
        }
        #expect(discovery.contains(#""default_entity_id""#) && !discovery.contains("object_id"), "\(discovery)")
        #expect(subscriber.lines.count(where: { $0.hasPrefix("homeassistant/") }) == 1, "discovery sent once")
        #expect(FileManager.default.fileExists(atPath: state + "/mqtt-discovery"), "what was published is kept")
        let status = try await daemon.ctl("status")
        #expect(
            status.stdout.contains("mqtt: mqtt://127.0.0.1:\(broker.port), connected for "), "\(status.stdout)")
        let json = try await daemon.ctl("status", "--json")
        #expect(
            json.stdout.contains(#""connected":true"#) && json.stdout.contains(#""messagesSent":"#), "\(json.stdout)")
        #expect(await daemon.stop() == 0)
        try await subscriber.waitFor(topic: "wundercast/van/availability", payload: "offline")
        #expect(subscriber.lines.count(where: { $0.hasPrefix("homeassistant/") }) == 1, "never with state updates")
    }

    /// kill -9: the broker publishes the will, `offline`, retained.
    @Test func aKilledDaemonIsOfflineByItsWill() async throws {
        let broker = try await MosquittoBroker.start()
        let http = try await FixtureHTTPServer()
        let subscriber = try broker.subscribe("wundercast/van/availability")
        let daemon = try await DaemonProcess(configuration: configuration(broker: broker.port, http: http))
        try await subscriber.waitFor(topic: "wundercast/van/availability", payload: "online")
        daemon.signal(SIGKILL)
        try await subscriber.waitFor(topic: "wundercast/van/availability", payload: "offline")
        let late = try broker.subscribe("wundercast/van/availability")
        try await late.waitFor(topic: "wundercast/van/availability", payload: "offline")
    }

    /// The broker restarts (keeping nothing): the daemon reconnects, says `online` again and
    /// publishes the current state and discovery; Home Assistant's birth message brings
    /// discovery again; `now` is answered throughout.
    @Test func aRestartedBrokerGetsTheCurrentStateAndDiscoveryAgain() async throws {
        let first = try await MosquittoBroker.start()
        let http = try await FixtureHTTPServer()
        let daemon = try await DaemonProcess(configuration: configuration(broker: first.port, http: http))
        let watching = try first.subscribe()
        try await watching.waitFor("a fresh state", timeout: .seconds(60)) {
            $0.hasPrefix("wundercast/van/state ") && $0.contains(#""status":"fresh""#)
        }
        await first.stop()
        #expect(try await daemon.now()["status"] as? String == "fresh", "the socket does not wait for the broker")
        let second = try await MosquittoBroker.start(port: first.port)
        let subscriber = try second.subscribe()
        try await subscriber.waitFor(topic: "wundercast/van/availability", payload: "online", timeout: .seconds(60))
        try await subscriber.waitFor("the state again") { $0.hasPrefix("wundercast/van/state ") }
        try await subscriber.waitFor("discovery again") { $0.hasPrefix("homeassistant/device/") }
        let before = subscriber.lines.count(where: { $0.hasPrefix("homeassistant/device/") })
        let birth = try await runProcess(
            "/usr/bin/mosquitto_pub",
            ["-h", "127.0.0.1", "-p", String(second.port), "-t", "homeassistant/status", "-m", "online"])
        #expect(birth.status == 0, "\(birth.stderr)")
        let seen = Mutex(0)
        try await subscriber.waitFor("discovery after the birth message") { line in
            seen.withLock { count in
                if line.hasPrefix("homeassistant/device/") { count += 1 }
                return count > before
            }
        }
        #expect(await daemon.stop() == 0)
    }

    /// The fleet shape README recommends: the daemon publishes to a broker on the vehicle, which
    /// bridges to the fleet broker over a flaky uplink (a `socat` relay). The link is cut for
    /// 30 s while the state changes; once it is back, the fleet broker holds the vehicle's
    /// newest state (the bridge stores and forwards; the daemon never waits for the uplink).
    @Test(.timeLimit(.minutes(2)))
    func aVehicleBridgedOverAFlakyLinkLeavesItsNewestStateOnTheFleetBroker() async throws {
        let fleet = try await MosquittoBroker.start()
        let relayPort = try GPSFake.freePort()
        func relay() throws -> ChildProcess {
            try ChildProcess([
                "/usr/bin/socat", "TCP-LISTEN:\(relayPort),bind=127.0.0.1,reuseaddr,fork",
                "TCP:127.0.0.1:\(fleet.port)",
            ])
        }
        var link = try relay()
        let vehicle = try await MosquittoBroker.start(
            extra: """
                connection fleet
                address 127.0.0.1:\(relayPort)
                topic wundercast/# out 1
                cleansession false
                restart_timeout 1
                """)
        let http = try await FixtureHTTPServer()
        let daemon = try await DaemonProcess(configuration: configuration(broker: vehicle.port, http: http))
        let watching = try fleet.subscribe("wundercast/van/state")
        try await watching.waitFor("a fresh state across the bridge", timeout: .seconds(60)) {
            $0.contains(#""status":"fresh""#)
        }
        // The uplink goes (the relay and every connection it forked), and the state changes.
        link.signalGroup(SIGKILL)
        _ = try? await link.exited(timeout: .seconds(10))
        try await vehicle.waitForLog(containing: ".fleet closed its connection")
        _ = try await daemon.ctl("authorize", "ask")
        let local = try vehicle.subscribe("wundercast/van/state")
        try await local.waitFor("the new state on the vehicle's broker") {
            $0.contains(#""authorization":"notDetermined""#)
        }
        #expect(!watching.lines.contains { $0.contains(#""authorization":"notDetermined""#) }, "the link is down")
        #expect(try await daemon.now()["authorization"] as? String == "notDetermined", "the daemon does not wait")
        // 30 s later the uplink is back: the fleet broker gets the newest state.
        try await Task.sleep(for: .seconds(30))  // the outage itself, not a synchronisation
        link = try relay()
        try await watching.waitFor("the newest state after the link is back", timeout: .seconds(60)) {
            $0.contains(#""authorization":"notDetermined""#)
        }
        let late = try fleet.subscribe("wundercast/van/state")
        try await late.waitFor("the retained newest state") { $0.contains(#""authorization":"notDetermined""#) }
        link.signalGroup(SIGKILL)
        #expect(await daemon.stop() == 0)
    }

    /// The password is read again on each SIGHUP: a rotated password file takes effect without a
    /// change of any key (the publisher starts again with it).
    @Test func aRotatedPasswordTakesEffectOnSIGHUP() async throws {
        let broker = try await MosquittoBroker.start(
            extra: "password_file $DIR/passwords",
            files: ["passwords": try await MosquittoBroker.passwordLine(user: "van", password: "new-one")],
            allowAnonymous: false)
        let http = try await FixtureHTTPServer()
        let directory = try DatagramSocket.temporaryDirectory()
        let passwordFile = directory + "/mqtt.password"
        try "old-one\n".write(toFile: passwordFile, atomically: true, encoding: .utf8)
        let daemon = try await DaemonProcess(
            configuration: configuration(
                broker: broker.port, http: http, extra: "Username=van\nPasswordFile=\(passwordFile)"))
        try await daemon.output.waitFor(containing: "refused the connection: Not authorized")
        try "new-one\n".write(toFile: passwordFile, atomically: true, encoding: .utf8)
        daemon.signal(SIGHUP)
        try await daemon.output.waitFor(containing: "the publisher starts again")
        try await daemon.output.waitFor(containing: "MQTT broker mqtt://127.0.0.1:\(broker.port): connected")
        #expect(!daemon.log.contains("new-one") && !daemon.log.contains("old-one"), "no password in the log")
        #expect(await daemon.stop() == 0)
    }

    /// A broker that takes the TCP connection and never answers (a dead relay, a hung broker):
    /// the socket answers throughout, `status` says not connected, and after the connect limit
    /// the daemon gives up on that attempt, says so once and retries with back-off.
    @Test func aBrokerThatNeverAnswersCostsTheSocketNothing() async throws {
        let (silent, port) = try LoopbackTCP.bind(listening: 8)  // accepted by the kernel, never read
        defer { close(silent) }
        let http = try await FixtureHTTPServer()
        let daemon = try await DaemonProcess(configuration: configuration(broker: port, http: http))
        _ = try await daemon.waitForState(timeout: .seconds(30), "fresh weather without the broker") {
            $0["status"] as? String == "fresh"
        }
        for _ in 0..<5 {
            #expect(try await daemon.now()["status"] as? String == "fresh")
            let status = try await daemon.ctl("status")
            #expect(status.stdout.contains("mqtt: mqtt://127.0.0.1:\(port), not connected"), "\(status.stdout)")
        }
        try await daemon.output.waitFor(
            containing: "no answer from the broker mqtt://127.0.0.1:\(port) within 30.0 seconds", timeout: .seconds(60))
        #expect(try await daemon.now()["status"] as? String == "fresh")
        #expect(await daemon.stop() == 0)
    }

    /// SIGHUP applies every `[MQTT]` key, reconnecting only when a key of the connection changed:
    /// a new `Precision=` and `OwnTracks=` go out on the same connection; a new `TopicPrefix=`
    /// (the will's topic) connects again.
    @Test func aReloadReconnectsOnlyWhenTheConnectionChanged() async throws {
        let broker = try await MosquittoBroker.start()
        let http = try await FixtureHTTPServer()
        let subscriber = try broker.subscribe()
        let daemon = try await DaemonProcess(
            configuration: configuration(broker: broker.port, http: http, extra: "ClientID=van-reload"))
        try await subscriber.waitFor(
            topic: "wundercast/van/location", payload: #"{"gps_accuracy":787,"latitude":59.91,"longitude":10.75}"#)
        // The broker's log is read by a thread of its own: counted once it shows a publish that
        // came after the connects in question.
        let connects = { broker.log.components(separatedBy: "as van-reload ").count - 1 }
        _ = try await broker.waitForLog(containing: "'wundercast/van/location'")
        #expect(connects() == 1, "\(broker.log.suffix(1500))")
        try daemon.rewriteConfiguration(
            configuration(broker: broker.port, http: http, extra: "ClientID=van-reload\nOwnTracks=me/van")
                .replacingOccurrences(of: "Precision=2", with: "Precision=1"))
        daemon.signal(SIGHUP)
        try await daemon.output.waitFor(containing: "(the connection kept)")
        try await subscriber.waitFor("the location at one decimal") {
            $0.hasPrefix("wundercast/van/location ") && $0.contains(#""latitude":59.9,"#)
        }
        try await subscriber.waitFor("OwnTracks") { $0.hasPrefix("owntracks/me/van ") }
        _ = try await broker.waitForLog(containing: "'owntracks/me/van'")
        #expect(connects() == 1, "no new connection: \(broker.log.suffix(1500))")
        #expect(
            subscriber.lines.count(where: { $0.hasPrefix("homeassistant/device/") }) == 1,
            "discovery is not sent again for a reload that did not change it")
        try daemon.rewriteConfiguration(
            configuration(broker: broker.port, http: http, extra: "ClientID=van-reload")
                .replacingOccurrences(of: "TopicPrefix=wundercast/van", with: "TopicPrefix=wundercast/boat"))
        daemon.signal(SIGHUP)
        try await daemon.output.waitFor(containing: "started again")
        try await subscriber.waitFor(topic: "wundercast/boat/availability", payload: "online")
        try await subscriber.waitFor(topic: "wundercast/van/availability", payload: "offline")
        _ = try await broker.waitForLog(containing: "'wundercast/boat/availability'")
        #expect(connects() == 2, "\(broker.log.suffix(1500))")
        #expect(await daemon.stop() == 0)
    }

    /// A broker behind a slow uplink (a relay that forwards 64 bytes every 20 ms, both ways):
    /// the daemon connects and publishes all the same, and the socket answers meanwhile.
    @Test func aBrokerBehindASlowRelayGetsTheStateAndTheSocketAnswersMeanwhile() async throws {
        let broker = try await MosquittoBroker.start()
        let relay = try ChildProcess(
            [
                "/usr/bin/python3", Fixtures.tools.appendingPathComponent("slow_relay.py").path, String(broker.port),
                "0.02", "64",
            ],
            stdinPipe: true)
        defer { relay.closeStdin() }
        let line = try await relay.output.waitFor("the relay's port") { $0.hasPrefix("PORT ") }
        let port = try #require(Int(line.dropFirst(5)))
        let http = try await FixtureHTTPServer()
        let subscriber = try broker.subscribe("wundercast/van/#")
        let daemon = try await DaemonProcess(configuration: configuration(broker: port, http: http))
        for _ in 0..<5 { #expect(try await daemon.now()["class"] as? String == "WEATHER") }
        try await subscriber.waitFor(topic: "wundercast/van/availability", payload: "online", timeout: .seconds(60))
        try await subscriber.waitFor("a fresh state through the slow relay", timeout: .seconds(60)) {
            $0.hasPrefix("wundercast/van/state ") && $0.contains(#""status":"fresh""#)
        }
        #expect(await daemon.stop() == 0)
    }

    /// Whether this machine lets the test run a silent DNS server on 127.0.0.77:53 (root) and the
    /// daemon in a mount namespace of its own with another `/etc/resolv.conf` (CI runs as root).
    static let silentDNSPossible: Bool = {
        guard geteuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare") else { return false }
        guard let probe = try? SilentDNS() else { return false }
        probe.close()
        // A bind mount in a mount namespace of its own (a container may not allow it).
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        process.arguments = ["-m", "--", "/bin/sh", "-c", "mount --bind /etc/resolv.conf /etc/resolv.conf"]
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }()

    /// A broker name whose DNS never answers: the lookup holds one thread of its own (never the
    /// reactor, never the pool), the socket answers throughout, and after the connect limit the
    /// attempt is given up, said once, and retried.
    @Test(.enabled(if: silentDNSPossible, "needs root (a DNS server on port 53 that never answers) and unshare -m"))
    func aBrokerNameWhoseDNSNeverAnswersCostsTheSocketNothing() async throws {
        let dns = try SilentDNS()
        defer { dns.close() }
        let directory = try DatagramSocket.temporaryDirectory()
        try "nameserver 127.0.0.77\noptions timeout:20 attempts:3\n".write(
            toFile: directory + "/resolv.conf", atomically: true, encoding: .utf8)
        let http = try await FixtureHTTPServer()
        let daemon = try await DaemonProcess(
            configuration: configuration(broker: 1883, http: http).replacingOccurrences(
                of: "mqtt://127.0.0.1:1883", with: "mqtt://broker.fleet.invalid:1883"),
            launcher: [
                "/usr/bin/unshare", "-m", "--", "/bin/sh", "-c",
                "mount --bind \(directory)/resolv.conf /etc/resolv.conf && exec \"$0\" \"$@\"",
            ])
        _ = try await daemon.waitForState(timeout: .seconds(30), "fresh weather while the lookup hangs") {
            $0["status"] as? String == "fresh"
        }
        for _ in 0..<5 {
            #expect(try await daemon.now()["status"] as? String == "fresh")
            let status = try await daemon.ctl("status")
            #expect(status.stdout.contains("mqtt: mqtt://broker.fleet.invalid:1883, not connected"), "\(status.stdout)")
        }
        let threads = DaemonThreadsTests.threads(of: daemon.pid).values
        #expect(threads.count(where: { $0 == "wundercast-mqtt" }) <= 1, "\(threads.sorted())")
        #expect(threads.count(where: { $0 == "wundercast-io" }) == 1)
        try await daemon.output.waitFor(
            containing: "no answer from the broker mqtt://broker.fleet.invalid:1883 within 30.0 seconds",
            timeout: .seconds(60))
        #expect(try await daemon.now()["status"] as? String == "fresh")
        #expect(await daemon.stop() == 0)
    }
}

/// A UDP socket on 127.0.0.77:53 that reads nothing and answers nothing: a DNS server that
/// never answers (the resolver waits out its time-outs).
struct SilentDNS {
    let fd: Int32

    struct Failure: Error {}

    init() throws {
        fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { throw Failure() }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(53).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.77")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard bound else {
            Glibc.close(fd)
            throw Failure()
        }
    }

    func close() { _ = Glibc.close(fd) }
}
