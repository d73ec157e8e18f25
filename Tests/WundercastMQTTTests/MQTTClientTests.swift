import Foundation
import Testing
import WundercastModel
@testable import WundercastMQTT
import WundercastPOSIX
import WundercastSupport
import WundercastTestSupport

/// `MQTTClient` against a real broker (Debian's mosquitto on a free loopback port), read back
/// with `mosquitto_sub` and the client's log. Every wait has a deadline of its own.
@Suite(
    .timeLimit(.minutes(1)),
    .enabled(if: MosquittoBroker.isInstalled, "needs Debian's mosquitto and mosquitto-clients"))
struct MQTTClientTests {
    /// The loop every client of these tests runs on (as the daemon's reactor).
    static let loop = try! EventLoop(name: "test-mqtt")

    func client(
        port: Int, log: CapturedLog, username: String? = nil, password: String? = nil,
        maximum: Duration = .milliseconds(200)
    ) -> MQTTClient {
        MQTTClient(
            settings: .init(
                host: "127.0.0.1", port: port, clientID: "wundercast-test-\(UUID().uuidString.prefix(8))",
                username: username, password: password, availabilityTopic: "van/availability",
                backoff: Backoff(initial: .milliseconds(50), maximum: maximum)),
            clock: ContinuousLoopClock(loop: Self.loop), logger: log.logger)
    }

    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    static func connected(_ entries: [CapturedLog.Entry], times: Int = 1) -> Bool {
        entries.count(where: { $0.field("MESSAGE_ID") == MessageID.brokerConnected }) >= times
    }

    /// No broker at the start: the client keeps trying (the outage logged once at warning
    /// level), connects once one listens, and publishes `online` and the newest state only.
    @Test func aBrokerDownAtStartIsConnectedOnceItListensWithTheNewestState() async throws {
        let port = try GPSFake.freePort()
        let log = CapturedLog()
        let client = client(port: port, log: log)
        client.start()
        client.publish("van/state", Self.bytes("first"))
        try #require(
            await log.wait { $0.count(where: { $0.message.contains("cannot reach the broker") }) >= 3 },
            "the client retries a broker that is down")
        client.publish("van/state", Self.bytes("second"))
        let broker = try await MosquittoBroker.start(port: port)
        #expect(await log.wait { Self.connected($0) }, "broker: \(broker.log)")
        let subscriber = try broker.subscribe()
        try await subscriber.waitFor(topic: "van/state", payload: "second")
        try await subscriber.waitFor(topic: "van/availability", payload: "online")
        #expect(!subscriber.lines.contains("van/state first"))
        let warnings = log.all.filter {
            $0.priority == .warning && $0.field("MESSAGE_ID") == MessageID.brokerDisconnected
        }
        #expect(warnings.count == 1, "the outage is logged once: \(warnings.map(\.message))")
        #expect(client.status.connected)
        #expect(client.status.broker == "mqtt://127.0.0.1:\(port)")
        await client.stop()
        try await subscriber.waitFor(topic: "van/availability", payload: "offline")
        #expect(!client.status.connected)
    }

    /// The broker restarts (nothing retained survives it: no persistence): the client
    /// reconnects, `online` again, and the retained state is the newest one published while
    /// the broker was away — nothing older is sent after the reconnect.
    @Test func aRestartedBrokerGetsOnlineAndOnlyTheNewestStateAgain() async throws {
        let log = CapturedLog()
        let first = try await MosquittoBroker.start()
        let client = client(port: first.port, log: log)
        client.start()
        client.publish("van/state", Self.bytes("s1"))
        let watching = try first.subscribe()
        try await watching.waitFor(topic: "van/state", payload: "s1")
        await first.stop()
        #expect(await log.wait { $0.contains { $0.message.contains("lost the broker") } })
        for n in 2...1000 { client.publish("van/state", Self.bytes("s\(n)")) }
        let second = try await MosquittoBroker.start(port: first.port)
        let subscriber = try second.subscribe()
        #expect(await log.wait { Self.connected($0, times: 2) }, "broker: \(second.log)")
        #expect(log.all.contains { $0.message.contains("connected again") && $0.priority == .info })
        try await subscriber.waitFor(topic: "van/state", payload: "s1000")
        try await subscriber.waitFor(topic: "van/availability", payload: "online")
        let states = subscriber.lines.filter { $0.hasPrefix("van/state ") }
        #expect(states == ["van/state s1000"], "only the newest state after the reconnect: \(states)")
        // A subscriber that comes later gets the retained ones.
        let late = try second.subscribe()
        try await late.waitFor(topic: "van/state", payload: "s1000")
        try await late.waitFor(topic: "van/availability", payload: "online")
        await client.stop()
    }

    /// Wrong credentials: the refusal is logged once with the broker's reason, the retries wait
    /// a growing back-off, and nothing else is refused meanwhile.
    @Test func badCredentialsAreLoggedOnceAndRetriedWithGrowingBackoff() async throws {
        let broker = try await MosquittoBroker.start(
            extra: "password_file $DIR/passwords",
            files: ["passwords": try await MosquittoBroker.passwordLine(user: "van", password: "right")],
            allowAnonymous: false)
        let log = CapturedLog()
        let client = client(port: broker.port, log: log, username: "van", password: "wrong", maximum: .seconds(1))
        client.start()
        let refusals: @Sendable ([CapturedLog.Entry]) -> [CapturedLog.Entry] = { entries in
            entries.filter { $0.message.contains("refused the connection") }
        }
        #expect(await log.wait { refusals($0).count >= 4 }, "broker: \(broker.log)")
        let entries = refusals(log.all)
        #expect(entries.first?.message.contains("Not authorized") == true, "\(log.all.map(\.message))")
        #expect(entries.count(where: { $0.priority == .warning }) == 1, "logged once: \(entries.map(\.message))")
        // Every failed attempt's wait: the refusals', and any attempt that found the process's one
        // connect thread held by a test beside it (a quiet failure, at debug level).
        let delays = log.all.compactMap { $0.field(MQTTClient.retryDelayField).flatMap(Int.init) }
        // Each wait is twice the one before, up to the maximum (the first may already be past
        // 50 ms for that same reason).
        #expect(delays.count >= 4 && delays[0] >= 50, "\(delays)")
        #expect(zip(delays, delays.dropFirst()).allSatisfy { $1 == min($0 * 2, 1000) }, "\(delays)")
        #expect(!client.status.connected)
        #expect(client.status.lastError?.contains("Not authorized") == true)
        await client.stop()
        #expect(!log.texts.contains { $0.contains("wrong") }, "the password is never logged")
    }

    /// A topic the broker's ACL forbids: the refusal (PUBACK 135) is logged once per topic and
    /// reason, the message is not counted, and the topics it allows go on.
    @Test func aTopicTheACLForbidsIsLoggedOnceAndTheOthersGoOn() async throws {
        let broker = try await MosquittoBroker.start(
            extra: "acl_file $DIR/acl",
            files: ["acl": "topic readwrite van/state\ntopic readwrite van/availability\n"])
        let log = CapturedLog()
        let client = client(port: broker.port, log: log)
        client.start()
        client.publish("van/secret", Self.bytes("a"))
        client.publish("van/state", Self.bytes("s1"))
        let subscriber = try broker.subscribe("van/state")
        try await subscriber.waitFor(topic: "van/state", payload: "s1")
        let refused: @Sendable ([CapturedLog.Entry]) -> Bool = { entries in
            entries.contains { $0.field("MESSAGE_ID") == MessageID.publishRefused }
        }
        #expect(await log.wait(until: refused), "broker: \(broker.log)")
        client.publish("van/secret", Self.bytes("b"))
        client.publish("van/state", Self.bytes("s2"))
        try await subscriber.waitFor(topic: "van/state", payload: "s2")
        #expect(await log.wait { entries in entries.count(where: { $0.message.contains("refused a message") }) >= 1 })
        let entry = try #require(log.all.first { $0.field("MESSAGE_ID") == MessageID.publishRefused })
        #expect(entry.field("WUNDERCAST_MQTT_TOPIC") == "van/secret")
        #expect(entry.field("WUNDERCAST_MQTT_REASON") == "135")
        #expect(client.status.lastError?.contains("van/secret") == true)
        await client.stop()
        #expect(log.all.count(where: { $0.field("MESSAGE_ID") == MessageID.publishRefused }) == 1)
        #expect(client.status.connected == false)
    }

    /// Two clients with one ClientID: the broker gives the session to the newer, and each takes
    /// it back in turn. Neither floods the log (the loss of a connection that did not last is
    /// not news: one warning each) nor reconnects in a tight loop (the back-off keeps growing to
    /// its maximum, since no connection lasts).
    @Test func twoClientsWithOneClientIDLogOnceAndBackOffToTheMaximum() async throws {
        let broker = try await MosquittoBroker.start()
        let (firstLog, secondLog) = (CapturedLog(), CapturedLog())
        let settings = MQTTClient.Settings(
            host: "127.0.0.1", port: broker.port, clientID: "wundercast-twin", availabilityTopic: "van/availability",
            backoff: Backoff(initial: .milliseconds(50), maximum: .milliseconds(400)))
        let clock = ContinuousLoopClock(loop: Self.loop)
        let first = MQTTClient(settings: settings, clock: clock, logger: firstLog.logger)
        let second = MQTTClient(settings: settings, clock: clock, logger: secondLog.logger)
        first.start()
        #expect(await firstLog.wait { Self.connected($0) })
        second.start()
        let retries: @Sendable ([CapturedLog.Entry]) -> [Int] = { entries in
            entries.compactMap { $0.field(MQTTClient.retryDelayField).flatMap(Int.init) }
        }
        #expect(await firstLog.wait { retries($0).filter { $0 == 400 }.count >= 2 }, "\(retries(firstLog.all))")
        await first.stop()
        await second.stop()
        for log in [firstLog, secondLog] {
            let delays = retries(log.all)
            #expect(delays == delays.sorted(), "the back-off only grows: \(delays)")
            let warnings = log.all.filter { $0.priority == .warning }
            #expect(warnings.count <= 1, "\(warnings.map(\.message))")
            #expect(
                log.all.count(where: { $0.priority == .info }) <= 2,
                "connected at info level once, and once again after the one warning")
        }
    }

    /// A broker that says why it ended the session (MQTT 5 DISCONNECT reason 142, Session taken
    /// over: EMQX, HiveMQ; Debian's mosquitto 2.0.11 closes without it, the test above): logged
    /// once as a takeover, and the next attempt waits the back-off's maximum — no loop. The
    /// broker is a stand-in on a loopback socket that answers one CONNECT with CONNACK 0 and
    /// that DISCONNECT, then counts the connections that follow within its bound.
    @Test func aSessionTakenOverIsLoggedAsSuchAndRetriedOnlyAtTheMaximum() async throws {
        let (listener, port) = try LoopbackTCP.bind(listening: 4)
        var bound = timeval(tv_sec: 3, tv_usec: 0)
        setsockopt(listener, SOL_SOCKET, SO_RCVTIMEO, &bound, socklen_t(MemoryLayout<timeval>.size))
        let broker = Task {
            try await onDedicatedThread("takeover broker") { () -> Int in
                defer { close(listener) }
                let first = accept(listener, nil, nil)
                guard first >= 0 else { return -1 }
                defer { close(first) }
                var buffer = [UInt8](repeating: 0, count: 512)
                _ = read(first, &buffer, buffer.count)  // CONNECT (one loopback segment)
                // CONNACK (session present 0, reason 0, no properties), DISCONNECT reason 142.
                let answer: [UInt8] = [0x20, 0x03, 0x00, 0x00, 0x00, 0xE0, 0x02, 0x8E, 0x00]
                _ = write(first, answer, answer.count)
                // Connections within the next 3 s (SO_RCVTIMEO bounds accept): none expected.
                var more = 0
                while case let next = accept(listener, nil, nil), next >= 0 {
                    more += 1
                    close(next)
                }
                return more
            }
        }
        let log = CapturedLog()
        let client = client(port: port, log: log, maximum: .seconds(30))
        client.start()
        let takeover: @Sendable ([CapturedLog.Entry]) -> [CapturedLog.Entry] = { entries in
            entries.filter { $0.message.contains("gave the session to another client") }
        }
        #expect(await log.wait { !takeover($0).isEmpty }, "\(log.texts)")
        let entry = try #require(takeover(log.all).first)
        #expect(entry.priority == .warning)
        #expect(entry.field(MQTTClient.retryDelayField) == "30000", "the next attempt waits the maximum")
        #expect(client.status.lastError?.contains("another client with ClientID") == true)
        #expect(!client.status.connected)
        #expect(try await broker.value == 0, "no reconnect within 3 s of the takeover")
        await client.stop()
    }
}
