/// Who the daemon reports as to OwnTracks (`[MQTT] OwnTracks=user/device`): its location goes to
/// `owntracks/<user>/<device>`, the topic the OwnTracks apps publish to
/// (https://owntracks.org/booklet/tech/json/#topics), which Home Assistant's OwnTracks
/// integration and OwnTracks Recorder read.
public struct OwnTracksDevice: Sendable, Equatable, CustomStringConvertible {
    /// The first level after `owntracks/`.
    public let user: String
    /// The second level; the tracker id comes from it (``trackerID``).
    public let device: String

    /// Reads `user/device`: exactly two non-empty levels, neither with a wildcard, a control
    /// character or a noncharacter (``TopicName``).
    public init(_ userAndDevice: String) throws(FleetTopicError) {
        let levels = userAndDevice.split(separator: "/", omittingEmptySubsequences: false)
        guard levels.count == 2, !levels[0].isEmpty, !levels[1].isEmpty else {
            throw FleetTopicError(.ownTracks, value: userAndDevice, .notUserAndDevice)
        }
        if let problem = TopicName.problem(in: "owntracks/" + userAndDevice) {
            throw FleetTopicError(.ownTracks, value: userAndDevice, problem)
        }
        user = String(levels[0])
        device = String(levels[1])
    }

    /// `owntracks/<user>/<device>`.
    public var topic: String { "owntracks/\(user)/\(device)" }

    /// `user/device`, as `[MQTT] OwnTracks=` reads it back.
    public var description: String { "\(user)/\(device)" }

    /// `tid`, the initials an OwnTracks map shows: the last two characters of the device name,
    /// as the apps default to ("The tid defaults to the last two characters of the topic",
    /// https://owntracks.org/booklet/tech/json/#_typelocation); one character for a
    /// one-character name.
    public var trackerID: String { String(device.suffix(2)) }
}
