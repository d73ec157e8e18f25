import Testing
import WundercastFleet

@testable import WundercastConfiguration

/// `[MQTT]`: each key's good and bad values, the defaults without a broker, the rules between
/// keys (TLS files, client certificate, a password only over TLS or to loopback, `Precision=`
/// bounded by `[Weather] Precision=`), drop-ins, and no password in any output.
@Suite struct MQTTConfigurationTests {
    private static func parsed(_ text: String, file: String = "m.conf") -> ParsedConfiguration {
        Configuration.parse(text, file: file, onto: ParsedConfiguration()).checked()
    }

    /// Every error of `text` (a whole configuration, rules included), as `file:line: message`.
    private static func errors(_ text: String) -> [String] {
        parsed(text).errors.map(\.description)
    }

    // MARK: Defaults

    @Test(arguments: ["", "[MQTT]\n", "[MQTT]\nBroker=\n", "[MQTT]\nBroker=mqtt://localhost\nBroker=\n"])
    func offWithoutABroker(_ text: String) throws {
        let mqtt = try Configuration.parse(text).mqtt
        #expect(mqtt == Configuration.MQTTSettings())
        #expect(mqtt.broker == nil)
        #expect(mqtt.clientID == nil && mqtt.topicPrefix == nil && mqtt.ownTracks == nil)
        #expect(mqtt.username == nil && mqtt.passwordFile == nil)
        #expect(mqtt.caFile == nil && mqtt.certFile == nil && mqtt.keyFile == nil)
        #expect(mqtt.qos == .atLeastOnce && mqtt.qos.rawValue == 1)
        #expect(mqtt.precision == nil)
        #expect(mqtt.discovery)
        #expect(mqtt.discoveryPrefix == "homeassistant")
    }

    /// Without a broker only each value is checked: nothing of the section is used, so the rules
    /// between its keys are not (a drop-in turns MQTT off with `Broker=`).
    @Test func noRuleBetweenKeysWithoutABroker() {
        let text = "[MQTT]\nCAFile=/ca.pem\nCertFile=/c.pem\nPasswordFile=/pw\nPrecision=4\n"
        #expect(Self.errors(text) == [])
        #expect(
            Self.errors(text + "ClientID=a b\n") == [
                "m.conf:6: ClientID=\"a b\" is not an MQTT client id: 1 to 64 letters A-Z and a-z, digits, - and _ (empty: the daemon's own)"
            ])
    }

    // MARK: Good values

    @Test(arguments: [
        ("mqtt://localhost", MQTTBroker.Scheme.mqtt, "localhost", 1883),
        ("mqtts://broker.example.org", .mqtts, "broker.example.org", 8883),
        ("MQTTS://Broker.Example.org:8884/", .mqtts, "Broker.Example.org", 8884),
        ("mqtt://10.0.0.2:1", .mqtt, "10.0.0.2", 1),
        ("mqtt://[::1]", .mqtt, "::1", 1883),
        ("mqtts://[2001:db8::5]:65535", .mqtts, "2001:db8::5", 65535),
        ("mqtt://[fe80::1%25eth0]:1884", .mqtt, "fe80::1%eth0", 1884),
        ("mqtt://under_score.lan.", .mqtt, "under_score.lan.", 1883),
    ])
    func brokers(_ value: String, _ scheme: MQTTBroker.Scheme, _ host: String, _ port: Int) throws {
        let broker = try #require(try Configuration.parse("[MQTT]\nBroker=\(value)").mqtt.broker)
        #expect(broker == MQTTBroker(scheme: scheme, host: host, port: port))
        #expect(broker.usesTLS == (scheme == .mqtts))
        // As --check-config prints it, and read back the same.
        #expect(try Configuration.parse("[MQTT]\nBroker=\(broker)").mqtt.broker == broker)
    }

    static let goodCases: [ConfigCase] = [
        .init("[MQTT]\nClientID=a") { $0.mqtt.clientID = "a" },
        .init("[MQTT]\nClientID=Van-1_b") { $0.mqtt.clientID = "Van-1_b" },
        .init("[MQTT]\nClientID=" + String(repeating: "x", count: 64)) {
            $0.mqtt.clientID = String(repeating: "x", count: 64)
        },
        .init("[MQTT]\nClientID=van\nClientID=") { $0.mqtt.clientID = nil },
        .init("[MQTT]\nTopicPrefix=wundercast/van") { $0.mqtt.topicPrefix = "wundercast/van" },
        .init("[MQTT]\nTopicPrefix=fleet/boats/Tromsø") { $0.mqtt.topicPrefix = "fleet/boats/Tromsø" },
        .init("[MQTT]\nTopicPrefix=a$b") { $0.mqtt.topicPrefix = "a$b" },
        .init("[MQTT]\nTopicPrefix=x\nTopicPrefix=") { $0.mqtt.topicPrefix = nil },
        .init("[MQTT]\nUsername=van 1") { $0.mqtt.username = "van 1" },
        .init("[MQTT]\nUsername=x\nUsername=") { $0.mqtt.username = nil },
        .init("[MQTT]\nPasswordFile=/etc/wundercast/mqtt.password") {
            $0.mqtt.passwordFile = "/etc/wundercast/mqtt.password"
        },
        .init("[MQTT]\nPasswordFile=/p\nPasswordFile=") { $0.mqtt.passwordFile = nil },
        .init("[MQTT]\nCAFile=/etc/ssl/certs/ca.pem") { $0.mqtt.caFile = "/etc/ssl/certs/ca.pem" },
        .init("[MQTT]\nCertFile=/etc/wundercast/van.crt") { $0.mqtt.certFile = "/etc/wundercast/van.crt" },
        .init("[MQTT]\nKeyFile=/etc/wundercast/van.key") { $0.mqtt.keyFile = "/etc/wundercast/van.key" },
        .init("[MQTT]\nKeyFile=/k\nKeyFile=") { $0.mqtt.keyFile = nil },
        .init("[MQTT]\nQoS=0") { $0.mqtt.qos = .atMostOnce },
        .init("[MQTT]\nQoS=0\nQoS=1") { $0.mqtt.qos = .atLeastOnce },
        .init("[MQTT]\nPrecision=0") { $0.mqtt.precision = 0 },
        .init("[MQTT]\nPrecision=2") { $0.mqtt.precision = 2 },
        .init("[MQTT]\nPrecision=1\nPrecision=") { $0.mqtt.precision = nil },
        .init("[MQTT]\nDiscovery=no") { $0.mqtt.discovery = false },
        .init("[MQTT]\nDiscovery=off\nDiscovery=yes") { $0.mqtt.discovery = true },
        .init("[MQTT]\nDiscoveryPrefix=ha") { $0.mqtt.discoveryPrefix = "ha" },
        .init("[MQTT]\nDiscoveryPrefix=site/ha") { $0.mqtt.discoveryPrefix = "site/ha" },
        .init("[MQTT]\nOwnTracks=alice/van") { $0.mqtt.ownTracks = try? OwnTracksDevice("alice/van") },
        .init("[MQTT]\nOwnTracks=a/b\nOwnTracks=") { $0.mqtt.ownTracks = nil },
    ]

    @Test(arguments: goodCases)
    func parsesKey(_ c: ConfigCase) throws {
        #expect(try Configuration.parse(c.text) == c.expected)
    }

    @Test func ownTracksTopic() throws {
        let device = try #require(try Configuration.parse("[MQTT]\nOwnTracks=alice/van").mqtt.ownTracks)
        #expect(device.user == "alice" && device.device == "van")
        #expect(device.topic == "owntracks/alice/van")
        #expect((try? OwnTracksDevice("a/b/c")) == nil)
    }

    // MARK: Bad values

    static let brokerExamples = "(examples: mqtt://localhost, mqtts://broker.example.org:8883, mqtt://[::1]:1883)"
    static let clientID =
        "is not an MQTT client id: 1 to 64 letters A-Z and a-z, digits, - and _ (empty: the daemon's own)"
    static func wildcard(_ c: String) -> String {
        "contains \"\(c)\", an MQTT wildcard, which a published topic must not contain"
    }
    static let slash = "starts or ends with / (the daemon adds its own levels: PREFIX/state, …)"
    static func ownTracks(_ problem: String = "is not of the form user/device") -> String {
        problem + " (two topic levels; example: alice/van)"
    }
    static let qos = "is not 0 or 1 (the MQTT QoS of what is published: 0 at most once, 1 at least once)"
    static let precision =
        "is not an integer from 0 to 4 (decimals of published latitude/longitude; empty: [Weather] Precision=)"
    static let notRepeated =
        "(the value is not repeated: it may be the password; put the password alone in a file only the daemon can read and name that file here)"

    /// A value refused at its line: `Key="value" reason`.
    static let badValues: [(String, String, String)] = [
        ("Broker", "http://broker.lan", "does not start with mqtt:// or mqtts://"),
        ("Broker", "mqtt://", "is not an mqtt:// or mqtts:// URL with a host"),
        ("Broker", "mqtt://broker.lan:0", "has port 0, outside 1-65535"),
        ("Broker", "mqtts://broker.lan:65536", "has port 65536, outside 1-65535"),
        ("Broker", "mqtt://broker.lan:", "has no valid port number \(brokerExamples)"),
        ("Broker", "mqtt://::1", "looks like an IPv6 address: write it in brackets, as mqtt://[::1]:1883"),
        ("Broker", "mqtt://[::1", "has no closing ] \(brokerExamples)"),
        ("Broker", "mqtt://[::g]", "does not hold a valid IPv6 address in [ ] \(brokerExamples)"),
        ("Broker", "mqtt://-bad.lan", "is not a host name, IPv4 address or [IPv6] address \(brokerExamples)"),
        ("Broker", "mqtt://999.0.0.1", "has 999.0.0.1, which is not an IPv4 address \(brokerExamples)"),
        ("Broker", "mqtt://bro ker", "contains a space or control character"),
        (
            "Broker", "mqtt://brökér",
            "contains characters outside ASCII (write an international host name in its xn-- form and percent-encode the path)"
        ),
        (
            "Broker", "mqtt://[fe80::1%eth0]",
            "has an IPv6 zone not written as %25zone (example: mqtt://[fe80::1%25eth0]:1883)"
        ),
        (
            "Broker", "mqtt://broker.lan/wundercast",
            "has a path: a broker is mqtt://host[:port] or mqtts://host[:port] only (topics are set with TopicPrefix=)"
        ),
        ("ClientID", "van.1", clientID),
        ("ClientID", "vän", clientID),
        ("ClientID", "a+b", clientID),
        ("TopicPrefix", "a/+/b", wildcard("+")),
        ("TopicPrefix", "fleet/#", wildcard("#")),
        ("TopicPrefix", "/fleet", slash),
        ("TopicPrefix", "fleet/", slash),
        ("TopicPrefix", "/", slash),
        ("TopicPrefix", "$SYS/x", "starts with \"$\", which MQTT reserves for the broker's own topics"),
        ("DiscoveryPrefix", "", "is empty (Home Assistant's is homeassistant)"),
        ("DiscoveryPrefix", "home/+", wildcard("+")),
        ("DiscoveryPrefix", "homeassistant/", slash),
        ("CAFile", "ca.pem", "is not an absolute path"),
        ("CertFile", "/etc/ssl/", "ends in /: it names a directory, not a file"),
        ("KeyFile", "/", "is the root directory, not a file"),
        ("QoS", "2", qos),
        ("QoS", "01", qos),
        ("QoS", "", qos),
        ("QoS", "one", qos),
        ("Precision", "5", precision),
        ("Precision", "-1", precision),
        ("Discovery", "maybe", "is not a boolean (yes or no)"),
        ("OwnTracks", "alice", ownTracks()),
        ("OwnTracks", "alice/", ownTracks()),
        ("OwnTracks", "/van", ownTracks()),
        ("OwnTracks", "a/b/c", ownTracks()),
        ("OwnTracks", "a+/b", ownTracks(wildcard("+"))),
        ("OwnTracks", "a/#", ownTracks(wildcard("#"))),
        ("ClientID", String(repeating: "x", count: 65), clientID),
    ]

    @Test(arguments: badValues)
    func refusesValue(_ key: String, _ value: String, _ reason: String) {
        let parsed = Self.parsed("[MQTT]\n\(key)=\(value)\n")
        let message = "\(key)=\"\(value)\" \(reason)"
        #expect(parsed.errors == [ConfigurationError(file: "m.conf", line: 2, message: message)])
        #expect(parsed.errors.first?.description == "m.conf:2: \(message)")
    }

    /// Errors the table above cannot spell: escaped controls, values never repeated, other lines.
    static let errorCases: [ErrorCase] = [
        .init(
            "[MQTT]\n\nBroker=broker.lan:1883", line: 3,
            "Broker=\"broker.lan:1883\" does not start with mqtt:// or mqtts://"),
        .init(
            "[MQTT]\nTopicPrefix=a\u{0}b", line: 2,
            "TopicPrefix=\"a\\u{0}b\" contains U+0000, a control character, which an MQTT topic must not contain"),
        .init("[MQTT]\nUsername=van\u{7}", line: 2, "Username=\"van\\u{7}\" contains a control character"),
        .init("[MQTT]\nPasswordFile=mqtt.pw", line: 2, "PasswordFile= is not an absolute path \(notRepeated)"),
        .init(
            "[MQTT]\nPasswordFile=/etc/", line: 2,
            "PasswordFile= ends in /: it names a directory, not a file \(notRepeated)"),
        .init(
            "[MQTT]\nOwnTracks=a\u{1}/b", line: 2,
            "OwnTracks=\"a\\u{1}/b\" \(ownTracks("contains U+0001, a control character, which an MQTT topic must not contain"))"
        ),
        .init(
            "[MQTT]\nColour=blue", line: 2,
            "unknown key Colour= in [MQTT] (known keys: Broker, ClientID, TopicPrefix, Username, PasswordFile, CAFile, CertFile, KeyFile, QoS, Precision, Discovery, DiscoveryPrefix, OwnTracks)"
        ),
    ]

    @Test(arguments: errorCases)
    func reportsError(_ c: ErrorCase) {
        let parsed = Self.parsed(c.text)
        #expect(parsed.errors == [ConfigurationError(file: "m.conf", line: c.line, message: c.message)])
        #expect(parsed.errors.first?.description == "m.conf:\(c.line): \(c.message)")
    }

    // MARK: Rules between keys

    static let clearText =
        "would send the password in clear text to Broker=%@: use mqtts:// (TLS), or a broker on this machine by its address (127.0.0.1, ::1: a name could be answered by DNS)"

    /// A password goes only over TLS or to this machine's loopback.
    @Test(arguments: [
        ("mqtt://localhost", false), ("mqtt://LocalHost.", false), ("mqtt://127.0.0.08", false),
        ("mqtt://127.0.0.010", false), ("mqtt://127.0.0.1", true),
        ("mqtt://127.255.0.9:1884", true), ("mqtt://[::1]", true), ("mqtt://[0:0:0:0:0:0:0:1]", true),
        ("mqtt://[::1%25lo]", true), ("mqtt://[::ffff:127.0.0.1]", true), ("mqtts://broker.example.org", true),
        ("mqtts://10.0.0.1", true),
        ("mqtt://broker.lan", false), ("mqtt://10.0.0.1", false), ("mqtt://126.0.0.1", false),
        ("mqtt://128.0.0.1", false), ("mqtt://0.0.0.0", false), ("mqtt://[::]", false), ("mqtt://[::2]", false),
        ("mqtt://[1::1]", false), ("mqtt://[::ffff:10.0.0.1]", false), ("mqtt://localhost.example.org", false),
        ("mqtt://localhost6", false), ("mqtt://127.0.0.1.nip.io", false),
    ])
    func aPasswordOnlyOverTLSOrLoopback(_ broker: String, _ allowed: Bool) throws {
        let text = "[MQTT]\nBroker=\(broker)\nUsername=van\nPasswordFile=/etc/wundercast/mqtt.password\n"
        let shown = try #require(try Configuration.parse("[MQTT]\nBroker=\(broker)").mqtt.broker)
        #expect(shown.allowsPassword == allowed)
        let expected =
            allowed
            ? [] : ["m.conf:4: PasswordFile= \(Self.clearText.replacingOccurrences(of: "%@", with: "\(shown)"))"]
        #expect(Self.errors(text) == expected)
        // A user name alone is no secret.
        #expect(Self.errors("[MQTT]\nBroker=\(broker)\nUsername=van\n") == [])
    }

    /// The rule is reported at the later of `Broker=` and `PasswordFile=`, in whichever file.
    @Test func theClearTextRuleNamesTheLaterAssignment() {
        var parsed = Configuration.parse(
            "[MQTT]\nUsername=van\nPasswordFile=/pw\nBroker=mqtts://broker.lan\n", file: "main.conf", onto: .init())
        #expect(parsed.checked().errors.isEmpty)
        parsed = Configuration.parse(
            "# plain now\n[MQTT]\nBroker=mqtt://broker.lan\n", file: "90-plain.conf", onto: parsed)
        #expect(
            parsed.checked().errors.map(\.description) == [
                "90-plain.conf:3: PasswordFile= \(Self.clearText.replacingOccurrences(of: "%@", with: "mqtt://broker.lan:1883"))"
            ])
    }

    @Test func tlsFilesAndClientCertificate() {
        let files = "CAFile=/ca.pem\nCertFile=/van.crt\nKeyFile=/van.key\n"
        #expect(Self.errors("[MQTT]\nBroker=mqtts://broker.lan\n" + files) == [])
        #expect(
            Self.errors("[MQTT]\n" + files + "Broker=mqtt://broker.lan\n") == [
                "m.conf:5: CAFile= needs an mqtts:// Broker= (TLS): Broker=mqtt://broker.lan:1883 is plain TCP",
                "m.conf:5: CertFile= needs an mqtts:// Broker= (TLS): Broker=mqtt://broker.lan:1883 is plain TCP",
                "m.conf:5: KeyFile= needs an mqtts:// Broker= (TLS): Broker=mqtt://broker.lan:1883 is plain TCP",
            ])
        #expect(
            Self.errors("[MQTT]\nBroker=mqtt://broker.lan\nCAFile=/ca.pem\n") == [
                "m.conf:3: CAFile= needs an mqtts:// Broker= (TLS): Broker=mqtt://broker.lan:1883 is plain TCP"
            ])
        #expect(
            Self.errors("[MQTT]\nBroker=mqtts://broker.lan\nCertFile=/van.crt\n") == [
                "m.conf:3: CertFile= needs KeyFile= (the private key of the client certificate)"
            ])
        #expect(
            Self.errors("[MQTT]\nBroker=mqtts://broker.lan\n\nKeyFile=/van.key\n") == [
                "m.conf:4: KeyFile= needs CertFile= (the client certificate of the key)"
            ])
    }

    @Test func aPasswordFileNeedsAUserName() {
        #expect(
            Self.errors("[MQTT]\nBroker=mqtts://broker.lan\nPasswordFile=/pw\n") == [
                "m.conf:3: PasswordFile= needs Username= (the user the password is for)"
            ])
    }

    /// `Precision=` defaults to `[Weather] Precision=` and may not be finer, reported at the later
    /// of the two keys.
    @Test(
        arguments: [
            ("", 2, nil),
            ("[Weather]\nPrecision=4\n", 4, nil),
            ("[Weather]\nPrecision=0\n", 0, nil),
            ("[MQTT]\nPrecision=1\n", 1, nil),
            ("[MQTT]\nPrecision=2\n", 2, nil),
            ("[Weather]\nPrecision=4\n[MQTT]\nPrecision=4\n", 4, nil),
            ("[MQTT]\nPrecision=3\n", 3, "m.conf:4: [MQTT] Precision=3 is more than [Weather] Precision=2"),
            (
                "[Weather]\nPrecision=1\n[MQTT]\nPrecision=2\n", 2,
                "m.conf:6: [MQTT] Precision=2 is more than [Weather] Precision=1"
            ),
            (
                "[MQTT]\nPrecision=4\n[Weather]\nPrecision=3\n", 4,
                "m.conf:6: [MQTT] Precision=4 is more than [Weather] Precision=3"
            ),
        ] as [(String, Int, String?)])
    func precisionIsBoundedByTheWeathers(_ text: String, _ inForce: Int, _ error: String?) {
        let parsed = Self.parsed("[MQTT]\nBroker=mqtt://localhost\n" + text)
        #expect(parsed.configuration.mqttPrecision == inForce)
        let expected = error.map { [$0 + ": no finer position exists than the one the weather is fetched for"] } ?? []
        #expect(parsed.errors.map(\.description) == expected)
    }

    // MARK: Drop-ins

    @Test func dropInsLayerTheSection() {
        let main = Configuration.parse(
            "[Weather]\nPrecision=4\n[MQTT]\nBroker=mqtt://broker.lan\nPrecision=4\nDiscovery=no\n", file: "main.conf",
            onto: ParsedConfiguration())
        #expect(main.checked().errors.isEmpty)
        // Rules are checked once every file is applied: each drop-in goes onto the unchecked files.
        let lowered = Configuration.parse("[Weather]\n\nPrecision=3\n", file: "50-coarse.conf", onto: main)
        #expect(
            lowered.checked().errors.map(\.description) == [
                "50-coarse.conf:3: [MQTT] Precision=4 is more than [Weather] Precision=3: no finer position exists than the one the weather is fetched for"
            ])
        let moved = Configuration.parse(
            "[MQTT]\nBroker=mqtts://[2001:db8::1]\nOwnTracks=fleet/van\n", file: "60-tls.conf", onto: main
        ).checked()
        #expect(moved.errors.isEmpty)
        #expect(moved.configuration.mqtt.broker == MQTTBroker(scheme: .mqtts, host: "2001:db8::1", port: 8883))
        #expect(moved.configuration.mqtt.discovery == false, "a key the drop-in leaves keeps its value")
        #expect(moved.configuration.mqtt.ownTracks?.topic == "owntracks/fleet/van")
        #expect(moved.origins["MQTT.Broker"] == ConfigurationOrigin(file: "60-tls.conf", line: 2))
        #expect(moved.origins["MQTT.Discovery"] == ConfigurationOrigin(file: "main.conf", line: 6))
        let lines = moved.effectiveText().split(separator: "\n")
        #expect(lines.contains("Broker=mqtts://[2001:db8::1]:8883  # 60-tls.conf:2"))
        #expect(lines.contains("Discovery=no  # main.conf:6"))
        #expect(lines.contains("QoS=1  # (default)"))
        // A drop-in that empties Broker= turns MQTT off, rules and all.
        let broken = Configuration.parse(
            "[MQTT]\nCertFile=/van.crt\nPasswordFile=/pw\n", file: "70-broken.conf", onto: lowered)
        #expect(broken.checked().errors.count == 5)
        let off = Configuration.parse("[MQTT]\nBroker=\n[Weather]\nPrecision=4\n", file: "99-off.conf", onto: broken)
            .checked()
        #expect(off.errors.isEmpty)
        #expect(off.configuration.mqtt.broker == nil)
        #expect(off.effectiveText().split(separator: "\n").contains("Broker=  # 99-off.conf:2"))
    }

    // MARK: Secrets and the effective text

    /// Whatever is written where a password might go, no output repeats it: neither an error
    /// nor `--check-config`'s effective text.
    @Test(arguments: [
        "Password=hunter2", "password = hunter2", "Passwd=hunter2", "PasswordFile=hunter2",
        "PasswordFile=\"hunter2 \"", "Broker=mqtt://van:hunter2@broker.lan", "Broker=mqtts://hunter2@broker.lan",
        "Broker=mqtt://broker.lan/?password=hunter2",
    ])
    func aPasswordIsNeverPrinted(_ line: String) throws {
        let parsed = Self.parsed(
            "[MQTT]\nBroker=mqtts://broker.lan\nUsername=van\nPasswordFile=/etc/wundercast/mqtt.password\n\(line)\n")
        let error = try #require(parsed.errors.first)
        #expect(parsed.errors.count == 1)
        #expect(error.file == "m.conf" && error.line == 5)
        let output = parsed.errors.map(\.description).joined(separator: "\n") + parsed.effectiveText()
        #expect(!output.contains("hunter2"))
        #expect(output.contains("PasswordFile=/etc/wundercast/mqtt.password  # m.conf:4"), "the path is shown")
    }

    @Test func aPasswordKeyIsRefusedWithAdvice() {
        #expect(
            Self.errors("[MQTT]\nPassword=hunter2\n") == [
                "m.conf:2: Password= is refused: a password does not belong in the main configuration (other users may read it, and it ends up in bug reports); put the password alone in a file only the daemon can read and set PasswordFile=PATH, or give it to the service with systemd's LoadCredential=mqtt:PATH"
            ])
        // `Password=` is a secret in [MQTT]; `APIKey=` still only in [Weather].
        #expect(Self.errors("[MQTT]\nAPIKey=x\n").first?.contains("unknown key APIKey= in [MQTT]") == true)
    }

    /// Every `[MQTT]` key in the effective text, read back as the same configuration.
    @Test func effectiveTextReadsBack() throws {
        let text = """
            [Weather]
            Precision=3
            [MQTT]
            Broker=MQTTS://[fe80::1%25eth0]
            ClientID=van-1
            TopicPrefix=fleet/van
            Username=van
            PasswordFile=/run/credentials/mqtt
            CAFile=/etc/ssl/ca.pem
            CertFile=/etc/wundercast/van.crt
            KeyFile=/etc/wundercast/van.key
            QoS=0
            Precision=3
            Discovery=no
            DiscoveryPrefix=ha
            OwnTracks=alice/van
            """
        let parsed = Self.parsed(text, file: "/etc/w.conf")
        #expect(parsed.errors.isEmpty)
        let effective = parsed.effectiveText()
        let section = try #require(
            effective.components(separatedBy: "[MQTT]\n").dropFirst().first?.components(separatedBy: "\n\n").first)
        #expect(
            section.split(separator: "\n") == [
                "Broker=mqtts://[fe80::1%25eth0]:8883  # /etc/w.conf:4",
                "ClientID=van-1  # /etc/w.conf:5",
                "TopicPrefix=fleet/van  # /etc/w.conf:6",
                "Username=van  # /etc/w.conf:7",
                "PasswordFile=/run/credentials/mqtt  # /etc/w.conf:8",
                "CAFile=/etc/ssl/ca.pem  # /etc/w.conf:9",
                "CertFile=/etc/wundercast/van.crt  # /etc/w.conf:10",
                "KeyFile=/etc/wundercast/van.key  # /etc/w.conf:11",
                "QoS=0  # /etc/w.conf:12",
                "Precision=3  # /etc/w.conf:13",
                "Discovery=no  # /etc/w.conf:14",
                "DiscoveryPrefix=ha  # /etc/w.conf:15",
                "OwnTracks=alice/van  # /etc/w.conf:16",
            ])
        let stripped = effective.split(separator: "\n").map { $0.components(separatedBy: "  # ").first ?? "" }
        #expect(try Configuration.parse(stripped.joined(separator: "\n")) == parsed.configuration)
        let defaults = try #require(
            ParsedConfiguration().effectiveText().components(separatedBy: "[MQTT]\n").dropFirst().first?
                .components(separatedBy: "\n\n").first)
        #expect(
            defaults.split(separator: "\n") == [
                "Broker=  # (default)", "ClientID=  # (default)", "TopicPrefix=  # (default)", "Username=  # (default)",
                "PasswordFile=  # (default)", "CAFile=  # (default)", "CertFile=  # (default)", "KeyFile=  # (default)",
                "QoS=1  # (default)", "Precision=  # (default)", "Discovery=yes  # (default)",
                "DiscoveryPrefix=homeassistant  # (default)", "OwnTracks=  # (default)",
            ])
    }

    @Test func aReloadNamesTheChangedKeys() throws {
        let after = try Configuration.parse("[MQTT]\nBroker=mqtt://localhost\nPrecision=1\nOwnTracks=a/b\n")
        #expect(
            after.changedKeys(from: Configuration()) == [
                "Broker=mqtt://localhost:1883", "[MQTT] Precision=1", "OwnTracks=a/b",
            ])
    }

    // MARK: Addresses

    @Test(
        arguments: [
            ("::1", [0, 0, 0, 0, 0, 0, 0, 1]), ("::", [0, 0, 0, 0, 0, 0, 0, 0]),
            ("2001:db8::ff00:42:8329", [0x2001, 0xDB8, 0, 0, 0, 0xFF00, 0x42, 0x8329]),
            ("::ffff:192.0.2.1", [0, 0, 0, 0, 0, 0xFFFF, 0xC000, 0x0201]),
            ("1:2:3:4:5:6:7:8", [1, 2, 3, 4, 5, 6, 7, 8]),
            ("fe80::1%eth0", [0xFE80, 0, 0, 0, 0, 0, 0, 1]), ("1::", [1, 0, 0, 0, 0, 0, 0, 0]),
            ("::1.2.3.4", [0, 0, 0, 0, 0, 0, 0x0102, 0x0304]),
        ] as [(String, [UInt16])])
    func ipv6Groups(_ text: String, _ groups: [UInt16]) {
        #expect(Configuration.ipv6Groups(Substring(text)) == groups)
    }

    @Test(arguments: ["1:2:3:4:5:6:7:8:9", "1::2::3", ":::", "::g", "1:2:3:4:5:6:7:1.2.3.4", "::1%", "12345::"])
    func notIPv6(_ text: String) {
        #expect(Configuration.ipv6Groups(Substring(text)) == nil)
    }
}
