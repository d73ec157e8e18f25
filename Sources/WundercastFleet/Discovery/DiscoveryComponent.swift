/// One entity of the device's Home Assistant discovery message: a sensor reading one member of
/// the state, or the device tracker reading `<prefix>/location`
/// (https://www.home-assistant.io/integrations/mqtt/#device-discovery-payload). The daemon's
/// set is ``HomeAssistantDiscovery/components``.
public struct DiscoveryComponent: Sendable, Equatable {
    /// Home Assistant's platform (`p`), required in every component of a device message.
    public enum Platform: String, Sendable, CaseIterable {
        case sensor
        case binarySensor = "binary_sensor"
        case deviceTracker = "device_tracker"
    }

    /// Sensor device classes used here, as Home Assistant names them
    /// (https://developers.home-assistant.io/docs/core/entity/sensor/#available-device-classes).
    public enum DeviceClass: String, Sendable, CaseIterable {
        case temperature, humidity
        case windSpeed = "wind_speed"
        case windDirection = "wind_direction"
        case atmosphericPressure = "atmospheric_pressure"
        /// Wave and swell heights (`m`, `ft`).
        case distance
        /// A speed that is not wind's (the ocean current: `kn`, `km/h`).
        case speed
        /// A text from a fixed list of ``DiscoveryComponent/options``.
        case enumeration = "enum"
        /// A binary sensor that is on when something is unsafe
        /// (https://www.home-assistant.io/integrations/binary_sensor/#device-class).
        case safety
    }

    /// Sensor state classes used here
    /// (https://developers.home-assistant.io/docs/core/entity/sensor/#available-state-classes).
    public enum StateClass: String, Sendable, CaseIterable {
        /// A measurement in present time.
        case measurement
        /// A measurement in present time of an angle in degrees (wind direction).
        case measurementAngle = "measurement_angle"
    }

    /// One step of a member path in the state's JSON: a member name or an array index.
    public enum Member: Sendable, Equatable {
        case key(String)
        case index(Int)
    }

    /// The key under the message's `components`, e.g. `temperature`; also the end of the
    /// entity's `unique_id` and `default_entity_id`. An id keeps its platform.
    public let id: String
    public let platform: Platform
    /// The entity's name; Home Assistant shows it after the device's name.
    public let name: String
    public let deviceClass: DeviceClass?
    /// Home Assistant's unit string (`°C`, `km/h`, `%`, `°`), when the value has a unit.
    public let unit: String?
    public let stateClass: StateClass?
    /// The texts an `enum` sensor can show.
    public let options: [String]?
    /// Where a sensor's value is in the state's JSON (`weather.temperature`); `nil` for the
    /// device tracker, which reads `<prefix>/location`.
    public let member: [Member]?
    /// A `value_template` of its own instead of one reading ``member`` (the official alerts'
    /// entities, ``ValueTemplate/alertActive`` and ``ValueTemplate/alertCount``).
    public let template: String?

    init(
        id: String, platform: Platform, name: String, deviceClass: DeviceClass? = nil, unit: String? = nil,
        stateClass: StateClass? = nil, options: [String]? = nil, member: [Member]?, template: String? = nil
    ) {
        self.template = template
        self.id = id
        self.platform = platform
        self.name = name
        self.deviceClass = deviceClass
        self.unit = unit
        self.stateClass = stateClass
        self.options = options
        self.member = member
    }
}

/// A component's options in the discovery message; a removed component has only `platform`.
struct ComponentConfig: Encodable {
    var platform: String
    var uniqueID: String?
    var defaultEntityID: String?
    var name: String?
    var deviceClass: String?
    var unit: String?
    var stateClass: String?
    var options: [String]?
    var stateTopic: String?
    var valueTemplate: String?
    var jsonAttributesTopic: String?
    var sourceType: String?

    private enum CodingKeys: String, CodingKey {
        case platform, name, options
        case uniqueID = "unique_id"
        case defaultEntityID = "default_entity_id"
        case deviceClass = "device_class"
        case unit = "unit_of_measurement"
        case stateClass = "state_class"
        case stateTopic = "state_topic"
        case valueTemplate = "value_template"
        case jsonAttributesTopic = "json_attributes_topic"
        case sourceType = "source_type"
    }
}
