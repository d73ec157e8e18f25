import Foundation
import Testing
import WundercastTestSupport

/// gpsd side: a gpsd that lies (impossible or malformed numbers, NaN, huge lines, half lines),
/// vanishes, sends one TPV and closes in a loop, falls silent, or reports its device coming and
/// going. Throughout, `now` answers, no state claims more than gpsd reported, and once the fault
/// ends a good fix makes the state fresh again.
@Suite(.enabled(if: FaultCampaign.isSelected, FaultCampaign.skipReason), .serialized)
struct GPSDFaultTests {
    static let home = (latitude: 48.1372, longitude: 11.5756)

    /// A lie: a line a broken or hostile gpsd sends between good fixes.
    struct Lie: Sendable, CustomTestStringConvertible {
        var name: String
        var steps: [GPSDStep]
        /// The lie ends the connection (a line over the reader's limit): each one is a reconnect,
        /// and reconnects back off (a connection that never stayed up 30 s with a fix is not
        /// healthy), so the scenario waits for one more lie per round, not three.
        var closesTheConnection = false
        var testDescription: String { name }
    }

    static func tpv(_ members: String) -> String { GPSDStepLines.tpv(members) }

    static let lies: [Lie] = [
        Lie(name: "impossible latitude and longitude", steps: [.line(tpv(#""lat":91.5,"lon":200.25"#))]),
        Lie(name: "huge lines", steps: [.junk(bytes: 64 * 1024)], closesTheConnection: true),
        Lie(name: "NaN coordinates", steps: [.line(tpv(#""lat":NaN,"lon":NaN"#))]),
        Lie(name: "coordinates as strings", steps: [.line(tpv(#""lat":"48.5","lon":"11.9""#))]),
        Lie(name: "a TPV without a mode", steps: [.line(#"{"class":"TPV","time":"{now}","lat":47.0,"lon":10.0}"#)]),
        Lie(
            name: "mode 1 (no fix) with a position",
            steps: [.line(tpv(#""lat":47.0,"lon":10.0"#).replacingOccurrences(of: #""mode":3"#, with: #""mode":1"#))]),
        Lie(
            name: "an eph of 50 km",
            steps: [.line(tpv(#""lat":47.0,"lon":10.0"#).replacingOccurrences(of: #""eph":5"#, with: #""eph":50000"#))]),
        Lie(name: "half a line, then a pause", steps: [.raw(#"{"class":"TPV","lat":4"#), .pause(0.5), .line("")]),
        Lie(name: "not JSON at all", steps: [.line("\u{1B}[2J$GPGGA,garbage,*00\u{07}")]),
        Lie(name: "a TPV at Null Island without time", steps: [.line(#"{"class":"TPV","mode":2,"lat":0,"lon":0}"#)]),
    ]

    @Test(arguments: FaultCampaign.pick(lies, ci: 2))
    func aLyingGPSDIsNeverBelieved(_ lie: Lie) async throws {
        let scenario = FaultScenario("gpsd", "gpsd lies: \(lie.name)")
        let good = GPSDStep.fix(latitude: Self.home.latitude, longitude: Self.home.longitude)
        let world = try await GPSDWorld([
            .repeating([good, .pause(0.2)] + lie.steps.map(GPSDStep.fault) + [.pause(0.2)], times: nil)
        ])
        let (gpsd, truth, daemon) = (world.gpsd, world.truth, world.daemon)
        await scenario.recovered(daemon, "fresh weather at the reported fix", States.freshFromGPSD)
        for _ in 0..<FaultCampaign.count(ci: 4, full: 10) {
            try await gpsd.faultsReach(gpsd.faults + (lie.closesTheConnection ? 1 : 3))
            await scenario.now(daemon, truth)
        }
        // The fault ends: a receiver elsewhere reports good fixes only.
        try gpsd.play(GPSDStep.healthy(latitude: 48.5, longitude: 11.9, interval: 0.5))
        await scenario.recovered(daemon, "fresh weather at the new position") {
            States.freshFromGPSD($0) && ($0[path: "location.latitude"] as? Double).map { abs($0 - 48.5) < 0.01 } == true
        }
        scenario.injected(gpsd.faults)
        await scenario.end(daemon, truth)
    }

    @Test func aGPSDThatVanishesLeavesOnlyTheLastKnownPosition() async throws {
        let scenario = FaultScenario("gpsd", "gpsd vanishes (connections refused at once)")
        let world = try await GPSDWorld(GPSDStep.healthy(latitude: Self.home.latitude, longitude: Self.home.longitude))
        let (gpsd, truth, daemon) = (world.gpsd, world.truth, world.daemon)
        await scenario.recovered(daemon, "fresh weather at the fix", States.freshFromGPSD)
        // gpsd goes: every connection is closed before its banner.
        try gpsd.play([.fault(.pause(0))], banner: false)
        await scenario.recovered(daemon, "the position only last known, gpsd unreachable") {
            $0[path: "location.status"] as? String == "lastKnown"
                && $0[path: "error.code"] as? String == "gpsd-unreachable"
        }
        try await gpsd.faultsReach(4)
        await scenario.nows(daemon, truth, 3)
        try gpsd.play(GPSDStep.healthy(latitude: Self.home.latitude, longitude: Self.home.longitude, interval: 0.5))
        await scenario.recovered(daemon, "fresh again once gpsd is back", States.freshFromGPSD)
        scenario.injected(max(1, gpsd.faults))
        await scenario.end(daemon, truth)
    }

    @Test func oneTPVThenCloseInALoopIsFollowedTruthfully() async throws {
        let scenario = FaultScenario("gpsd", "gpsd sends one TPV then closes, in a loop")
        let world = try await GPSDWorld([.fault(.fix(latitude: Self.home.latitude, longitude: Self.home.longitude))])
        let (gpsd, truth, daemon) = (world.gpsd, world.truth, world.daemon)
        // Whatever it makes of them (a fix, or none: a connection that closes at once is no
        // healthy gpsd), `now` answers and states nothing gpsd did not report.
        for count in [2, 4, 5] {
            try await gpsd.faultsReach(count)
            await scenario.now(daemon, truth)
        }
        try gpsd.play(GPSDStep.healthy(latitude: 48.5, longitude: 11.9, interval: 0.5))
        await scenario.recovered(daemon, "fresh weather from a healthy gpsd") {
            States.freshFromGPSD($0) && ($0[path: "location.latitude"] as? Double).map { abs($0 - 48.5) < 0.01 } == true
        }
        scenario.injected(gpsd.faults)
        await scenario.end(daemon, truth)
    }

    @Test func aSilentGPSDAgesTheFix() async throws {
        let scenario = FaultScenario("gpsd", "gpsd falls silent (connection open, no reports)")
        let world = try await GPSDWorld(GPSDStep.healthy(latitude: Self.home.latitude, longitude: Self.home.longitude))
        let (gpsd, truth, daemon) = (world.gpsd, world.truth, world.daemon)
        await scenario.recovered(daemon, "fresh weather at the fix", States.freshFromGPSD)
        try gpsd.play([.fault(.hold)])
        await scenario.recovered(daemon, "no fix within MaxFixAge: the position only last known") {
            $0[path: "location.status"] as? String == "lastKnown" && $0["status"] as? String == "stale"
                && $0[path: "error.code"] as? String == "no-fix"
        }
        await scenario.nows(daemon, truth, 3)
        try gpsd.play(GPSDStep.healthy(latitude: Self.home.latitude, longitude: Self.home.longitude, interval: 0.5))
        await scenario.recovered(daemon, "fresh again once fixes come", States.freshFromGPSD)
        scenario.injected(gpsd.faults)
        await scenario.end(daemon, truth)
    }

    static let deviceGone = #"{"class":"DEVICE","path":"/dev/ttyFAKE0","activated":0}"#
    static let deviceBack = #"{"class":"DEVICE","path":"/dev/ttyFAKE0","driver":"NMEA0183","activated":"{now}"}"#

    @Test func aFlappingDeviceIsReportedTruthfully() async throws {
        let scenario = FaultScenario("gpsd", "gpsd's DEVICE flaps (gone and back, twice a second)")
        let world = try await GPSDWorld(GPSDStep.healthy(latitude: Self.home.latitude, longitude: Self.home.longitude))
        let (gpsd, truth, daemon) = (world.gpsd, world.truth, world.daemon)
        await scenario.recovered(daemon, "fresh weather at the fix", States.freshFromGPSD)
        try gpsd.play([
            .repeating(
                [.fault(.line(Self.deviceGone)), .pause(0.25), .line(Self.deviceBack), .pause(0.25)],
                times: FaultCampaign.count(ci: 12, full: 60)),
            .line(Self.deviceGone), .hold,
        ])
        for count in [2, 6, FaultCampaign.count(ci: 12, full: 60)] {
            try await gpsd.faultsReach(count)
            await scenario.now(daemon, truth)
        }
        await scenario.recovered(daemon, "the receiver reported gone") {
            $0[path: "error.code"] as? String == "device-gone" && $0["status"] as? String == "stale"
        }
        try gpsd.play(GPSDStep.healthy(latitude: Self.home.latitude, longitude: Self.home.longitude, interval: 0.5))
        await scenario.recovered(daemon, "fresh again once the device reports fixes", States.freshFromGPSD)
        scenario.injected(gpsd.faults)
        await scenario.end(daemon, truth)
    }
}
