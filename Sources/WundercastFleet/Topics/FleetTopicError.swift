/// A topic prefix, discovery prefix, device id or OwnTracks `user/device` that cannot be used,
/// naming the value and what is wrong with it (``description`` is one line for the journal or
/// `--check-config`).
public struct FleetTopicError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Which value was refused.
    public enum Field: String, Sendable, Equatable {
        /// `[MQTT] TopicPrefix=` (or the daemon's default, `wundercast/<hostname>`).
        case topicPrefix = "topic prefix"
        /// `[MQTT] DiscoveryPrefix=` (Home Assistant's default `homeassistant`).
        case discoveryPrefix = "discovery prefix"
        /// The device id in `<DiscoveryPrefix>/device/<id>/config` and in the device's identifiers.
        case deviceID = "device id"
        /// `[MQTT] OwnTracks=`, `user/device`.
        case ownTracks = "OwnTracks user/device"
    }

    /// What is wrong.
    public enum Problem: Sendable, Equatable {
        /// No characters at all (a topic name, an OwnTracks level or a discovery id).
        case empty
        /// `+` or `#`: MQTT's wildcards, never in a published topic name (MQTT 5.0 §4.7.1).
        case wildcard(Unicode.Scalar)
        /// U+0000 (MQTT 5.0 §1.5.4: must not), or another C0/C1 control or DEL (should not;
        /// libmosquitto 2.0.11 refuses them in a topic with `MOSQ_ERR_MALFORMED_UTF8`).
        case controlCharacter(Unicode.Scalar)
        /// A Unicode noncharacter (U+FDD0–U+FDEF, U+xFFFE, U+xFFFF): libmosquitto refuses it too.
        case nonCharacter(Unicode.Scalar)
        /// Starts with `$`: MQTT reserves such topics for the broker (`$SYS/…`; MQTT 5.0 §4.7.2),
        /// and a `#` subscription does not see them.
        case reservedByBroker
        /// The topic it makes would be longer than MQTT's 65,535 bytes of UTF-8 (MQTT 5.0 §1.5.4).
        case tooLong(bytes: Int)
        /// A character outside `[a-zA-Z0-9_-]`, the only ones Home Assistant allows in a
        /// discovery id (https://www.home-assistant.io/integrations/mqtt/#discovery-topic).
        case notDiscoveryID(Unicode.Scalar)
        /// Not two non-empty levels `user/device`.
        case notUserAndDevice
    }

    public var field: Field
    /// The value as it was given.
    public var value: String
    public var problem: Problem

    public init(_ field: Field, value: String, _ problem: Problem) {
        self.field = field
        self.value = value
        self.problem = problem
    }

    /// E.g. `topic prefix "fleet/+/van": contains "+", an MQTT wildcard, which a published topic must not contain`.
    public var description: String {
        "\(field.rawValue) \(Self.quoted(value)): \(problemText)"
    }

    public var problemText: String {
        switch problem {
        case .empty: "is empty"
        case .wildcard(let scalar):
            "contains \"\(scalar)\", an MQTT wildcard, which a published topic must not contain"
        case .controlCharacter(let scalar):
            "contains \(Self.codePoint(scalar)), a control character, which an MQTT topic must not contain"
        case .nonCharacter(let scalar):
            "contains \(Self.codePoint(scalar)), a Unicode noncharacter, which an MQTT topic must not contain"
        case .reservedByBroker: "starts with \"$\", which MQTT reserves for the broker's own topics"
        case .tooLong(let bytes):
            "makes a topic of \(bytes) bytes, more than MQTT's \(TopicName.maximumBytes)"
        case .notDiscoveryID(let scalar):
            "contains \(Self.shown(scalar)); Home Assistant allows only letters, digits, \"_\" and \"-\" in a discovery id"
        case .notUserAndDevice: "is not of the form user/device"
        }
    }

    /// The value in quotes with control characters escaped, cut after 64 characters.
    private static func quoted(_ value: String) -> String {
        let shown = String(value.prefix(64))
        return shown.debugDescription + (shown.count < value.count ? "…" : "")
    }

    /// `"ä" (U+00E4)`; a control character or noncharacter by its code point alone.
    private static func shown(_ scalar: Unicode.Scalar) -> String {
        switch TopicName.problem(in: String(scalar)) {
        case .controlCharacter, .nonCharacter: codePoint(scalar)
        default: "\"\(scalar)\" (\(codePoint(scalar)))"
        }
    }

    private static func codePoint(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
