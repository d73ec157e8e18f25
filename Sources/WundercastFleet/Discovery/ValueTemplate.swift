/// Home Assistant `value_template`s that read one member of the state's JSON.
///
/// A member the provider did not give is absent from the state (never `null`, never 0), and the
/// template then renders `None`, which Home Assistant's MQTT sensor takes as "unknown" for any
/// sensor, numeric, text or enum (`if payload == PAYLOAD_NONE: self._attr_native_value = None`,
/// `PAYLOAD_NONE = "None"`: homeassistant/components/mqtt/sensor.py and const.py; "a 'null' value
/// will set the sensor to an unknown state", https://www.home-assistant.io/integrations/sensor.mqtt/).
/// Each step is tested with `is defined` before the next is read: reading a member of an
/// undefined value is a template error, and then Home Assistant keeps the entity's previous
/// state ("If the template throws an error, the current state will be used instead"), which
/// would go stale.
enum ValueTemplate {
    /// E.g. `{{ value_json.weather.temperature if value_json.weather is defined and
    /// value_json.weather.temperature is defined else None }}` (on one line).
    static func reading(_ member: [DiscoveryComponent.Member]) -> String {
        var path = "value_json"
        var tests: [String] = []
        for step in member {
            switch step {
            case .key(let name): path += "." + name
            case .index(let index): path += "[\(index)]"
            }
            tests.append(path + " is defined")
        }
        return "{{ \(path) if \(tests.joined(separator: " and ")) else None }}"
    }
}
