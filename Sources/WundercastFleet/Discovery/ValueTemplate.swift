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

    /// The binary sensor "weather alert": `ON` while the state lists an official alert in force
    /// (`alerts.items` not empty, whether the source answered last time or not), `OFF` when the
    /// source answered with none, `None` (unknown) when nothing is known — the source did not
    /// answer and no alert is known, no source covers the position, alerts are off. (`items` is
    /// read with brackets and tested with `in`: `.items`, and `['items']` when the member is
    /// missing, are the mapping's method in Jinja — always defined; Jinja2 itself renders these
    /// in the tests.)
    static let alertActive =
        "{{ ('ON' if value_json.alerts['items'] | length > 0 else 'OFF') if value_json.alerts is defined"
        + " and 'items' in value_json.alerts else None }}"

    /// The sensor "alerts in force": how many, only while the source answered (`status` `ok`);
    /// `None` (unknown) otherwise — a source that did not answer has no count to give.
    static let alertCount =
        "{{ value_json.alerts['items'] | length if value_json.alerts is defined"
        + " and value_json.alerts.status == 'ok' and 'items' in value_json.alerts else None }}"
}
