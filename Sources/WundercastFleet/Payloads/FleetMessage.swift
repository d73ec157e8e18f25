#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One MQTT message for the daemon to publish. Every message wundercast publishes is retained,
/// so that a subscriber that comes later (Home Assistant after its restart, a bridge after its
/// link returns) gets the newest at once; an empty ``payload`` clears the topic's retained
/// message (MQTT 5.0 §3.3.1.3) and, on a discovery topic, removes what it had configured.
public struct FleetMessage: Sendable, Equatable, CustomStringConvertible {
    /// A valid topic name (``TopicName``).
    public var topic: String
    /// UTF-8 JSON without a trailing newline, `online`/`offline`, or empty (a clearing).
    public var payload: [UInt8]

    public init(topic: String, payload: [UInt8]) {
        self.topic = topic
        self.payload = payload
    }

    /// An empty retained payload on `topic`.
    public static func clearing(_ topic: String) -> FleetMessage { FleetMessage(topic: topic, payload: []) }

    /// `topic payload`, as `mosquitto_sub -v` prints it (`topic (cleared)` for an empty payload).
    public var description: String {
        topic + " " + (payload.isEmpty ? "(cleared)" : String(decoding: payload, as: UTF8.self))
    }
}

/// The JSON of the payloads other than the state (which is the socket's `WEATHER` object):
/// compact, members sorted (the same configuration gives the same bytes, so a repeated
/// discovery message is recognisably the same), `/` not escaped.
enum FleetJSON {
    /// `nil` when `value` cannot be encoded (a coordinate that is not finite).
    static func encode(_ value: some Encodable) -> [UInt8]? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { [UInt8]($0) }
    }
}
