import Foundation
import Testing
import WundercastFleet
import WundercastModel
import WundercastSupport
import WundercastTestSupport

/// The members of `_type=location`, transcribed from https://owntracks.org/booklet/tech/json/#_typelocation:
/// `lat`, `lon` (float, degrees) and `tst` (integer, epoch seconds of the fix) required; `acc`
/// (m), `alt` (m), `vel` (km/h), `cog` (degrees) integers and `tid` a string, optional.
enum OwnTracksFormat {
    enum Kind { case string, float, integer }

    static let members: [String: (kind: Kind, required: Bool)] = [
        "_type": (.string, true), "lat": (.float, true), "lon": (.float, true), "tst": (.integer, true),
        "acc": (.integer, false), "alt": (.integer, false), "vel": (.integer, false), "cog": (.integer, false),
        "tid": (.string, false),
    ]

    /// What `report` breaks: a required member missing, a member of the wrong type, one not in the table.
    static func violations(_ report: JSONValue) -> [String] {
        guard let object = report.object else { return ["not an object"] }
        var found = members.filter { $0.value.required && object[$0.key] == nil }.map { "no \($0.key)" }
        for (name, value) in object {
            guard let member = members[name] else {
                found.append("\(name) is not a member of _type=location")
                continue
            }
            let fits =
                switch member.kind {
                case .string: value.string != nil
                case .float: value.number?.isFinite == true
                case .integer: value.number.map { $0 == $0.rounded() && abs($0) < 9e15 } == true
                }
            if !fits { found.append("\(name) is not \(member.kind)") }
        }
        return found.sorted()
    }
}

@Suite("OwnTracks location")
struct OwnTracksTests {
    /// The report for `state`, checked against ``OwnTracksFormat``.
    private func report(
        _ state: WeatherState = FleetSamples.fullState(), precision: Int = 4, altitude: Double? = nil,
        speed: Double? = nil, track: Double? = nil
    ) throws -> JSONValue {
        let message = try #require(
            OwnTracksDevice("alice/van").locationMessage(
                state, precision: precision, altitude: altitude, speed: speed, track: track))
        #expect(message.topic == "owntracks/alice/van")
        let report = try JSONValue(payload: message.payload)
        #expect(OwnTracksFormat.violations(report) == [])
        return report
    }

    @Test func theBookletsFormat() throws {
        let report = try report()
        #expect(report["_type"]?.string == "location")
        #expect(report["lat"]?.number == 49.12 && report["lon"]?.number == 12.2)
        #expect(report["tid"]?.string == "an")
        #expect(report["acc"]?.number == 8)
        #expect(report["alt"] == nil && report["vel"] == nil && report["cog"] == nil, "never invented")
    }

    /// The table catches what breaks the format: it is not vacuous.
    @Test(
        "the format catches a broken report",
        arguments: [
            (["tst"], nil), (["lat"], .string("49.12")), (["tst"], .number(1.5)), (["acc"], .number(7.86)),
            (["tid"], .number(1)), (["speed"], .number(3)),
        ] as [([String], JSONValue?)])
    func formatCatchesBreakage(path: [String], value: JSONValue?) throws {
        #expect(OwnTracksFormat.violations(try report().setting(path, to: value)) != [])
    }

    @Test func timeIsTheFixsGPSTimeElseWhenReceived() throws {
        var state = FleetSamples.fullState()
        let received = try #require(state.location?.receivedAt)
        #expect(try report(state)["tst"]?.number == received.timeIntervalSince1970.rounded(.down))
        state.location?.time = Date(timeIntervalSince1970: 1_799_999_990.7)
        #expect(try report(state)["tst"]?.number == 1_799_999_990)
        state.location?.time = nil
        state.location?.receivedAt = nil
        #expect(try OwnTracksDevice("alice/van").locationMessage(state, precision: 4) == nil, "no time is made up")
    }

    @Test func noLocationNoMessage() throws {
        #expect(
            try OwnTracksDevice("a/b").locationMessage(SampleStates.withoutWeather(.noLocation), precision: 4) == nil)
    }

    @Test(
        "altitude, speed and course as integers when given",
        arguments: [(412.6, 13.9, 359.6, 413, 50, 0), (-3.4, 0, 90.2, -3, 0, 90), (0, 1.2, -10, 0, 4, 350)]
            as [(Double, Double, Double, Double, Double, Double)])
    func motion(altitude: Double, speed: Double, track: Double, alt: Double, vel: Double, cog: Double) throws {
        let report = try report(altitude: altitude, speed: speed, track: track)
        #expect(report["alt"]?.number == alt && report["vel"]?.number == vel && report["cog"]?.number == cog)
    }

    @Test func motionThatIsNotANumberIsLeftOut() throws {
        let report = try report(altitude: .nan, speed: .infinity, track: 1e300)
        #expect(report["alt"] == nil && report["vel"] == nil && report["cog"] == nil)
    }

    @Test("acc is at least the rounding error and eph", arguments: 0...6)
    func accuracyAtLeastRounding(precision: Int) throws {
        let acc = try #require(try report(precision: precision)["acc"]?.number)
        #expect(acc >= PositionAccuracy.roundingError(decimals: precision))
        #expect(acc >= 4.2)
    }
}
