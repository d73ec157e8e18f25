import CMosquitto
import WundercastSupport

#if canImport(Glibc)
import Glibc
#endif

/// One libmosquitto client (`struct mosquitto *`) for one connection attempt, MQTT 5, clean
/// start: each attempt gets a new one, so nothing libmosquitto queued for an old connection
/// (it keeps QoS 1 messages in memory, unbounded, and resends them: PITFALLS, libmosquitto) is
/// ever sent on a new one. Its own loop (`loop_start`, `loop_forever`) is never used: the
/// client's reactor calls ``read()``, ``write()`` and ``misc()``.
///
/// libmosquitto's callbacks run inside those calls, on the caller's thread; they only append
/// to ``events``, which the caller drains after each call (``takeEvents()``).
// `@unchecked Sendable`: it holds libmosquitto's `struct mosquitto *` (C). It is used by one
// thread at a time: the connect thread until `mosquitto_connect_async` returns, then the reactor.
final class MosquittoHandle: @unchecked Sendable {
    /// What libmosquitto reported through a callback.
    enum Event: Equatable {
        /// CONNACK: `reason` 0 is accepted, else the MQTT 5 reason code (e.g. 134 bad user name
        /// or password, 135 not authorized).
        case connack(reason: Int32)
        /// The connection ended: `reason` is libmosquitto's error code, or the MQTT 5 reason of
        /// the broker's DISCONNECT (142 session taken over).
        case disconnected(reason: Int32)
        /// A message left (QoS 0) or was acknowledged (QoS 1, PUBACK `reason`; ≥ 128 refused).
        case published(mid: Int32, reason: Int32)
        /// A message on a subscribed topic.
        case message(topic: String, payload: [UInt8])
    }

    /// The last will: published by the broker when the connection is lost without DISCONNECT.
    struct Will: Sendable, Equatable {
        var topic: String
        var payload: [UInt8]
        var qos: Int32
        var retain: Bool
    }

    /// TLS files (PEM); verification of the broker is always on.
    struct TLSFiles: Sendable, Equatable {
        /// The CA that signed the broker's certificate; `nil`: the system's CAs.
        var caFile: String?
        var certFile: String?
        var keyFile: String?
    }

    /// The largest payload of a received message handed on (bytes); larger ones are dropped.
    static let largestMessage = 1024

    private let mosq: OpaquePointer
    private let inbox: Inbox

    /// A libmosquitto call that failed: its name and return code, and libmosquitto's text.
    struct Failure: Error, Equatable, CustomStringConvertible {
        let call: String
        let code: Int32
        var description: String { "\(call): \(MosquittoHandle.text(of: code))" }
    }

    /// - Throws: ``Failure`` from `mosquitto_new` (no memory, bad id), the will, the
    ///   credentials or the TLS files (`mosquitto_tls_set` checks that they can be read).
    init(clientID: String, will: Will?, username: String?, password: String?, tls: TLSFiles?) throws(Failure) {
        MosquittoLibrary.initialise()
        inbox = Inbox()
        guard let mosq = mosquitto_new(clientID, true, Unmanaged.passUnretained(inbox).toOpaque()) else {
            throw Failure(call: "mosquitto_new", code: MOSQ_ERR_NOMEM.rawValue)
        }
        self.mosq = mosq
        do throws(Failure) {
            try check("mosquitto_int_option", mosquitto_int_option(mosq, MOSQ_OPT_PROTOCOL_VERSION, MQTT_PROTOCOL_V5))
            if let will {
                try check(
                    "mosquitto_will_set_v5",
                    mosquitto_will_set_v5(
                        mosq, will.topic, Int32(will.payload.count), will.payload, will.qos, will.retain, nil))
            }
            if let username {
                try check("mosquitto_username_pw_set", mosquitto_username_pw_set(mosq, username, password))
            }
            if let tls {
                try check(
                    "mosquitto_tls_set",
                    mosquitto_tls_set(
                        mosq, tls.caFile, tls.caFile == nil ? "/etc/ssl/certs" : nil, tls.certFile, tls.keyFile, nil))
            }
        } catch {
            mosquitto_destroy(mosq)
            throw error
        }
        mosquitto_connect_v5_callback_set(mosq) { _, raw, reason, _, _ in
            Inbox.from(raw).events.append(.connack(reason: reason))
        }
        mosquitto_disconnect_v5_callback_set(mosq) { _, raw, reason, _ in
            Inbox.from(raw).events.append(.disconnected(reason: reason))
        }
        mosquitto_publish_v5_callback_set(mosq) { _, raw, mid, reason, _ in
            Inbox.from(raw).events.append(.published(mid: mid, reason: reason))
        }
        mosquitto_message_v5_callback_set(mosq) { _, raw, message, _ in
            guard let message, let topic = message.pointee.topic else { return }
            let count = Int(max(0, message.pointee.payloadlen))
            // What the daemon subscribes to is a word (`online`); a bigger payload is not copied.
            guard count <= MosquittoHandle.largestMessage else { return }
            let payload =
                message.pointee.payload.map {
                    Array(UnsafeRawBufferPointer(start: $0, count: count))
                } ?? []
            Inbox.from(raw).events.append(.message(topic: String(cString: topic), payload: payload))
        }
    }

    deinit {
        mosquitto_destroy(mosq)
    }

    /// Starts connecting to `host`:`port` (TCP; then TLS when configured), and queues CONNECT.
    /// Blocks in `getaddrinfo` and may block in `connect`: call it off the reactor (and off the
    /// cooperative pool: ``WundercastPOSIX/DetachedThread``). Returns libmosquitto's code
    /// (`MOSQ_ERR_SUCCESS`, `MOSQ_ERR_EAI` for a name it could not resolve, `MOSQ_ERR_ERRNO`).
    func connect(host: String, port: Int, keepAlive: Int32) -> Int32 {
        mosquitto_connect_async(mosq, host, Int32(port), keepAlive)
    }

    /// The connection's socket, or -1 without one.
    var socket: Int32 { mosquitto_socket(mosq) }

    /// Reads what the broker sent (and advances a TLS handshake); callbacks may run.
    func read() -> Int32 { mosquitto_loop_read(mosq, 1) }
    /// Writes what is queued; callbacks may run.
    func write() -> Int32 { mosquitto_loop_write(mosq, 1) }
    /// Keep-alive (PINGREQ when due) and retries; call at least once a second.
    func misc() -> Int32 { mosquitto_loop_misc(mosq) }
    /// Whether something is queued to be written.
    var wantsWrite: Bool { mosquitto_want_write(mosq) }

    /// Queues a message (written now when the socket takes it). Returns the code and the
    /// message id its ``Event/published(mid:reason:)`` carries.
    func publish(topic: String, payload: [UInt8], qos: Int32, retain: Bool) -> (code: Int32, mid: Int32) {
        var mid: Int32 = 0
        let code = mosquitto_publish_v5(mosq, &mid, topic, Int32(payload.count), payload, qos, retain, nil)
        return (code, mid)
    }

    /// Subscribes to `topic` at QoS 1.
    func subscribe(topic: String) -> Int32 {
        mosquitto_subscribe_v5(mosq, nil, topic, 1, 0, nil)
    }

    /// Queues DISCONNECT with reason 0 (normal: the broker discards the will).
    func disconnect() -> Int32 { mosquitto_disconnect_v5(mosq, 0, nil) }

    /// What the callbacks reported since the last call, in order.
    func takeEvents() -> [Event] {
        defer { inbox.events.removeAll() }
        return inbox.events
    }

    /// libmosquitto's text for `code` (a `MOSQ_ERR_*`), with the system's for `MOSQ_ERR_ERRNO`.
    static func text(of code: Int32) -> String {
        if code == MOSQ_ERR_ERRNO.rawValue {
            // libmosquitto says ERRNO for a peer that closed in the middle of a packet, errno 0.
            return errno == 0 ? "the broker closed the connection" : String(cString: strerror(errno))
        }
        return String(cString: mosquitto_strerror(code))
    }

    /// The MQTT 5 reason code's text (`Not authorized`).
    static func reasonText(_ reason: Int32) -> String {
        String(cString: mosquitto_reason_string(reason))
    }

    private func check(_ call: String, _ code: Int32) throws(Failure) {
        guard code == MOSQ_ERR_SUCCESS.rawValue else { throw Failure(call: call, code: code) }
    }

    /// Where the callbacks leave their events (libmosquitto's `obj`).
    private final class Inbox {
        var events: [Event] = []
        static func from(_ raw: UnsafeMutableRawPointer?) -> Inbox {
            Unmanaged<Inbox>.fromOpaque(raw!).takeUnretainedValue()
        }
    }
}

/// `mosquitto_lib_init`, once per process (it initialises OpenSSL and the random source).
enum MosquittoLibrary {
    private static let initialised: Bool = {
        mosquitto_lib_init()
        return true
    }()

    static func initialise() { _ = initialised }
}
