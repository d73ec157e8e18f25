import WundercastSupport

/// The rules a topic name wundercast publishes to must meet: MQTT 5.0's
/// (https://docs.oasis-open.org/mqtt/mqtt/v5.0/mqtt-v5.0.html §1.5.4, §4.7) and those libmosquitto
/// 2.0.11 enforces in `mosquitto_publish` (`mosquitto_pub_topic_check`, `mosquitto_validate_utf8`).
public enum TopicName {
    /// The longest topic name, in bytes of UTF-8: MQTT's strings have a two-byte length.
    public static let maximumBytes = 65_535

    /// Refuses a topic name that is empty, longer than ``maximumBytes``, holds a wildcard
    /// (`+`, `#`), a control character (``WundercastSupport/UntrustedText/isControl(_:)``: C0, C1, line
    /// separators, bidirectional controls) or a Unicode noncharacter,
    /// or starts with `$`. The error names `field` and `value`.
    public static func validate(_ value: String, as field: FleetTopicError.Field) throws(FleetTopicError) {
        if let problem = problem(in: value) { throw FleetTopicError(field, value: value, problem) }
    }

    /// The first thing wrong with `topic` as a topic name to publish to, or `nil`.
    static func problem(in topic: String) -> FleetTopicError.Problem? {
        if topic.isEmpty { return .empty }
        if topic.utf8.count > maximumBytes { return .tooLong(bytes: topic.utf8.count) }
        for scalar in topic.unicodeScalars {
            if scalar == "+" || scalar == "#" { return .wildcard(scalar) }
            // Control characters as outside text knows them, bidirectional overrides included (a
            // prefix that turns a log line around).
            if UntrustedText.isControl(scalar) { return .controlCharacter(scalar) }
            if (0xFDD0...0xFDEF).contains(scalar.value) || scalar.value & 0xFFFE == 0xFFFE {
                return .nonCharacter(scalar)
            }
        }
        return topic.hasPrefix("$") ? .reservedByBroker : nil
    }
}

/// Home Assistant's rule for the ids in a discovery topic, `[a-zA-Z0-9_-]+`
/// (https://www.home-assistant.io/integrations/mqtt/#discovery-topic).
public enum DiscoveryID {
    /// Refuses an empty `value` or one with any character outside `[a-zA-Z0-9_-]`.
    public static func validate(_ value: String, as field: FleetTopicError.Field) throws(FleetTopicError) {
        if let problem = problem(in: value) { throw FleetTopicError(field, value: value, problem) }
    }

    static func problem(in value: String) -> FleetTopicError.Problem? {
        if value.isEmpty { return .empty }
        for scalar in value.unicodeScalars where !isAllowed(scalar) { return .notDiscoveryID(scalar) }
        return nil
    }

    private static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "_", "-": true
        default: false
        }
    }
}
