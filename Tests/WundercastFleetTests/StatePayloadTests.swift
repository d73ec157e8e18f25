import Foundation
import Testing
import WundercastFleet
import WundercastModel
import WundercastProtocol
import WundercastSupport
import WundercastTestSupport

@Suite("the retained state")
struct StatePayloadTests {
    @Test("the WEATHER object without its relative ages", arguments: [true, false])
    func withoutAges(stamped: Bool) throws {
        let state = FleetSamples.fullState()
        let published = stamped ? state.stamped(now: SampleStates.now) : state
        if stamped { #expect(published.ageSeconds != nil && published.location?.ageSeconds != nil) }
        let message = try FleetSamples.topics().stateMessage(published)
        #expect(message.topic == "wundercast/van/state")
        let json = try JSONValue(payload: message.payload)
        #expect(json["ageSeconds"] == nil && json["location"]?["ageSeconds"] == nil)
        #expect(json["fetchedAt"]?.string != nil && json["location"]?["receivedAt"]?.string != nil)
        #expect(message.payload.last == UInt8(ascii: "}"), "no newline")
        // The socket's own encoding: the same bytes as a WEATHER line of the state without ages.
        var withoutAges = published
        withoutAges.ageSeconds = nil
        withoutAges.location?.ageSeconds = nil
        #expect(message.payload + [UInt8(ascii: "\n")] == SocketProtocol.line(withoutAges))
        #expect(
            try SocketProtocol.decodeState(message.payload)
                == SocketProtocol.decodeState(SocketProtocol.line(withoutAges)))
    }

    @Test func aStateWithoutLocationOrWeather() throws {
        let message = try FleetSamples.topics().stateMessage(SampleStates.withoutWeather(.noLocation))
        #expect(String(decoding: message.payload, as: UTF8.self).hasPrefix(#"{"class":"WEATHER","#))
    }
}
