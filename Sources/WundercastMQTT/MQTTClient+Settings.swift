#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WundercastModel
import WundercastSupport

extension MQTTClient {
    /// What the client connects to and how (from `[MQTT]`, resolved by the daemon).
    public struct Settings: Sendable, Equatable {
        /// The broker's host name or address, as configured: TLS verifies this name.
        public var host: String
        public var port: Int
        /// TLS (`mqtts://`), broker verification always on; `nil`: plain TCP.
        public var tls: TLS?
        /// The MQTT client identifier (`[MQTT] ClientID=` or the daemon's default).
        public var clientID: String
        public var username: String?
        /// The password (read from `PasswordFile=` or the credential); never logged.
        public var password: String?
        /// 0 or 1 (`[MQTT] QoS=`): the QoS of every message but the will's and `offline`'s (1).
        public var qos: Int32
        /// Where `online` (retained, after each connect) and `offline` (the will, and on a clean
        /// stop) go.
        public var availabilityTopic: String
        /// Topics subscribed to after each connect (Home Assistant's birth topic).
        public var subscriptions: [String]
        /// The MQTT keep-alive, whole seconds.
        public var keepAlive: Duration
        /// Reconnects: `initial`, doubling, at most `maximum` (``WundercastModel/Backoff``, as gpsd's).
        public var backoff: Backoff
        /// A connection up this long starts the back-off over (and ends an outage). Longer than
        /// the back-off's maximum: two daemons with one ClientID, which take the session from
        /// each other, never look stable to each other.
        public var stableAfter: Duration
        /// How long a connection may take from the start of `connect` to the broker's CONNACK
        /// (a name that never resolves, a relay that never answers).
        public var connectLimit: Duration
        /// How long a clean stop waits for the broker to acknowledge `offline`.
        public var offlineWait: Duration

        public init(
            host: String, port: Int, tls: TLS? = nil, clientID: String, username: String? = nil,
            password: String? = nil, qos: Int32 = 1, availabilityTopic: String, subscriptions: [String] = [],
            keepAlive: Duration = .seconds(60),
            backoff: Backoff = Backoff(initial: .seconds(1), maximum: .seconds(60)),
            stableAfter: Duration = .seconds(120), connectLimit: Duration = .seconds(30),
            offlineWait: Duration = .seconds(2)
        ) {
            self.host = host
            self.port = port
            self.tls = tls
            self.clientID = clientID
            self.username = username
            self.password = password
            self.qos = qos
            self.availabilityTopic = availabilityTopic
            self.subscriptions = subscriptions
            self.keepAlive = keepAlive
            self.backoff = backoff
            self.stableAfter = stableAfter
            self.connectLimit = connectLimit
            self.offlineWait = offlineWait
        }

        /// `mqtt://host:port` or `mqtts://host:port`, as logs and `status` name the broker.
        public var broker: String {
            let host = self.host.contains(":") ? "[\(self.host)]" : self.host
            return "\(tls == nil ? "mqtt" : "mqtts")://\(host):\(port)"
        }
    }

    /// TLS files (PEM paths). The broker's certificate is always verified, against `caFile` or
    /// the system's CAs, and its name against ``Settings/host``.
    public struct TLS: Sendable, Equatable {
        public var caFile: String?
        public var certFile: String?
        public var keyFile: String?

        public init(caFile: String? = nil, certFile: String? = nil, keyFile: String? = nil) {
            self.caFile = caFile
            self.certFile = certFile
            self.keyFile = keyFile
        }
    }

    /// What `wundercastctl status` shows of the broker.
    public struct Status: Sendable, Equatable {
        /// ``Settings/broker``.
        public var broker: String
        public var connected: Bool
        /// Wall-clock time of the last change between connected and not (`nil` before the first).
        public var since: Date?
        /// The last failure's text (connect, refusal, loss, a refused message), without secrets.
        public var lastError: String?
        /// Messages the broker took (PUBACK at QoS 1; written at QoS 0) since start.
        public var messagesSent: Int
    }
}
