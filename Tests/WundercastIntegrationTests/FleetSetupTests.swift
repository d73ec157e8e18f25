import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
import WundercastPOSIX
import WundercastSystemd

@testable import WundercastConfiguration
@testable import WundercastServer

/// `[MQTT]` resolved by the daemon: the default client id and topic prefix, the password's
/// source and the one rule on where it may go.
@Suite struct FleetSetupTests {
    static let appID = "0123456789abcdef0123456789abcdef"

    func setup(
        _ text: String, environment: [String: String] = [:], files: [String: String] = [:], uid: UInt32 = 0,
        host: String? = "van"
    ) throws -> Daemon.FleetSetup? {
        try Daemon.fleetSetup(
            try Configuration.parse(text), environment: { environment[$0] },
            read: { path, _ throws(WholeFile.ReadError) in
                guard let text = files[path] else {
                    throw .system(Errno(call: "open", subject: path, code: ENOENT))
                }
                return Array(text.utf8)
            }, machineID: { () throws(SystemdError) in Self.appID }, hostName: host, effectiveUser: uid)
    }

    @Test func noBrokerIsNoMQTT() throws {
        #expect(try setup("[MQTT]\nTopicPrefix=x") == nil)
    }

    @Test func theDefaultsComeFromTheAppSpecificIDAndTheHostName() throws {
        let system = try #require(try setup("[MQTT]\nBroker=mqtt://127.0.0.1"))
        #expect(system.client.clientID == "wundercast-0123456789abcdef")
        #expect(!system.client.clientID.contains(Self.appID), "never the whole id")
        #expect(system.topics.prefix == "wundercast/van")
        #expect(system.client.availabilityTopic == "wundercast/van/availability")
        #expect(system.discovery?.configTopic == "homeassistant/device/wundercast-0123456789abcdef/config")
        #expect(system.client.subscriptions == ["homeassistant/status"])
        let user = try #require(
            try setup("[MQTT]\nBroker=mqtt://127.0.0.1", environment: ["MANAGERPID": "1"], uid: 1000))
        #expect(user.client.clientID == "wundercast-0123456789abcdef-u1000")
        let byHand = try #require(try setup("[MQTT]\nBroker=mqtt://127.0.0.1", uid: 1000))
        #expect(byHand.client.clientID.hasSuffix("-u1000"))
        let named = try #require(try setup("[MQTT]\nBroker=mqtt://127.0.0.1\nClientID=van1\nTopicPrefix=fleet/v"))
        #expect(named.client.clientID == "van1")
        #expect(named.discovery?.deviceID == "van1", "several daemons on one machine: one device each")
        #expect(named.topics.prefix == "fleet/v")
        #expect(try setup("[MQTT]\nBroker=mqtt://127.0.0.1\nDiscovery=no")?.discovery == nil)
    }

    @Test func thePasswordComesFromItsFileOrTheCredential() throws {
        let file = try #require(
            try setup(
                "[MQTT]\nBroker=mqtts://broker.example.org\nUsername=van\nPasswordFile=/etc/mqtt.pw",
                files: ["/etc/mqtt.pw": "s3cret\n"]))
        #expect(file.client.password == "s3cret")
        #expect(file.client.tls != nil)
        let credential = try #require(
            try setup(
                "[MQTT]\nBroker=mqtts://broker.example.org\nUsername=van",
                environment: ["CREDENTIALS_DIRECTORY": "/run/credentials/wundercast.service"],
                files: ["/run/credentials/wundercast.service/mqtt": "fromcredential"]))
        #expect(credential.client.password == "fromcredential")
        let none = try #require(try setup("[MQTT]\nBroker=mqtts://broker.example.org\nUsername=van"))
        #expect(none.client.password == nil)
    }

    /// The credential is found by the daemon, not named in the file: the rule the configuration
    /// applies to `PasswordFile=` applies to it too (``MQTTBroker/allowsPassword``).
    @Test func aCredentialIsNeverSentOverPlainMQTTBeyondLoopback() throws {
        #expect(throws: Daemon.FleetSetupError.self) {
            try setup(
                "[MQTT]\nBroker=mqtt://broker.example.org\nUsername=van",
                environment: ["CREDENTIALS_DIRECTORY": "/c"], files: ["/c/mqtt": "secret"])
        }
        let loopback = try setup(
            "[MQTT]\nBroker=mqtt://127.0.0.1\nUsername=van", environment: ["CREDENTIALS_DIRECTORY": "/c"],
            files: ["/c/mqtt": "secret"])
        #expect(loopback?.client.password == "secret")
    }

    @Test func anUnreadablePasswordNamesTheFileNeverItsContent() throws {
        do {
            _ = try setup(
                "[MQTT]\nBroker=mqtts://b.example.org\nUsername=van\nPasswordFile=/etc/mqtt.pw",
                files: ["/etc/mqtt.pw": "two words"])
            Issue.record("accepted a password file with two words")
        } catch {
            #expect("\(error)".contains("/etc/mqtt.pw"), "\(error)")
            #expect(!"\(error)".contains("two words"), "\(error)")
        }
        #expect(throws: Daemon.FleetSetupError.self) {
            try setup("[MQTT]\nBroker=mqtts://b.example.org\nUsername=van\nPasswordFile=/missing")
        }
    }
}
