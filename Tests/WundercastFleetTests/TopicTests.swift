import Testing
import WundercastFleet

@Suite("topics and the ids in them")
struct TopicTests {
    @Test func topicsUnderThePrefix() throws {
        let topics = try FleetTopics(prefix: "wundercast/van")
        #expect(topics.availability == "wundercast/van/availability")
        #expect(topics.state == "wundercast/van/state")
        #expect(topics.location == "wundercast/van/location")
        #expect(
            topics.availabilityMessage(.online)
                == FleetMessage(topic: topics.availability, payload: Array("online".utf8)))
        #expect(topics.availabilityMessage(.offline).payload == Array("offline".utf8))
    }

    /// The longest prefix leaves room for `/availability` within MQTT's 65,535 bytes.
    @Test func longestPrefix() throws {
        let longest = String(repeating: "é", count: (TopicName.maximumBytes - 13) / 2)
        #expect(longest.utf8.count == TopicName.maximumBytes - 13)
        #expect(throws: Never.self) { try FleetTopics(prefix: longest) }
        #expect(
            throws: FleetTopicError(.topicPrefix, value: longest + "y", .tooLong(bytes: TopicName.maximumBytes + 1))
        ) {
            try FleetTopics(prefix: longest + "y")
        }
    }

    static let badPrefixes: [(String, FleetTopicError.Problem)] = [
        ("", .empty), ("fleet/+/van", .wildcard("+")), ("fleet/#", .wildcard("#")),
        ("van\u{0}", .controlCharacter("\u{0}")),
        ("van\tboat", .controlCharacter("\t")), ("van\u{7F}", .controlCharacter("\u{7F}")),
        ("van\u{85}", .controlCharacter("\u{85}")), ("van\u{202E}kcab", .controlCharacter("\u{202E}")),
        ("van" + String(scalar(0xFDD0)), .nonCharacter(scalar(0xFDD0))),
        ("van" + String(scalar(0xFFFF)), .nonCharacter(scalar(0xFFFF))),
        ("van" + String(scalar(0x1FFFE)), .nonCharacter(scalar(0x1FFFE))),
        ("$SYS/van", .reservedByBroker),
    ]

    /// A scalar Swift's string literals refuse (U+FFFF, U+1FFFE are noncharacters).
    static func scalar(_ value: UInt32) -> Unicode.Scalar { Unicode.Scalar(value) ?? "?" }

    @Test("a topic prefix that makes no valid topic is refused, naming it", arguments: badPrefixes)
    func badPrefix(_ prefix: String, problem: FleetTopicError.Problem) {
        let expected = FleetTopicError(.topicPrefix, value: prefix, problem)
        #expect(throws: expected) { try FleetTopics(prefix: prefix) }
        #expect(expected.description.hasPrefix("topic prefix \(prefix.debugDescription): "))
        #expect(throws: FleetTopicError(.discoveryPrefix, value: prefix, problem)) {
            try FleetSamples.discovery(discoveryPrefix: prefix)
        }
    }

    @Test func descriptionNamesValueAndRule() {
        #expect(
            FleetTopicError(.topicPrefix, value: "fleet/+/van", .wildcard("+")).description
                == #"topic prefix "fleet/+/van": contains "+", an MQTT wildcard, which a published topic must not contain"#
        )
        #expect(
            FleetTopicError(.deviceID, value: "van 1", .notDiscoveryID(" ")).description
                == #"device id "van 1": contains " " (U+0020); Home Assistant allows only letters, digits, "_" and "-" in a discovery id"#
        )
        #expect(
            FleetTopicError(.topicPrefix, value: "a\u{0}", .controlCharacter("\u{0}")).description
                == #"topic prefix "a\0": contains U+0000, a control character, which an MQTT topic must not contain"#)
        let long = String(repeating: "x", count: 100)
        #expect(
            FleetTopicError(.topicPrefix, value: long, .empty).description.contains(
                "\"" + String(repeating: "x", count: 64) + "\"…"))
    }

    @Test(
        "a device id outside [a-zA-Z0-9_-]+ is refused",
        arguments: [
            ("", FleetTopicError.Problem.empty), ("van 1", .notDiscoveryID(" ")), ("vän", .notDiscoveryID("ä")),
            ("van/1", .notDiscoveryID("/")), ("van+", .notDiscoveryID("+")),
        ])
    func badDeviceID(_ id: String, problem: FleetTopicError.Problem) {
        #expect(throws: FleetTopicError(.deviceID, value: id, problem)) { try FleetSamples.discovery(deviceID: id) }
    }

    @Test func goodDeviceID() throws {
        #expect(try FleetSamples.discovery(deviceID: "Van-2_b").configTopic == "homeassistant/device/Van-2_b/config")
    }

    @Test func ownTracksUserAndDevice() throws {
        let device = try OwnTracksDevice("alice/van")
        #expect(device.topic == "owntracks/alice/van")
        #expect(device.trackerID == "an")
        #expect(try OwnTracksDevice("bob/x").trackerID == "x")
        #expect(try OwnTracksDevice("jürgen/wohnmobil").topic == "owntracks/jürgen/wohnmobil")
    }

    @Test(
        "OwnTracks= other than user/device is refused",
        arguments: [
            ("alice", FleetTopicError.Problem.notUserAndDevice), ("alice/", .notUserAndDevice),
            ("/van", .notUserAndDevice), ("alice/van/x", .notUserAndDevice), ("", .notUserAndDevice),
            ("alice/v+n", .wildcard("+")), ("alice/#", .wildcard("#")), ("al\u{1B}ce/van", .controlCharacter("\u{1B}")),
        ])
    func badOwnTracks(_ text: String, problem: FleetTopicError.Problem) {
        #expect(throws: FleetTopicError(.ownTracks, value: text, problem)) { try OwnTracksDevice(text) }
    }
}
