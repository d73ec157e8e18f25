import Foundation
import Testing
import WundercastFleet
import WundercastModel
import WundercastSupport
import WundercastTestSupport

@Suite("the device tracker's location")
struct LocationPayloadTests {
    @Test func latitudeLongitudeAndAccuracyInOneObject() throws {
        let message = try #require(FleetSamples.topics().locationMessage(FleetSamples.fullState(), precision: 4))
        #expect(message.topic == "wundercast/van/location")
        #expect(
            String(decoding: message.payload, as: UTF8.self) == #"{"gps_accuracy":8,"latitude":49.12,"longitude":12.2}"#
        )
    }

    @Test func noLocationNoMessage() throws {
        var state = FleetSamples.fullState()
        state.location = nil
        #expect(try FleetSamples.topics().locationMessage(state, precision: 4) == nil)
        #expect(
            try FleetSamples.topics().locationMessage(SampleStates.withoutWeather(.noLocation), precision: 4) == nil)
    }

    @Test(
        "the rounding error in metres", arguments: [(5, 0.78, 0.79), (4, 7.8, 7.9), (2, 786, 787), (0, 78_600, 78_700)])
    func roundingError(decimals: Int, atLeast: Double, below: Double) {
        let error = PositionAccuracy.roundingError(decimals: decimals)
        #expect(error >= atLeast && error < below)
    }

    /// 2,000 positions anywhere on Earth, each published at 0 to 6 decimals: the published
    /// position is never farther from the fix than its `gps_accuracy`.
    @Test func accuracyCoversTheRounding() throws {
        var random = SplitMix(seed: 16)
        let topics = try FleetSamples.topics()
        for _ in 0..<2_000 {
            let fix = Coordinate(latitude: random.next(in: -90...90), longitude: random.next(in: -180...180))
            let precision = Int(random.nextUInt64() % 7)
            var state = FleetSamples.fullState()
            state.location?.latitude = fix.latitude
            state.location?.longitude = fix.longitude
            state.location?.eph = nil
            let payload = try JSONValue(payload: #require(topics.locationMessage(state, precision: precision)).payload)
            let published = try Coordinate(
                latitude: #require(payload["latitude"]?.number), longitude: #require(payload["longitude"]?.number))
            let accuracy = try #require(payload["gps_accuracy"]?.number)
            #expect(fix.distance(to: published) <= accuracy, "\(fix) at \(precision) decimals")
            #expect(published == fix.rounded(toDecimals: precision))
        }
    }

    @Test(
        "gps_accuracy is the larger of eph and the rounding error, whole metres up",
        arguments: [
            (4.2, 4, 8), (12.1, 4, 13), (12.1, 2, 787), (nil, 4, 8), (-1, 4, 8), (.nan, 4, 8),
            (.infinity, 4, 8), (1e300, 4, 20_037_509),
        ] as [(Double?, Int, Int)])
    func accuracy(eph: Double?, precision: Int, expected: Int) throws {
        var state = FleetSamples.fullState()
        state.location?.eph = eph
        let payload = try JSONValue(
            payload: #require(FleetSamples.topics().locationMessage(state, precision: precision)).payload)
        #expect(payload["gps_accuracy"]?.number == Double(expected))
    }

    @Test func notFiniteCoordinatesNoMessage() throws {
        var state = FleetSamples.fullState()
        state.location?.latitude = .nan
        #expect(try FleetSamples.topics().locationMessage(state, precision: 4) == nil)
    }
}
