/// The JSON of a device-based discovery message, with Home Assistant's unabbreviated option names
/// (https://www.home-assistant.io/integrations/mqtt/#device-discovery-payload).
struct DeviceDiscoveryPayload: Encodable {
    struct Device: Encodable {
        var identifiers: [String]
        var name: String
        var model: String
        var swVersion: String

        private enum CodingKeys: String, CodingKey {
            case identifiers, name, model
            case swVersion = "sw_version"
        }
    }

    var device: Device
    /// `name`, `sw_version`, `support_url`.
    var origin: [String: String]
    /// Each with `topic`, `payload_available`, `payload_not_available`.
    var availability: [[String: String]]
    var components: [String: ComponentConfig]
}
