import Foundation
import Testing
import WundercastTestSupport

/// The real daemon's threads (`/proc/<pid>/task`), against a fake gpsd and the fixture HTTP
/// server. Of ours there are two: the main thread (`wundercastd`, waiting for the daemon's
/// task) and the reactor (`wundercast-io`); the rest are libdispatch's — the cooperative pool
/// (`com.apple.root.default-qos`, at most a thread a core, each leaving after about 5 s idle)
/// and one overcommit worker (its event manager, behind `Task.sleep`'s timers). Measured on
/// 2 cores: 5 when gpsd's one fix has been fetched for, 3 once the pool has gone idle (at
/// rest), 5 at most while fixes stream. Targets: at most 4 at rest, at most 6 streaming.
@Suite(.serialized, .timeLimit(.minutes(2))) struct DaemonThreadsTests {
    static let home = (latitude: 48.1372, longitude: 11.5756)

    static func configuration(gpsdPort: Int, http: FixtureHTTPServer) -> String {
        """
        [Location]
        Authorization=always
        GPSD=127.0.0.1:\(gpsdPort)
        MaxHorizontalError=10km
        [Throttle]
        MinInterval=1s
        MinDistance=50m
        MaxAge=1h
        [Weather]
        URL=\(http.baseURL)
        Precision=4
        Timeout=5s
        """
    }

    /// The threads of process `pid`: task id → name (`/proc/<pid>/task/*/comm`, 15 bytes).
    static func threads(of pid: pid_t) -> [Int: String] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        var names: [Int: String] = [:]
        for task in tasks {
            guard let id = Int(task),
                let comm = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/comm", encoding: .utf8)
            else { continue }
            names[id] = comm.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        return names
    }

    /// The cooperative pool's threads (/proc shows the last 15 bytes of a longer name).
    static let pool = "oot.default-qos"
    /// libdispatch's overcommit workers (`com.apple.root.default-qos.overcommit`).
    static let overcommit = "-qos.overcommit"

    /// How far libdispatch's pool may grow on Linux: it aims at a runnable thread a core, and
    /// when its once-a-second monitor finds a worker not runnable (preempted into a futex wait
    /// or a page fault, as on a loaded machine) it adds one, up to `WORKQ_OVERSUBSCRIBE_FACTOR`
    /// (2) threads a core (`src/event/workqueue.c`). Seen in CI beside `stress-ng --cpu 2`:
    /// 3 pool threads on 2 cores, the moment the weather had been fetched.
    static let poolLimit = 2 * ProcessInfo.processInfo.activeProcessorCount

    /// What is wrong with `threads` (empty: nothing): ours are exactly the main thread and the
    /// reactor, the pool within libdispatch's limit (`poolLimit`), at most one overcommit
    /// worker, nothing else (a thread of a C library would carry its maker's name: ours, so
    /// two of a name).
    static func problems(_ threads: [Int: String]) -> [String] {
        let names = threads.values.sorted()
        var problems: [String] = []
        if names.count(where: { $0 == "wundercastd" }) != 1 { problems.append("not one main thread") }
        if names.count(where: { $0 == "wundercast-io" }) != 1 { problems.append("not one reactor") }
        if names.count(where: { $0 == pool }) > poolLimit {
            problems.append("the pool past libdispatch's limit")
        }
        if names.count(where: { $0 == overcommit }) > 1 { problems.append("more than one overcommit worker") }
        let others = names.filter { !["wundercastd", "wundercast-io", pool, overcommit].contains($0) }
        if !others.isEmpty { problems.append("threads of no known maker: \(others)") }
        return problems.map { "\($0): \(names)" }
    }

    /// At rest the pool's threads leave after libdispatch's idle time-out (about 5 s); no
    /// event tells another process of a thread's end, so /proc is looked at every 0.25 s
    /// until they have gone (a deadline of 20 s: a fail, not a hang, if they stay).
    static func expectFewAtRest(_ daemon: DaemonProcess) async throws {
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(20)
        var rest = threads(of: daemon.pid)
        while rest.count > 4 || !problems(rest).isEmpty, clock.now < deadline {
            try await Task.sleep(for: .milliseconds(250))
            rest = threads(of: daemon.pid)
        }
        print("threads at rest: \(rest.values.sorted())")
        #expect(rest.count <= 4, "at rest: \(rest.values.sorted())")
        #expect(problems(rest).isEmpty, "\(problems(rest))")
    }

    /// With `[MQTT]` on and connected, publishing: the same threads at rest. libmosquitto has no
    /// thread of its own (the reactor drives it); the short-lived connect thread
    /// (`wundercast-mqtt`, getaddrinfo and connect) is gone once connected.
    @Test(.enabled(if: MosquittoBroker.isInstalled, "needs Debian's mosquitto"))
    func withMQTTOnTheThreadsAtRestAreTheSame() async throws {
        let gpsd = try FakeGPSD(script: [.fix(latitude: Self.home.latitude, longitude: Self.home.longitude), .hold])
        defer { gpsd.stop() }
        let http = try await FixtureHTTPServer()
        defer { http.stop() }
        let broker = try await MosquittoBroker.start()
        let subscriber = try broker.subscribe("wundercast/threads/state")
        let daemon = try await DaemonProcess(
            configuration: Self.configuration(gpsdPort: gpsd.port, http: http)
                + "\n[MQTT]\nBroker=mqtt://127.0.0.1:\(broker.port)\nTopicPrefix=wundercast/threads\n")
        try await subscriber.waitFor("a fresh state on the broker", timeout: .seconds(60)) {
            $0.contains(#""status":"fresh""#)
        }
        try await Self.expectFewAtRest(daemon)
        await daemon.stop()
    }

    @Test func fewThreadsAtRestAndWhileFixesStream() async throws {
        let gpsd = try FakeGPSD(script: [.fix(latitude: Self.home.latitude, longitude: Self.home.longitude), .hold])
        defer { gpsd.stop() }
        let http = try await FixtureHTTPServer()
        defer { http.stop() }
        let daemon = try await DaemonProcess(configuration: Self.configuration(gpsdPort: gpsd.port, http: http))
        // At rest: gpsd connected (its one fix sent, the connection held), weather fetched for it.
        try await gpsd.connectionsReach(1)
        _ = try await daemon.waitForState(timeout: .seconds(30), "fresh weather at the fix") {
            $0["status"] as? String == "fresh" && $0["weather"] != nil
        }
        let fetched = Self.threads(of: daemon.pid)
        print("threads once the weather is fetched: \(fetched.values.sorted())")
        #expect(Self.problems(fetched).isEmpty, "\(Self.problems(fetched))")
        try await Self.expectFewAtRest(daemon)

        // Streaming: a fix every 50 ms on a new connection; counted after each of 10 fixes seen.
        try gpsd.play(GPSDStep.healthy(latitude: Self.home.latitude, longitude: Self.home.longitude, interval: 0.05))
        try await gpsd.connectionsReach(2)
        var most: [Int: String] = [:]
        for _ in 0..<10 {
            let last = gpsd.fixes.last?.sentAt ?? 0
            try await gpsd.outputLog.waitFor("a fix sent after \(last)") { line in
                let fields = line.split(separator: " ")
                return fields.count == 4 && fields[0] == "fix" && (Double(fields[3]) ?? 0) > last
            }
            let now = Self.threads(of: daemon.pid)
            if now.count > most.count { most = now }
        }
        print("threads while fixes stream (most): \(most.values.sorted())")
        // 6 on up to 3 cores; the pool may take a thread a core beyond (its width).
        let cores = ProcessInfo.processInfo.activeProcessorCount
        #expect(most.count <= max(6, 3 + cores), "while fixes stream: \(most.values.sorted())")
        #expect(Self.problems(most).isEmpty, "\(Self.problems(most))")
        await daemon.stop()
    }
}
