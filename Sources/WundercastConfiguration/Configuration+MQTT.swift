import WundercastFleet
import WundercastSupport

extension Configuration {
    /// `[MQTT]`: the weather and position published to an MQTT broker, with Home Assistant
    /// discovery and OwnTracks (issue 16). Off unless `Broker=` is set: without a broker nothing
    /// connects, the other keys are used for nothing, and only their own values are checked
    /// (the rules between them, ``ParsedConfiguration/checked()``, apply with a broker, so a
    /// drop-in may turn MQTT off with an empty `Broker=`).
    public struct MQTTSettings: Sendable, Equatable {
        /// `Broker=` `mqtt://host[:port]` (port 1883) or `mqtts://host[:port]` (TLS, port 8883);
        /// an IPv6 address in brackets. `nil` (unset or empty): MQTT is off. Default `nil`.
        public var broker: MQTTBroker? = nil
        /// `ClientID=` the MQTT client identifier: 1–64 of `0-9 A-Z a-z _ -` (brokers must take
        /// 1–23; mosquitto, EMQX and HiveMQ take more). `nil` (unset or empty): the daemon's
        /// `wundercast-<app-specific machine id>`, with `-u<UID>` for a user daemon. Default `nil`.
        public var clientID: String? = nil
        /// `TopicPrefix=` the topic level the daemon publishes under (`<prefix>/state`,
        /// `<prefix>/location`, `<prefix>/availability`): a topic name (``topicPrefix(_:)``).
        /// `nil` (unset or empty): `wundercast/<hostname>`. Default `nil`.
        public var topicPrefix: String? = nil
        /// `Username=` the user name sent in CONNECT (UTF-8, no control character). `nil`: none.
        /// Default `nil`.
        public var username: String? = nil
        /// `PasswordFile=` absolute path of a file holding the broker password alone, read by the
        /// daemon; the password itself is never in this configuration, and a refused value is
        /// never repeated (it may be the password). `nil` (unset or empty): systemd's
        /// `$CREDENTIALS_DIRECTORY/mqtt` (`LoadCredential=mqtt:PATH`), when there is one.
        /// Needs `Username=`. Default `nil`.
        public var passwordFile: String? = nil
        /// `CAFile=` absolute path of the PEM certificates that verify the broker (`mqtts://`
        /// only; verification is always on). `nil`: the system's trust store. Default `nil`.
        public var caFile: String? = nil
        /// `CertFile=`, `KeyFile=` absolute paths of the client certificate and its private key
        /// (PEM), for brokers that authenticate clients by certificate: both or neither, and
        /// only with `mqtts://`. Default `nil`.
        public var certFile: String? = nil
        public var keyFile: String? = nil
        /// `QoS=` 0 | 1: the quality of service of every message published. Default 1 (the
        /// broker acknowledges each, so a refusal by its ACL is seen; MQTT 5 PUBACK reason 135).
        public var qos: MQTTQoS = .atLeastOnce
        /// `Precision=` decimals of latitude/longitude in published positions, 0–4. `nil` (unset
        /// or empty): `[Weather] Precision=`, which is also the most it may be (no finer position
        /// exists). Read the value in force from ``Configuration/mqttPrecision``. Default `nil`.
        public var precision: Int? = nil
        /// `Discovery=` yes | no: publish Home Assistant MQTT device discovery. Default yes.
        public var discovery: Bool = true
        /// `DiscoveryPrefix=` Home Assistant's discovery prefix, a topic name as `TopicPrefix=`
        /// (``topicPrefix(_:)``). Default `homeassistant`.
        public var discoveryPrefix: String = "homeassistant"
        /// `OwnTracks=` `user/device`: also publish positions in OwnTracks' format on
        /// `owntracks/<user>/<device>`. `nil` (unset or empty): off. Default `nil`.
        public var ownTracks: OwnTracksDevice? = nil
        public init() {}
    }

    /// Decimals of latitude/longitude in positions published to the MQTT broker: `[MQTT]
    /// Precision=`, else `[Weather] Precision=`. With a broker set it is never more than
    /// `[Weather] Precision=` (``ParsedConfiguration/checked()`` refuses that).
    public var mqttPrecision: Int { mqtt.precision ?? weather.precision }

    /// The `[MQTT]` section (``MQTTSettings``).
    static let mqttSection = Section(
        name: "MQTT",
        keys: [
            Key(name: "Broker") { (c, v) throws(InvalidValue) in c.mqtt.broker = v.isEmpty ? nil : try parseBroker(v) },
            Key(name: "ClientID") { (c, v) throws(InvalidValue) in
                guard v.utf8.count <= 64,
                    v.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "_-".contains($0)) })
                else {
                    throw InvalidValue(
                        "is not an MQTT client id: 1 to 64 letters A-Z and a-z, digits, - and _ (empty: the daemon's own)"
                    )
                }
                c.mqtt.clientID = v.isEmpty ? nil : v
            },
            Key(name: "TopicPrefix") { (c, v) throws(InvalidValue) in
                c.mqtt.topicPrefix = v.isEmpty ? nil : try topicPrefix(v)
            },
            Key(name: "Username") { (c, v) throws(InvalidValue) in
                guard !v.unicodeScalars.contains(where: UntrustedText.isControl) else {
                    throw InvalidValue("contains a control character")
                }
                guard v.utf8.count <= 65_535 else { throw InvalidValue("is longer than 65535 bytes (MQTT's limit)") }
                c.mqtt.username = v.isEmpty ? nil : v
            },
            Key(name: "PasswordFile") { (c, v) throws(InvalidValue) in c.mqtt.passwordFile = try parsePasswordFile(v) },
            Key(name: "CAFile") { (c, v) throws(InvalidValue) in
                c.mqtt.caFile = v.isEmpty ? nil : try parseFilePath(v)
            },
            Key(name: "CertFile") { (c, v) throws(InvalidValue) in
                c.mqtt.certFile = v.isEmpty ? nil : try parseFilePath(v)
            },
            Key(name: "KeyFile") { (c, v) throws(InvalidValue) in
                c.mqtt.keyFile = v.isEmpty ? nil : try parseFilePath(v)
            },
            Key(name: "QoS") { (c, v) throws(InvalidValue) in
                guard v.utf8.count == 1, let level = Int(v).flatMap(MQTTQoS.init(rawValue:)) else {
                    throw InvalidValue(
                        "is not 0 or 1 (the MQTT QoS of what is published: 0 at most once, 1 at least once)")
                }
                c.mqtt.qos = level
            },
            Key(name: "Precision") { (c, v) throws(InvalidValue) in
                c.mqtt.precision =
                    v.isEmpty
                    ? nil
                    : try decimals(
                        v, in: 0...4, "decimals of published latitude/longitude; empty: [Weather] Precision=")
            },
            Key(name: "Discovery") { (c, v) throws(InvalidValue) in c.mqtt.discovery = try boolean(v) },
            Key(name: "DiscoveryPrefix") { (c, v) throws(InvalidValue) in
                guard !v.isEmpty else { throw InvalidValue("is empty (Home Assistant's is homeassistant)") }
                c.mqtt.discoveryPrefix = try topicPrefix(v)
            },
            Key(name: "OwnTracks") { (c, v) throws(InvalidValue) in
                guard !v.isEmpty else { return c.mqtt.ownTracks = nil }
                do throws(FleetTopicError) {
                    c.mqtt.ownTracks = try OwnTracksDevice(v)
                } catch {
                    throw InvalidValue(error.problemText + " (two topic levels; example: alice/van)")
                }
            },
        ])

    /// A topic prefix published under (`TopicPrefix=`, `DiscoveryPrefix=`): a topic name as the
    /// fleet's one rule has it (``WundercastFleet/TopicName``: no wildcard, control character or
    /// noncharacter, no leading `$`) that neither starts nor ends with `/` (the daemon adds its
    /// own levels).
    static func topicPrefix(_ v: String) throws(InvalidValue) -> String {
        if v.hasPrefix("/") || v.hasSuffix("/") {
            throw InvalidValue("starts or ends with / (the daemon adds its own levels: PREFIX/state, …)")
        }
        do throws(FleetTopicError) {
            try TopicName.validate(v, as: .topicPrefix)
        } catch {
            throw InvalidValue(error.problemText)
        }
        return v
    }
}

/// An MQTT broker to connect to (`[MQTT] Broker=`).
public struct MQTTBroker: Sendable, Equatable, CustomStringConvertible {
    /// The URL scheme: plain TCP or TLS.
    public enum Scheme: String, Sendable, CaseIterable {
        /// `mqtt://`: plain TCP, port 1883 by default.
        case mqtt
        /// `mqtts://`: TLS, the broker's certificate always verified, port 8883 by default.
        case mqtts

        /// The IANA port of the scheme: 1883 for `mqtt`, 8883 for `mqtts`.
        public var defaultPort: Int { self == .mqtt ? 1883 : 8883 }
    }

    public var scheme: Scheme
    /// A host name, an IPv4 address, or an IPv6 address without brackets (with `%zone` when
    /// given): what the connection resolves, and what TLS verifies the certificate against.
    public var host: String
    /// 1–65535.
    public var port: Int

    public init(scheme: Scheme, host: String, port: Int) {
        self.scheme = scheme
        self.host = host
        self.port = port
    }

    /// Whether the connection is TLS (`mqtts://`).
    public var usesTLS: Bool { scheme == .mqtts }

    /// Whether ``host`` is this machine's loopback by its address: 127.0.0.0/8 (canonical form)
    /// or `::1`; never a name (`localhost` too may be answered by DNS).
    public var isLoopback: Bool { Configuration.isLoopback(Substring(host)) }

    /// Whether a password may be sent to this broker: over TLS, or to loopback (nothing leaves
    /// the machine). The one rule for every password, `PasswordFile=` or the credential
    /// `$CREDENTIALS_DIRECTORY/mqtt` the daemon finds.
    public var allowsPassword: Bool { usesTLS || isLoopback }

    /// `scheme://host:port`, the port always given, an IPv6 host in brackets with its zone as
    /// `%25zone`: as `Broker=` reads it back.
    public var description: String {
        let shown = host.contains(":") ? "[\(host.split(separator: "%", maxSplits: 1).joined(separator: "%25"))]" : host
        return "\(scheme.rawValue)://\(shown):\(port)"
    }
}

/// The quality of service of published messages (`[MQTT] QoS=`), MQTT's numbers.
public enum MQTTQoS: Int, Sendable, CaseIterable {
    /// 0: sent once, never acknowledged.
    case atMostOnce = 0
    /// 1: acknowledged by the broker (PUBACK), sent again until it is.
    case atLeastOnce = 1
}

// MARK: - The rules between [MQTT] keys

extension ParsedConfiguration {
    /// The errors of the rules between `[MQTT]` keys, each at the later of the assignments that
    /// broke it; none without a broker (nothing of the section is used). Client certificate:
    /// `CertFile=` and `KeyFile=` together. TLS files (`CAFile=`, `CertFile=`, `KeyFile=`): only
    /// with `mqtts://`. `PasswordFile=` needs `Username=`, and is refused over plain `mqtt://` to
    /// anything but loopback (``MQTTBroker/allowsPassword``). `Precision=` at most
    /// `[Weather] Precision=`.
    func mqttErrors() -> [ConfigurationError] {
        let mqtt = configuration.mqtt
        guard let broker = mqtt.broker else { return [] }
        var errors: [ConfigurationError] = []
        if !broker.usesTLS {
            for (key, path) in [("CAFile", mqtt.caFile), ("CertFile", mqtt.certFile), ("KeyFile", mqtt.keyFile)]
            where path != nil {
                errors.append(
                    error(
                        at: later("MQTT.\(key)", "MQTT.Broker"),
                        "\(key)= needs an mqtts:// Broker= (TLS): Broker=\(broker) is plain TCP"))
            }
        }
        if mqtt.certFile != nil, mqtt.keyFile == nil {
            errors.append(
                error(at: "MQTT.CertFile", "CertFile= needs KeyFile= (the private key of the client certificate)"))
        }
        if mqtt.keyFile != nil, mqtt.certFile == nil {
            errors.append(error(at: "MQTT.KeyFile", "KeyFile= needs CertFile= (the client certificate of the key)"))
        }
        if mqtt.passwordFile != nil {
            if mqtt.username == nil {
                errors.append(
                    error(at: "MQTT.PasswordFile", "PasswordFile= needs Username= (the user the password is for)"))
            }
            if !broker.allowsPassword {
                errors.append(
                    error(
                        at: later("MQTT.PasswordFile", "MQTT.Broker"),
                        "PasswordFile= would send the password in clear text to Broker=\(broker): use mqtts:// (TLS), or a broker on this machine by its address (127.0.0.1, ::1: a name could be answered by DNS)"
                    ))
            }
        }
        let weather = configuration.weather.precision
        if let precision = mqtt.precision, precision > weather {
            errors.append(
                error(
                    at: later("MQTT.Precision", "Weather.Precision"),
                    "[MQTT] Precision=\(precision) is more than [Weather] Precision=\(weather): no finer position exists than the one the weather is fetched for"
                ))
        }
        return errors
    }
}
