/// The topics one daemon publishes its own messages to, all under one prefix (`[MQTT]
/// TopicPrefix=`; the daemon's default is `wundercast/<hostname>`). Every message is retained.
///
/// - `<prefix>/availability`: `online` or `offline` (``Availability``);
/// - `<prefix>/state`: the `WEATHER` object (``stateMessage(_:)``);
/// - `<prefix>/location`: the position for Home Assistant's MQTT device tracker
///   (``locationMessage(_:precision:)``).
public struct FleetTopics: Sendable, Equatable {
    /// The prefix as configured, e.g. `wundercast/van`.
    public let prefix: String

    /// Refuses a prefix that makes any of the three topics invalid (``TopicName``): empty, a
    /// wildcard, a control character, a leading `$`, too long.
    public init(prefix: String) throws(FleetTopicError) {
        for topic in [prefix, prefix + Self.longestSuffix] {
            if let problem = TopicName.problem(in: topic) {
                throw FleetTopicError(.topicPrefix, value: prefix, problem)
            }
        }
        self.prefix = prefix
    }

    /// `<prefix>/availability`: the daemon's ``Availability``, also its MQTT will.
    public var availability: String { prefix + Self.longestSuffix }
    /// `<prefix>/state`: the state as a reader at `[MQTT] Precision=` sees it.
    public var state: String { prefix + "/state" }
    /// `<prefix>/location`: `{"gps_accuracy":…,"latitude":…,"longitude":…}`, the device tracker's
    /// JSON attributes topic.
    public var location: String { prefix + "/location" }

    /// The retained `online` or `offline` on ``availability``. The will is `offline`.
    public func availabilityMessage(_ availability: Availability) -> FleetMessage {
        FleetMessage(topic: self.availability, payload: Array(availability.rawValue.utf8))
    }

    private static let longestSuffix = "/availability"
}

/// Whether the daemon is connected, as `<prefix>/availability` says and as Home Assistant's
/// discovery reads it (`payload_available`, `payload_not_available`).
public enum Availability: String, Sendable, CaseIterable {
    /// Published retained after each connect.
    case online
    /// The will, and what the daemon publishes itself on a clean stop.
    case offline
}
