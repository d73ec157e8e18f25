/// The messages that take Home Assistant from what was published before (a kept
/// ``DiscoveryRecord``, `nil` at the first start or after discovery was off) to what is to be
/// published now (`nil`: `Discovery=no`), in order:
///
/// - the prefix or the device id changed, or discovery was turned off: an empty retained payload
///   on the old config topic, which deletes the old device and its retained message (no ghost
///   entities) — first, before the new message, so that the two never claim the same `unique_id`s;
/// - a component that disappeared (same topic): the message once with that component reduced to
///   its `platform`, Home Assistant's documented removal of one component, then the message
///   without it ("After removing a component, you should send another update with the removed
///   component omitted", https://www.home-assistant.io/integrations/mqtt/#device-discovery-payload);
/// - otherwise: the current message.
///
/// Call it when discovery is due (connect, a reload that changed it, Home Assistant's birth
/// message), then keep `new?.record` once the broker has taken the messages.
public enum DiscoveryUpdate {
    public static func messages(from old: DiscoveryRecord?, to new: HomeAssistantDiscovery?) -> [FleetMessage] {
        var messages: [FleetMessage] = []
        var removed: [String: String] = [:]
        if let old {
            if let new, new.configTopic == old.configTopic {
                let current = Set(new.components.map(\.id))
                removed = old.components.filter { !current.contains($0.key) }
            } else {
                messages.append(.clearing(old.configTopic))
            }
        }
        guard let new else { return messages }
        if !removed.isEmpty { messages.append(new.message(removing: removed)) }
        messages.append(new.message)
        return messages
    }
}
