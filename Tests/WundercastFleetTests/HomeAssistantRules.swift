import WundercastSupport

/// Home Assistant's rules for a device-based discovery message, transcribed from its
/// documentation and the code the documentation points to (Home Assistant itself needs a newer
/// Python than Debian 12's). Each rule names its source; ``HomeAssistantRule/violations`` lists
/// what a payload breaks, empty when it keeps the rule.
struct HomeAssistantRule: Sendable, CustomStringConvertible {
    var description: String
    var source: String
    var violations: @Sendable (JSONValue) -> [String]
}

enum HomeAssistantRules {
    static let mqtt = "https://www.home-assistant.io/integrations/mqtt/#device-discovery-payload"
    static let sensorClasses = "https://developers.home-assistant.io/docs/core/entity/sensor/#available-device-classes"
    static let sensorConst = "https://github.com/home-assistant/core/blob/dev/homeassistant/components/sensor/const.py"

    /// `DEVICE_CLASS_UNITS` for the device classes wundercast uses (sensor/const.py; the
    /// developer docs' table spells `mmHG`, the code's `UnitOfPressure.MMHG` is `mmHg`; `Beaufort`
    /// is in `UnitOfSpeed`, which `WIND_SPEED` takes whole). `nil`: no unit.
    static let deviceClassUnits: [String: Set<String?>] = [
        "temperature": ["°C", "°F", "K"],
        "humidity": ["%"],
        "wind_speed": ["Beaufort", "ft/s", "km/h", "kn", "m/s", "mph"],
        "wind_direction": ["°"],
        "atmospheric_pressure": ["cbar", "bar", "hPa", "mmHg", "inHg", "inH₂O", "kPa", "mbar", "Pa", "psi"],
        "enum": [nil],
        // The sea state's (`Marine=`): `DISTANCE` takes `UnitOfLength`, `SPEED` `UnitOfSpeed`.
        "distance": ["km", "m", "cm", "mm", "in", "ft", "yd", "mi", "nmi"],
        "speed": ["Beaufort", "ft/s", "in/d", "in/h", "in/s", "km/h", "kn", "m/s", "mph", "mm/d", "mm/s"],
    ]

    /// `DEVICE_CLASS_STATE_CLASSES` for the same classes (sensor/const.py); `enum` takes none.
    static let deviceClassStateClasses: [String: Set<String>] = [
        "temperature": ["measurement"], "humidity": ["measurement"], "wind_speed": ["measurement"],
        "wind_direction": ["measurement_angle"], "atmospheric_pressure": ["measurement"], "enum": [],
        "distance": ["measurement", "total"], "speed": ["measurement"],
    ]

    static let all: [HomeAssistantRule] = [
        HomeAssistantRule(
            description: "device and origin mappings at the root, origin with a name", source: mqtt
        ) { payload in
            var found: [String] = []
            if payload["device"]?.object == nil { found.append("no device mapping") }
            if payload["origin"]?["name"]?.string?.isEmpty != false { found.append("no origin name") }
            return found
        },
        HomeAssistantRule(
            description: "device identified by identifiers or connections",
            source: "https://www.home-assistant.io/integrations/sensor.mqtt/#device"
        ) { payload in
            payload["device"]?["identifiers"] == nil && payload["device"]?["connections"] == nil
                ? ["device has neither identifiers nor connections"] : []
        },
        HomeAssistantRule(
            description: "components: each with a platform, another option and, for an entity, a unique_id",
            source: mqtt
        ) { payload in
            guard let components = payload["components"]?.object, !components.isEmpty else { return ["no components"] }
            return components.flatMap { id, config -> [String] in
                guard let options = config.object, options["platform"]?.string != nil else {
                    return ["\(id): no platform"]
                }
                var found: [String] = []
                if options.count < 2 { found.append("\(id): no option besides the platform") }
                if options["unique_id"]?.string == nil { found.append("\(id): no unique_id") }
                return found
            }
        },
        HomeAssistantRule(
            description: "unique_ids differ",
            source: "https://www.home-assistant.io/integrations/sensor.mqtt/#unique_id"
        ) { payload in
            let ids = components(payload).compactMap { $0.1["unique_id"]?.string }
            return Set(ids).count == ids.count ? [] : ["duplicate unique_id among \(ids)"]
        },
        HomeAssistantRule(
            description: "no object_id (replaced by default_entity_id, gone in Home Assistant 2026.4)",
            source: "https://github.com/home-assistant/core/blob/dev/homeassistant/components/mqtt/entity.py"
        ) { payload in
            components(payload).filter { $0.1["object_id"] != nil }.map { "\($0.0): object_id" }
        },
        HomeAssistantRule(
            description: "default_entity_id is <platform>.<object>, the object [a-z0-9_] without _ at either end",
            source: "https://www.home-assistant.io/integrations/device_tracker.mqtt/#default_entity_id "
                + "and VALID_ENTITY_ID in https://github.com/home-assistant/core/blob/dev/homeassistant/core.py"
        ) { payload in
            components(payload).compactMap { id, config in
                let platform = config["platform"]?.string ?? ""
                guard let entity = config["default_entity_id"]?.string else { return "\(id): no default_entity_id" }
                let parts = entity.split(separator: ".", omittingEmptySubsequences: false)
                return parts.count == 2 && parts[0] == platform && isEntityObjectID(parts[1])
                    ? nil : "\(id): default_entity_id \(entity)"
            }
        },
        HomeAssistantRule(
            description: "a sensor's unit is one its device class accepts", source: sensorClasses
        ) { payload in
            sensors(payload).compactMap { id, config in
                guard let deviceClass = config["device_class"]?.string else { return nil }
                guard let units = deviceClassUnits[deviceClass] else { return "\(id): device class \(deviceClass)" }
                let unit = config["unit_of_measurement"]?.string
                return units.contains(unit) ? nil : "\(id): \(deviceClass) in \(unit ?? "no unit")"
            }
        },
        HomeAssistantRule(
            description: "a sensor's state class is one its device class accepts", source: sensorConst
        ) { payload in
            sensors(payload).compactMap { id, config in
                let stateClass = config["state_class"]?.string
                guard let deviceClass = config["device_class"]?.string else {
                    let known: Set<String?> = [nil, "measurement", "measurement_angle", "total", "total_increasing"]
                    return known.contains(stateClass) ? nil : "\(id): state class \(stateClass ?? "")"
                }
                guard let stateClass else { return nil }
                return deviceClassStateClasses[deviceClass]?.contains(stateClass) == true
                    ? nil : "\(id): \(deviceClass) with \(stateClass)"
            }
        },
        HomeAssistantRule(
            description: "state class measurement_angle only with °", source: sensorConst + " (STATE_CLASS_UNITS)"
        ) { payload in
            sensors(payload).compactMap { id, config in
                config["state_class"]?.string == "measurement_angle" && config["unit_of_measurement"]?.string != "°"
                    ? "\(id): measurement_angle without °" : nil
            }
        },
        HomeAssistantRule(
            description: "options only with device class enum, not empty, without state class or unit",
            source: "https://www.home-assistant.io/integrations/sensor.mqtt/#options"
        ) { payload in
            sensors(payload).compactMap { id, config in
                let isEnum = config["device_class"]?.string == "enum"
                guard case .array(let options)? = config["options"] else { return isEnum ? "\(id): no options" : nil }
                return isEnum && !options.isEmpty && config["state_class"] == nil
                    && config["unit_of_measurement"] == nil
                    ? nil : "\(id): options"
            }
        },
        HomeAssistantRule(
            description: "a sensor has a state_topic, its own or the message's",
            source: "https://www.home-assistant.io/integrations/sensor.mqtt/#state_topic"
        ) { payload in
            sensors(payload).compactMap { id, config in
                config["state_topic"]?.string ?? payload["state_topic"]?.string == nil ? "\(id): no state_topic" : nil
            }
        },
        HomeAssistantRule(
            description: "a device tracker's source_type is gps, router, bluetooth or bluetooth_le",
            source: "https://www.home-assistant.io/integrations/device_tracker.mqtt/#source_type"
        ) { payload in
            components(payload).filter { $0.1["platform"]?.string == "device_tracker" }.compactMap { id, config in
                guard let type = config["source_type"]?.string else { return nil }
                return ["gps", "router", "bluetooth", "bluetooth_le"].contains(type) ? nil : "\(id): \(type)"
            }
        },
        HomeAssistantRule(
            description: "availability: a list of mappings, each with a topic",
            source: "https://www.home-assistant.io/integrations/sensor.mqtt/#availability"
        ) { payload in
            guard let availability = payload["availability"] else { return [] }
            guard case .array(let entries) = availability else { return ["availability is not a list"] }
            return entries.contains { $0["topic"]?.string == nil } ? ["availability without a topic"] : []
        },
    ]

    /// `(id, options)` of each component.
    static func components(_ payload: JSONValue) -> [(String, JSONValue)] {
        (payload["components"]?.object ?? [:]).sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    static func sensors(_ payload: JSONValue) -> [(String, JSONValue)] {
        components(payload).filter { $0.1["platform"]?.string == "sensor" }
    }

    /// `(?!_)[\da-z_]+(?<!_)`, the object part of `VALID_ENTITY_ID`.
    static func isEntityObjectID(_ text: Substring) -> Bool {
        !text.isEmpty && !text.hasPrefix("_") && !text.hasSuffix("_")
            && text.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
    }
}
