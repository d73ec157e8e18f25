import WundercastModel
import WundercastSupport

/// What the daemon tells Home Assistant about itself: one retained device-based discovery
/// message on `<DiscoveryPrefix>/device/<id>/config`
/// (https://www.home-assistant.io/integrations/mqtt/#device-discovery-payload) with
///
/// - `device`: `identifiers` (the app-specific id), `name`, `model` (`wundercastd`), `sw_version`;
/// - `origin`: `name` (`wundercast`), `sw_version`, `support_url` (the project's address);
/// - `availability`: `<prefix>/availability`, `online` / `offline`;
/// - `components`: ``components``, each with `platform`, `unique_id` (`<id>_<component>`),
///   `default_entity_id` (`<platform>.wundercast_<name>_<component>`; never `object_id`, gone in
///   Home Assistant 2026.4) and, for a sensor, its own `state_topic` (`<prefix>/state`) and a
///   `value_template` that renders `None` (unknown) for a value the provider did not give.
///
/// The state topic is not shared at the message's top level: the device tracker would inherit
/// it and take the whole state for its location's name.
///
/// Send ``message`` (through ``DiscoveryUpdate``) at connect, when a reload changes what this
/// describes (the values differ), and when ``homeAssistantStatusTopic`` says `online`; never
/// with state updates.
public struct HomeAssistantDiscovery: Sendable, Equatable {
    /// Home Assistant's default discovery prefix.
    public static let defaultPrefix = "homeassistant"

    /// `[MQTT] DiscoveryPrefix=`.
    public let discoveryPrefix: String
    /// The device's id: in the discovery topic, the device's `identifiers` and every `unique_id`.
    /// The daemon's app-specific machine id (`sd_id128_get_machine_app_specific`), never the raw one.
    public let deviceID: String
    /// The device's name in Home Assistant (e.g. the host name, `van`); its entity ids are made of it.
    public let deviceName: String
    /// Where the state, location and availability are.
    public let topics: FleetTopics
    /// The units the state's values are in (`[Weather] Units=` and the per-quantity overrides).
    public let units: UnitPreferences
    /// Whether the sea state's sensors are announced (`[Weather] Marine=` not `no`).
    public let marine: Bool

    /// Refuses a discovery prefix or device id that makes an invalid topic (``TopicName``), and a
    /// device id outside `[a-zA-Z0-9_-]+` (``DiscoveryID``).
    public init(
        discoveryPrefix: String = defaultPrefix, deviceID: String, deviceName: String, topics: FleetTopics,
        units: UnitPreferences, marine: Bool = false
    ) throws(FleetTopicError) {
        try DiscoveryID.validate(deviceID, as: .deviceID)
        for topic in [discoveryPrefix, Self.configTopic(discoveryPrefix, deviceID)] {
            if let problem = TopicName.problem(in: topic) {
                throw FleetTopicError(.discoveryPrefix, value: discoveryPrefix, problem)
            }
        }
        self.discoveryPrefix = discoveryPrefix
        self.deviceID = deviceID
        self.deviceName = deviceName
        self.topics = topics
        self.units = units
        self.marine = marine
    }

    /// `<DiscoveryPrefix>/device/<id>/config`.
    public var configTopic: String { Self.configTopic(discoveryPrefix, deviceID) }

    /// `<DiscoveryPrefix>/status`, where Home Assistant publishes its birth message `online` when
    /// it starts: discovery is sent again then.
    public var homeAssistantStatusTopic: String { discoveryPrefix + "/status" }

    /// The entities, in the configured units (``DiscoveryComponent/catalog(units:)``), and the
    /// sea state's with ``marine`` (``DiscoveryComponent/marineCatalog(units:)``).
    public var components: [DiscoveryComponent] {
        DiscoveryComponent.catalog(units: units) + (marine ? DiscoveryComponent.marineCatalog(units: units) : [])
    }

    /// What this publishes, to be kept until the next time (``DiscoveryUpdate``).
    public var record: DiscoveryRecord {
        DiscoveryRecord(
            discoveryPrefix: discoveryPrefix, deviceID: deviceID,
            components: Dictionary(uniqueKeysWithValues: components.map { ($0.id, $0.platform.rawValue) }))
    }

    /// The retained discovery message.
    public var message: FleetMessage { message(removing: [:]) }

    /// The discovery message, with each of `removed` (component id → platform) reduced to its
    /// platform alone: Home Assistant's way to remove one component of a device.
    func message(removing removed: [String: String]) -> FleetMessage {
        var configs = removed.mapValues { ComponentConfig(platform: $0) }
        for component in components { configs[component.id] = config(component) }
        let payload = DeviceDiscoveryPayload(
            device: .init(
                identifiers: [deviceID], name: deviceName, model: "wundercastd", swVersion: Wundercast.version),
            origin: ["name": "wundercast", "sw_version": Wundercast.version, "support_url": Wundercast.projectURL],
            availability: [
                [
                    "topic": topics.availability, "payload_available": Availability.online.rawValue,
                    "payload_not_available": Availability.offline.rawValue,
                ]
            ],
            components: configs)
        // Strings only: encoding cannot fail, and an empty payload would delete the device.
        guard let bytes = FleetJSON.encode(payload) else {
            preconditionFailure("the discovery message of device \(deviceID) could not be encoded")
        }
        return FleetMessage(topic: configTopic, payload: bytes)
    }

    private func config(_ component: DiscoveryComponent) -> ComponentConfig {
        var config = ComponentConfig(platform: component.platform.rawValue)
        config.uniqueID = deviceID + "_" + component.id
        config.defaultEntityID = component.platform.rawValue + "." + entitySlug(component)
        config.name = component.name
        config.deviceClass = component.deviceClass?.rawValue
        config.unit = component.unit
        config.stateClass = component.stateClass?.rawValue
        config.options = component.options
        if let template = component.template {
            config.stateTopic = topics.state
            config.valueTemplate = template
        } else if let member = component.member {
            config.stateTopic = topics.state
            config.valueTemplate = ValueTemplate.reading(member)
        } else {
            config.jsonAttributesTopic = topics.location
            config.sourceType = "gps"
        }
        return config
    }

    /// `wundercast_<device name>_<component>`; the device id stands in for a name with no ASCII
    /// letter or digit.
    private func entitySlug(_ component: DiscoveryComponent) -> String {
        let name = EntitySlug.make(deviceName)
        return EntitySlug.make("wundercast \(name.isEmpty ? deviceID : name) \(component.id)")
    }

    private static func configTopic(_ prefix: String, _ deviceID: String) -> String {
        "\(prefix)/device/\(deviceID)/config"
    }
}
