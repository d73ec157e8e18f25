/// What the daemon last published for Home Assistant's discovery: where, and which components
/// with which platforms. The daemon keeps it in its state directory (JSON, `Codable`) so that a
/// restart with another prefix, id or set of components, or with discovery turned off, still
/// clears or removes what the previous run left retained on the broker (``DiscoveryUpdate``).
public struct DiscoveryRecord: Sendable, Equatable, Codable {
    /// The discovery prefix it was published under.
    public var discoveryPrefix: String
    /// The device id of its topic.
    public var deviceID: String
    /// Component id → platform (`sensor`, `device_tracker`): a removal names the platform.
    public var components: [String: String]

    public init(discoveryPrefix: String, deviceID: String, components: [String: String]) {
        self.discoveryPrefix = discoveryPrefix
        self.deviceID = deviceID
        self.components = components
    }

    /// `<discoveryPrefix>/device/<deviceID>/config`.
    public var configTopic: String { "\(discoveryPrefix)/device/\(deviceID)/config" }

    /// Reads a kept record, refusing one whose topic could not be published to (a damaged or
    /// hand-edited file): an invalid prefix or id, or a component id or platform outside
    /// `[a-zA-Z0-9_-]+`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        discoveryPrefix = try container.decode(String.self, forKey: .discoveryPrefix)
        deviceID = try container.decode(String.self, forKey: .deviceID)
        components = try container.decode([String: String].self, forKey: .components)
        let problem =
            DiscoveryID.problem(in: deviceID) ?? TopicName.problem(in: discoveryPrefix)
            ?? TopicName.problem(in: configTopic)
            ?? components.lazy.compactMap { DiscoveryID.problem(in: $0.key) ?? DiscoveryID.problem(in: $0.value) }
            .first
        if let problem {
            throw DecodingError.dataCorrupted(
                .init(codingPath: [], debugDescription: "discovery record for \(configTopic): \(problem)"))
        }
    }

    private enum CodingKeys: String, CodingKey {
        case discoveryPrefix, deviceID, components
    }
}
