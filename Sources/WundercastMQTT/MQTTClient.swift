#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CMosquitto
import Synchronization
import WundercastModel
import WundercastPOSIX
import WundercastSupport

/// A publisher's connection to an MQTT broker (libmosquitto, MQTT 5), driven by the daemon's
/// reactor: no thread of libmosquitto's, no blocking call on the loop. The reconnect and its
/// back-off are ours (libmosquitto's own loop does not retry a first connect to a broker that
/// is down: PITFALLS), shaped as gpsd's.
///
/// The states, one handler per event, all on ``clock``'s loop:
///
///     idle ──start──▶ connecting (a connect thread: getaddrinfo, connect; CONNECT queued)
///     connecting ──socket──▶ handshaking (socket on the loop; TLS, then CONNECT) ──CONNACK 0──▶ connected
///     connecting, handshaking ──failed, refused, no CONNACK in connectLimit──▶ backingOff
///     connected ──read/write/keep-alive failed, DISCONNECT from the broker──▶ backingOff ──delay──▶ connecting
///     any ──stop──▶ (connected: `offline`, its PUBACK or offlineWait, DISCONNECT) finished
///
/// What is published is kept as the newest message per topic, nothing else: while the broker
/// is away nothing queues, and after each connect `online` goes first, then the newest of each
/// topic — the current state, never a backlog. Each topic has at most one message in flight;
/// a newer one waits for it (replacing any that waited), so libmosquitto's own queue stays as
/// small as the set of topics even when the broker is slow.
// `@unchecked Sendable`: its connection holds libmosquitto's `struct mosquitto *` (C); every
// member but `published` and `statusBox` (Mutex) is touched only on the loop, checked at each
// entry point.
public final class MQTTClient: @unchecked Sendable {
    /// A message the client keeps for a topic.
    struct Message: Equatable {
        var payload: [UInt8]
        var retain: Bool
    }

    private enum State {
        case idle
        /// A connect thread runs for `handle`; `limit` ends the wait.
        case connecting(MosquittoHandle, limit: LoopTimer)
        /// The socket is on the loop; waiting for CONNACK (`tls`: the handshake may still run).
        case handshaking(Connection, limit: LoopTimer)
        case connected(Connection)
        case backingOff(LoopTimer)
        /// `stop` was asked while connected: `offline` sent, waiting for its PUBACK.
        case stopping(Connection, offline: Int32, limit: LoopTimer)
        case finished
    }

    /// One connection's handle and its registration on the loop.
    private struct Connection {
        let handle: MosquittoHandle
        let registration: EventLoop.Registration
    }

    /// Timer names (a test on a manual clock finds them by name).
    static let backoffTimer = "mqtt back-off"
    static let connectTimer = "mqtt connect limit"
    static let miscTimer = "mqtt keep-alive"
    static let offlineTimer = "mqtt offline wait"

    /// Journal field carrying the back-off delay of a failed attempt, in milliseconds.
    static let retryDelayField = "WUNDERCAST_MQTT_RETRY_MS"

    public let settings: Settings
    private let clock: any LoopClock
    private let logger: Logger
    private let onMessage: @Sendable (String, [UInt8]) -> Void
    private var loop: EventLoop { clock.loop }

    private var state = State.idle
    /// The newest message of each topic, sent or not.
    private var newest: [String: Message] = [:]
    /// Topics whose newest message has not been handed to libmosquitto on this connection.
    private var unsent: Set<String> = []
    /// Messages to deliver once each, in order, before the newest of each topic (``publish(inOrder:)``);
    /// each leaves when the broker took it. At most ``inOrderLimit``.
    private var inOrder: [(topic: String, message: Message)] = []
    /// How many of ``inOrder`` are handed to libmosquitto on this connection.
    private var inOrderSent = 0
    /// Message ids of ``inOrder`` messages in flight.
    private var inOrderInFlight: Set<Int32> = []
    static let inOrderLimit = 32

    /// Connect threads of every client of the process: at most one at a time, so that a name
    /// whose lookup never ends holds one thread, however many reloads made new clients.
    static let connectThreads = ThreadQuota(limit: 1)
    /// Message ids in flight on this connection, and their topics.
    private var inFlight: [Int32: String] = [:]
    private var failures = 0
    private var connectedAt: Duration?
    /// A connect thread is running (one at most: a DNS that never answers holds it).
    private var connectThreadRunning = false
    /// The last failure logged at warning level, so each new reason is logged once.
    private var loggedFailure: String?
    private var inOutage = false
    /// A session takeover was logged (until a connection stays up `stableAfter`).
    private var takeoverLogged = false
    /// A connect was logged at info level since the last warning.
    private var connectAnnounced = false
    /// Refused messages already logged (topic and reason).
    private var refusalsLogged: Set<String> = []
    private var miscTimer: LoopTimer?
    private var stopWaiters: [CheckedContinuation<Void, Never>] = []

    private let statusBox: Mutex<Status>

    /// - Parameters:
    ///   - onMessage: a message on a subscribed topic (topic, payload), on the loop's thread.
    public init(
        settings: Settings, clock: any LoopClock, logger: Logger,
        onMessage: @escaping @Sendable (String, [UInt8]) -> Void = { _, _ in }
    ) {
        self.settings = settings
        self.clock = clock
        self.logger = logger
        self.onMessage = onMessage
        statusBox = Mutex(
            Status(broker: settings.broker, connected: false, since: nil, lastError: nil, messagesSent: 0))
    }

    /// What `status` shows (any thread).
    public var status: Status { statusBox.withLock { $0 } }

    /// Starts connecting (any thread; once).
    public func start() {
        loop.post { [self] in
            guard case .idle = state else { return }
            attempt()
        }
    }

    /// Keeps `payload` as the newest message of `topic` and sends it when the broker is
    /// connected and no older message of the topic is in flight (any thread). `retain`: the
    /// broker keeps it for subscribers that come later.
    public func publish(_ topic: String, _ payload: [UInt8], retain: Bool = true) {
        loop.post { [self] in
            if case .finished = state { return }
            newest[topic] = Message(payload: payload, retain: retain)
            unsent.insert(topic)
            sendUnsent()
        }
    }

    /// Delivers `messages` once each, in this order, before any newest-of-a-topic message that
    /// is not in flight yet (any thread): for sequences where each step must reach subscribers,
    /// such as Home Assistant's removal of a discovered component (its config with the component
    /// reduced to its platform, then the config without it). Not replaced by later messages,
    /// and sent again after a reconnect until the broker took each. Beyond ``inOrderLimit``
    /// waiting, the oldest are dropped.
    public func publish(inOrder messages: [(topic: String, payload: [UInt8])], retain: Bool = true) {
        loop.post { [self] in
            if case .finished = state { return }
            inOrder += messages.map { ($0.topic, Message(payload: $0.payload, retain: retain)) }
            if inOrder.count > Self.inOrderLimit {
                let dropped = inOrder.count - Self.inOrderLimit
                logger.warning("MQTT broker \(settings.broker): \(dropped) ordered messages dropped while it is away")
                inOrder.removeFirst(dropped)
                inOrderSent = max(0, inOrderSent - dropped)
            }
            sendUnsent()
        }
    }

    /// A clean stop: when connected, publishes `offline` (retained, QoS 1) and waits up to
    /// ``Settings/offlineWait`` for the broker's PUBACK, then DISCONNECT (so the broker drops
    /// the will); then closes. Returns once finished. Idempotent.
    public func stop() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let posted = loop.post { [self] in
                stopWaiters.append(continuation)
                beginStop()
            }
            if !posted { continuation.resume() }
        }
    }

    // MARK: - Connecting

    /// → connecting: a new handle, connected on a thread of its own (getaddrinfo blocks).
    private func attempt() {
        guard !connectThreadRunning else {
            return failed("the last connect to \(settings.broker) has not returned yet (name lookup)", quiet: inOutage)
        }
        guard Self.connectThreads.startOne() else {
            // Another client's connect (one a reload replaced) still runs: wait for it, quietly
            // (whatever holds it was logged by that client).
            return failed("an earlier connect to a broker has not returned yet (name lookup)", quiet: true)
        }
        let handle: MosquittoHandle
        do {
            handle = try MosquittoHandle(
                clientID: settings.clientID,
                will: .init(topic: settings.availabilityTopic, payload: Array("offline".utf8), qos: 1, retain: true),
                username: settings.username, password: settings.password,
                tls: settings.tls.map { .init(caFile: $0.caFile, certFile: $0.certFile, keyFile: $0.keyFile) })
        } catch {
            return failed("cannot set up the MQTT client: \(error)")
        }
        let limit = clock.schedule(at: clock.now + settings.connectLimit, name: Self.connectTimer) { [self] in
            connectTimedOut()
        }
        state = .connecting(handle, limit: limit)
        connectThreadRunning = true
        let (host, port, keepAlive, loop) = (
            settings.host, settings.port, Int32(settings.keepAlive.components.seconds), loop
        )
        do {
            try DetachedThread.run(name: "wundercast-mqtt") {
                let code = handle.connect(host: host, port: port, keepAlive: keepAlive)
                Self.connectThreads.ended()
                // errno is this thread's: read it here.
                let failure = code == MOSQ_ERR_SUCCESS.rawValue ? nil : MosquittoHandle.text(of: code)
                loop.post { [self] in connectReturned(handle, failure: failure) }
            }
        } catch {
            connectThreadRunning = false
            Self.connectThreads.ended()
            clock.cancel(limit)
            failed("cannot start the connect thread: \(error)")
        }
    }

    /// The connect thread returned: connecting → handshaking, or → backingOff. A return for a
    /// handle the client gave up on (time limit, stop) is dropped with its handle.
    private func connectReturned(_ handle: MosquittoHandle, failure: String?) {
        loop.preconditionOnLoop()
        connectThreadRunning = false
        guard case .connecting(let current, let limit) = state, current === handle else { return }
        guard failure == nil, handle.socket >= 0 else {
            clock.cancel(limit)
            return failed("cannot reach the broker \(settings.broker): \(failure ?? "no socket")")
        }
        let registration: EventLoop.Registration
        do throws(Errno) {
            registration = try loop.register(handle.socket, for: [.readable, .writable]) { [self] events in
                socketReady(events)
            }
        } catch {
            clock.cancel(limit)
            return failed("cannot watch the broker's socket: \(error)")
        }
        state = .handshaking(Connection(handle: handle, registration: registration), limit: limit)
        scheduleMisc()
    }

    private func connectTimedOut() {
        switch state {
        case .connecting, .handshaking:
            failed("no answer from the broker \(settings.broker) within \(settings.connectLimit)")
        default: break
        }
    }

    // MARK: - I/O

    private var connection: Connection? {
        switch state {
        case .handshaking(let connection, _), .connected(let connection), .stopping(let connection, _, _):
            connection
        default: nil
        }
    }

    /// The socket is readable or writable (or hung up): let libmosquitto read and write, then
    /// handle what its callbacks reported.
    private func socketReady(_ events: EventLoop.Events) {
        guard let connection else { return }
        var failure: String?
        // A TLS handshake advances in loop_read, on either readiness (loop_write does not
        // advance it); CONNECT, queued at connect, leaves in loop_write once it is done.
        if !events.isDisjoint(with: [.readable, .hangUp]) || isHandshaking {
            failure = Self.failure(of: connection.handle.read())
        }
        if failure == nil {
            failure = Self.failure(of: connection.handle.write())
        }
        afterIO(connection, failure: failure)
    }

    /// libmosquitto's text for a failed call, read at once (errno is still the call's).
    private static func failure(of code: Int32) -> String? {
        code == MOSQ_ERR_SUCCESS.rawValue ? nil : MosquittoHandle.text(of: code)
    }

    private var isHandshaking: Bool {
        if case .handshaking = state { true } else { false }
    }

    /// After a call into libmosquitto: its events, then a failure, then what to wait for.
    private func afterIO(_ connection: Connection, failure: String?) {
        handle(connection.handle.takeEvents(), of: connection)
        guard self.connection?.handle === connection.handle else { return }  // the events ended it
        if let failure {
            return lose("lost the broker \(settings.broker): \(failure)")
        }
        // Writable only while something waits to be written; while a TLS handshake runs, only
        // the first writable (the TCP connect's end) matters, then the broker's answers do.
        let writable = connection.handle.wantsWrite && !isHandshaking
        loop.modify(connection.registration, for: writable ? [.readable, .writable] : .readable)
    }

    private func scheduleMisc() {
        miscTimer = clock.schedule(at: clock.now + .seconds(1), name: Self.miscTimer) { [self] in
            miscTimer = nil
            guard let connection else { return }
            afterIO(connection, failure: Self.failure(of: connection.handle.misc()))
            if self.connection != nil { scheduleMisc() }
        }
    }

    // MARK: - Events

    private func handle(_ events: [MosquittoHandle.Event], of connection: Connection) {
        for event in events {
            guard self.connection?.handle === connection.handle else { return }
            switch event {
            case .connack(let reason):
                reason == 0 ? accepted(connection) : refused(reason)
            case .disconnected(let reason):
                if case .stopping = state { return finish() }
                if reason == MQTT_RC_SESSION_TAKEN_OVER.rawValue { return takenOver() }
                lose(disconnectText(reason))
            case .published(let mid, let reason):
                published(mid: mid, reason: reason)
            case .message(let topic, let payload):
                onMessage(topic, payload)
            }
        }
    }

    /// CONNACK 0: handshaking → connected; `online`, subscriptions, the newest of each topic.
    private func accepted(_ connection: Connection) {
        guard case .handshaking(_, let limit) = state else { return }
        clock.cancel(limit)
        state = .connected(connection)
        connectedAt = clock.now
        inFlight = [:]
        inOrderSent = 0
        inOrderInFlight = []
        unsent = Set(newest.keys)
        update {
            $0.connected = true; $0.since = Date()
        }
        // After connections that did not last (a flapping link, another client with this
        // ClientID), a connect is news only at debug level: the outage is not over yet.
        // The first connect after a warning says so at info level; the connects of connections
        // that then do not last (a flapping link) only at debug level.
        let announce = !connectAnnounced
        connectAnnounced = true
        logger.log(
            announce ? .info : .debug, "MQTT broker \(settings.broker): connected\(inOutage ? " again" : "")",
            fields: [("MESSAGE_ID", MessageID.brokerConnected), ("WUNDERCAST_BROKER", settings.broker)])
        _ = connection.handle.publish(
            topic: settings.availabilityTopic, payload: Array("online".utf8), qos: settings.qos, retain: true)
        for topic in settings.subscriptions { _ = connection.handle.subscribe(topic: topic) }
        sendUnsent()
    }

    private func refused(_ reason: Int32) {
        failed("the broker \(settings.broker) refused the connection: \(MosquittoHandle.reasonText(reason))")
    }

    private func disconnectText(_ reason: Int32) -> String {
        let why = reason > 0 && reason < 128 ? MosquittoHandle.text(of: reason) : MosquittoHandle.reasonText(reason)
        return "lost the broker \(settings.broker): \(why)"
    }

    /// A message left or was acknowledged: counted, a refusal logged once, and the topic's
    /// next message (if one waited) sent.
    private func published(mid: Int32, reason: Int32) {
        if case .stopping(_, let offline, _) = state, mid == offline { return disconnectNow() }
        if inOrderInFlight.remove(mid) != nil {
            // The oldest handed over is the one acknowledged (the broker answers in order).
            if !inOrder.isEmpty { inOrder.removeFirst() }
            inOrderSent = max(0, inOrderSent - 1)
        }
        let topic = inFlight.removeValue(forKey: mid)
        if reason >= 128 {
            let text = MosquittoHandle.reasonText(reason)
            let key = "\(topic ?? "?") \(reason)"
            update { $0.lastError = "the broker refused a message on \(topic ?? "?"): \(text)" }
            if refusalsLogged.insert(key).inserted {
                logger.log(
                    .warning,
                    "MQTT broker \(settings.broker) refused a message on \(topic ?? "?"): \(text) (\(reason))",
                    fields: [
                        ("MESSAGE_ID", MessageID.publishRefused), ("WUNDERCAST_BROKER", settings.broker),
                        ("WUNDERCAST_MQTT_TOPIC", topic ?? "?"), ("WUNDERCAST_MQTT_REASON", String(reason)),
                    ])
            }
        } else {
            update { $0.messagesSent += 1 }
        }
        sendUnsent()
    }

    /// Hands libmosquitto the newest message of each topic that has none in flight.
    private func sendUnsent() {
        guard case .connected(let connection) = state else { return }
        while inOrderSent < inOrder.count {
            let (topic, message) = inOrder[inOrderSent]
            let (code, mid) = connection.handle.publish(
                topic: topic, payload: message.payload, qos: settings.qos, retain: message.retain)
            guard code == MOSQ_ERR_SUCCESS.rawValue else { return }
            inOrderSent += 1
            inOrderInFlight.insert(mid)
            inFlight[mid] = topic
        }
        let busy = Set(inFlight.values)
        for topic in unsent.sorted() where !busy.contains(topic) {
            guard let message = newest[topic] else { continue }
            let (code, mid) = connection.handle.publish(
                topic: topic, payload: message.payload, qos: settings.qos, retain: message.retain)
            guard code == MOSQ_ERR_SUCCESS.rawValue else {
                // Only a connection that is going away refuses to queue; its loss is handled
                // by the next read or write.
                logger.debug(
                    "MQTT broker \(settings.broker): not queued on \(topic): \(MosquittoHandle.text(of: code))")
                return
            }
            unsent.remove(topic)
            inFlight[mid] = topic
        }
        afterIO(connection, failure: nil)
    }

    // MARK: - Failures

    /// The broker gave the session to another client with this ClientID (MQTT 5 reason 142):
    /// two daemons share it, and each would take it back from the other. Logged once (again only
    /// after a connection stayed up `stableAfter`), then retried at the back-off's maximum, never
    /// in a tight loop.
    private func takenOver() {
        noteEnd(ofConnectionUpSince: connectedAt)
        let reason =
            "the broker \(settings.broker) gave the session to another client with ClientID \(settings.clientID) (another daemon with this ClientID?)"
        let quiet = takeoverLogged
        takeoverLogged = true
        failures = Self.failuresForMaximum
        failed(reason, quiet: quiet)
    }

    /// A failure count whose back-off is the maximum (``WundercastModel/Backoff`` caps it).
    private static let failuresForMaximum = 64

    /// A connection that was up is gone: → backingOff. After a stable one (up `stableAfter`)
    /// the back-off starts over and this is a new outage (logged); after a short one the
    /// back-off keeps growing and the outage goes on (logged again only for a new reason).
    private func lose(_ reason: String) {
        noteEnd(ofConnectionUpSince: connectedAt)
        failed(reason)
    }

    private func noteEnd(ofConnectionUpSince start: Duration?) {
        guard let start else { return }
        if clock.now - start >= settings.stableAfter {
            failures = 0
            inOutage = false
            loggedFailure = nil
            takeoverLogged = false
        }
    }

    /// Tears down the connection (if any) and waits out the back-off; logs the first failure of
    /// an outage and each new reason at warning level, the retries at debug level.
    private func failed(_ reason: String, quiet: Bool = false) {
        tearDown()
        failures += 1
        let delay = settings.backoff.delay(attempt: failures)
        let wasConnected = status.connected
        update {
            $0.lastError = reason
            if wasConnected { $0.connected = false; $0.since = Date() }
        }
        var fields = [
            ("MESSAGE_ID", MessageID.brokerDisconnected), ("WUNDERCAST_BROKER", settings.broker),
            (Self.retryDelayField, String(delay.wholeMilliseconds)),
        ]
        if quiet || (inOutage && loggedFailure == reason) {
            fields.removeFirst()
            logger.log(.debug, "\(reason); retrying in \(delay)", fields: fields)
        } else {
            logger.log(.warning, "\(reason); reconnecting with back-off", fields: fields)
            // The reason a warning named; a quiet failure between two of the same names none.
            loggedFailure = reason
            connectAnnounced = false
        }
        inOutage = true
        state = .backingOff(
            clock.schedule(at: clock.now + delay, name: Self.backoffTimer) { [self] in
                guard case .backingOff = state else { return }
                attempt()
            })
    }

    /// Unregisters and drops the connection's handle (closing its socket), cancels its timers.
    private func tearDown() {
        switch state {
        case .connecting(_, let limit):
            clock.cancel(limit)
        case .handshaking(let connection, let limit), .stopping(let connection, _, let limit):
            clock.cancel(limit)
            loop.unregister(connection.registration)
        case .connected(let connection):
            loop.unregister(connection.registration)
        case .backingOff(let timer):
            clock.cancel(timer)
        case .idle, .finished:
            break
        }
        if let miscTimer { clock.cancel(miscTimer) }
        miscTimer = nil
        connectedAt = nil
        inFlight = [:]
        state = .idle
    }

    // MARK: - Stopping

    private func beginStop() {
        switch state {
        case .connected(let connection):
            let (code, mid) = connection.handle.publish(
                topic: settings.availabilityTopic, payload: Array("offline".utf8), qos: 1, retain: true)
            guard code == MOSQ_ERR_SUCCESS.rawValue else { return disconnectNow() }
            let limit = clock.schedule(at: clock.now + settings.offlineWait, name: Self.offlineTimer) { [self] in
                disconnectNow()
            }
            state = .stopping(connection, offline: mid, limit: limit)
            afterIO(connection, failure: nil)
        case .stopping:
            break
        case .finished:
            finish()
        default:
            finish()
        }
    }

    /// DISCONNECT (reason 0: the broker drops the will), written at once, then finished.
    private func disconnectNow() {
        guard case .stopping(let connection, _, _) = state else { return finish() }
        _ = connection.handle.disconnect()
        _ = connection.handle.write()
        finish()
    }

    private func finish() {
        tearDown()
        state = .finished
        update { if $0.connected { $0.connected = false; $0.since = Date() } }
        let waiters = stopWaiters
        stopWaiters = []
        for waiter in waiters { waiter.resume() }
    }

    private func update(_ change: (inout Status) -> Void) {
        statusBox.withLock { change(&$0) }
    }
}
