import Foundation
import Testing
import WundercastFleet
import WundercastModel
import WundercastSupport

/// A broker's retained discovery messages and the components Home Assistant has from them, as
/// https://www.home-assistant.io/integrations/mqtt/#device-discovery-payload describes: an empty
/// payload deletes the device of its topic; a component with only its platform is removed.
struct DiscoveryWorld {
    var retained: [String: [UInt8]] = [:]
    /// Config topic → component ids Home Assistant has set up.
    var entities: [String: Set<String>] = [:]

    mutating func deliver(_ messages: [FleetMessage]) throws {
        for message in messages {
            retained[message.topic] = message.payload.isEmpty ? nil : message.payload
            guard !message.payload.isEmpty else {
                entities[message.topic] = nil
                continue
            }
            let components = try #require(JSONValue(payload: message.payload)["components"]?.object)
            var set = entities[message.topic] ?? []
            for (id, config) in components {
                if config.object?.count == 1 { set.remove(id) } else { set.insert(id) }
            }
            entities[message.topic] = set
        }
    }
}

@Suite("what discovery sends when it changes")
struct DiscoveryUpdateTests {
    @Test func firstStartSendsTheMessage() throws {
        let discovery = try FleetSamples.discovery()
        #expect(DiscoveryUpdate.messages(from: nil, to: discovery) == [discovery.message])
    }

    @Test func unchangedSendsTheMessageAgain() throws {
        let discovery = try FleetSamples.discovery()
        #expect(DiscoveryUpdate.messages(from: discovery.record, to: discovery) == [discovery.message])
    }

    @Test func offClearsTheOldTopic() throws {
        let discovery = try FleetSamples.discovery()
        #expect(DiscoveryUpdate.messages(from: discovery.record, to: nil) == [.clearing(discovery.configTopic)])
        #expect(DiscoveryUpdate.messages(from: nil, to: nil) == [])
    }

    @Test(
        "a new prefix or id clears the old topic first",
        arguments: [("homeassistant", "van2"), ("ha", FleetSamples.deviceID), ("ha", "van2")])
    func movedClearsTheOldTopicFirst(prefix: String, deviceID: String) throws {
        let old = try FleetSamples.discovery()
        let new = try FleetSamples.discovery(discoveryPrefix: prefix, deviceID: deviceID)
        #expect(DiscoveryUpdate.messages(from: old.record, to: new) == [.clearing(old.configTopic), new.message])
    }

    @Test func removedComponentIsSentWithOnlyItsPlatformOnce() throws {
        let discovery = try FleetSamples.discovery()
        var old = discovery.record
        old.components["dew_point"] = "sensor"
        old.components["boat"] = "device_tracker"
        let messages = DiscoveryUpdate.messages(from: old, to: discovery)
        try #require(messages.count == 2)
        #expect(messages.allSatisfy { $0.topic == discovery.configTopic })
        let removal = try #require(JSONValue(payload: messages[0].payload)["components"]?.object)
        #expect(removal["dew_point"] == .object(["platform": .string("sensor")]))
        #expect(removal["boat"] == .object(["platform": .string("device_tracker")]))
        let current = try #require(JSONValue(payload: discovery.message.payload)["components"]?.object)
        #expect(removal.filter { current[$0.key] != nil } == current)
        #expect(messages[1] == discovery.message)
        #expect(DiscoveryUpdate.messages(from: discovery.record, to: discovery) == [discovery.message])
    }

    /// Restarts and reloads, each keeping the record the last one left: at every step the broker
    /// keeps one discovery message (none while off) and Home Assistant has exactly its components.
    @Test func noGhostsAcrossASequence() throws {
        var world = DiscoveryWorld()
        var kept: DiscoveryRecord?
        let steps: [HomeAssistantDiscovery?] = [
            try FleetSamples.discovery(), try FleetSamples.discovery(.imperial), nil, try FleetSamples.discovery(),
            try FleetSamples.discovery(discoveryPrefix: "ha"), try FleetSamples.discovery(deviceID: "van-2"),
        ]
        var withExtra = try #require(steps[0]).record
        withExtra.components["dew_point"] = "sensor"
        try world.deliver([
            .init(
                topic: withExtra.configTopic,
                payload: Array(#"{"components":{"dew_point":{"platform":"sensor","unique_id":"x"}}}"#.utf8))
        ])
        kept = withExtra
        for step in steps {
            try world.deliver(DiscoveryUpdate.messages(from: kept, to: step))
            // Kept as a file in the state directory: through JSON.
            kept = try step.map {
                try JSONDecoder().decode(DiscoveryRecord.self, from: JSONEncoder().encode($0.record))
            }
            #expect(world.retained.keys.sorted() == [step?.configTopic].compactMap { $0 })
            #expect(
                world.entities.filter { !$0.value.isEmpty }.mapValues { $0.sorted() }
                    == (step.map { [$0.configTopic: $0.components.map(\.id).sorted()] } ?? [:]))
        }
    }

    @Test(
        "a kept record that could not be published to is refused",
        arguments: [
            #"{"discoveryPrefix":"home/#","deviceID":"van","components":{}}"#,
            #"{"discoveryPrefix":"homeassistant","deviceID":"van 1","components":{}}"#,
            #"{"discoveryPrefix":"","deviceID":"van","components":{}}"#,
            #"{"discoveryPrefix":"homeassistant","deviceID":"van","components":{"a b":"sensor"}}"#,
            #"{"discoveryPrefix":"homeassistant","deviceID":"van","components":{"temperature":"sen/sor"}}"#,
        ])
    func damagedRecordIsRefused(_ json: String) {
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(DiscoveryRecord.self, from: Data(json.utf8)) }
    }
}
