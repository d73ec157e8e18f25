import Foundation
import Testing
import WundercastTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// Process side: signal storms (100 SIGHUPs, SIGTERM during a reload), kill -9 while the kept
/// state is written, and broken kept-state and decision files at start-up. The daemon answers,
/// never tears its file, never believes a broken one, and exits cleanly when told to.
@Suite(.enabled(if: FaultCampaign.isSelected, FaultCampaign.skipReason), .serialized)
struct ProcessFaultTests {
    static let truth = Truth(maxAge: 3600, precision: 2)

    @Test func aStormOf100SIGHUPsLosesNothing() async throws {
        let scenario = FaultScenario("process", "SIGHUP storm (100 in a row)")
        let http = try await FixtureHTTPServer()
        let daemon = try await DaemonProcess(configuration: FaultConfiguration.fallback(http, truth: Self.truth))
        await scenario.recovered(daemon, "fresh weather", States.fresh)
        let storms = FaultCampaign.count(ci: 1, full: 5)
        for _ in 0..<storms {
            for _ in 0..<100 { daemon.signal(SIGHUP) }
            scenario.injected(100)
            await scenario.nows(daemon, Self.truth, 3)
        }
        await scenario.recovered(daemon, "fresh weather after the reloads", States.fresh)
        await scenario.end(daemon, Self.truth)
    }

    @Test func sigtermDuringAReloadExitsCleanly() async throws {
        let scenario = FaultScenario("process", "SIGTERM during a reload")
        let http = try await FixtureHTTPServer()
        for round in 0..<FaultCampaign.count(ci: 3, full: 20) {
            let daemon = try await DaemonProcess(configuration: FaultConfiguration.fallback(http, truth: Self.truth))
            await scenario.recovered(daemon, "fresh weather", States.fresh)
            for _ in 0...(round % 3) { daemon.signal(SIGHUP) }
            daemon.signal(SIGTERM)
            scenario.injected(2 + round % 3)
            do {
                let code = try await daemon.exited(timeout: .seconds(10))
                if code >= 128 { scenario.crash("SIGTERM during a reload ended the daemon with signal \(code - 128)") }
                if code != 0 && code < 128 { scenario.untruthful("SIGTERM during a reload: exit status \(code)") }
            } catch {
                scenario.hang("no exit within 10 s of SIGTERM during a reload; log:\n\(daemon.log.suffix(1500))")
                await daemon.stop()
            }
            scenario.checkSafe(daemon.log, "the daemon's log", Self.truth)
        }
        scenario.finish()
    }

    @Test func killMinus9DuringWritesNeverTearsTheKeptState() async throws {
        let scenario = FaultScenario("process", "kill -9 loops while the kept state is written")
        // A receiver moving 2 km every 0.3 s, never back: a fetch, and a write of the kept state,
        // each MinInterval.
        let gpsd = try FakeGPSD(
            script: (0..<400).flatMap { [.fix(latitude: 48.10 + 0.02 * Double($0), longitude: 11.50), .pause(0.3)] })
        let http = try await FixtureHTTPServer()
        let directory = try DatagramSocket.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let kept = directory + "/state.json"
        let truth = Truth(gpsd: gpsd, maxFixAge: 5, maxAge: 3600, precision: 2)
        let configuration = FaultConfiguration.gpsd(gpsd, http, truth: truth, cache: kept)
        for round in 0..<FaultCampaign.count(ci: 5, full: 50) {
            let daemon = try await DaemonProcess(configuration: configuration)
            if let first = await scenario.now(daemon, truth), round > 0 {
                // Right after a restart: the kept weather, stale (no fix yet can have made it fresh... or a new fetch).
                if first["weather"] == nil && FileManager.default.fileExists(atPath: kept)
                    && first["status"] as? String != "fetching"
                {
                    scenario.untruthful("the kept weather was lost after kill -9: \(first["status"] ?? "")")
                }
            }
            let before = try http.requests().count
            _ = try await http.waitForRequests(count: before + 1 + round % 3, timeout: .seconds(30))
            daemon.signal(SIGKILL)
            scenario.injected()
            _ = try? await daemon.exited(timeout: .seconds(10))
            if let bytes = FileManager.default.contents(atPath: kept) {
                if (try? JSONSerialization.jsonObject(with: bytes)) == nil {
                    scenario.untruthful("kill -9 tore the kept state (\(bytes.count) bytes, not JSON)")
                }
            }
            scenario.checkSafe(daemon.log, "the daemon's log", truth)
        }
        let leftovers =
            (try? FileManager.default.contentsOfDirectory(atPath: directory))?.filter { $0 != "state.json" } ?? []
        if leftovers.count > 1 {
            scenario.untruthful("kill -9 left \(leftovers.count) files beside the kept state: \(leftovers)")
        }
        // The last start after all the kills follows the receiver again.
        let daemon = try await DaemonProcess(configuration: configuration)
        await scenario.recovered(daemon, "fresh weather after the kills", States.freshFromGPSD)
        await scenario.end(daemon, truth)
    }

    /// A broken file in the place of the kept state.
    struct BrokenFile: Sendable, CustomTestStringConvertible {
        var name: String
        var bytes: [UInt8]?
        var directory = false
        var symlink: String? = nil
        var testDescription: String { name }
    }

    static let brokenStates: [BrokenFile] = [
        BrokenFile(name: "truncated JSON", bytes: Array(#"{"version":1,"weather":{"temperature":-5.3,"#.utf8)),
        BrokenFile(
            name: "members of the wrong types",
            bytes: Array(#"{"version":"one","fetchedAt":12,"weather":[],"location":"here"}"#.utf8)),
        BrokenFile(name: "empty", bytes: []),
        BrokenFile(name: "NUL bytes", bytes: Array(repeating: 0, count: 4096)),
        BrokenFile(
            name: "5 MB of garbage", bytes: (0..<5_000_000).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) }
        ),
        BrokenFile(name: "a directory", bytes: nil, directory: true),
        BrokenFile(name: "a link to /dev/zero", bytes: nil, symlink: "/dev/zero"),
        BrokenFile(name: "a link to /dev/urandom", bytes: nil, symlink: "/dev/urandom"),
        BrokenFile(
            name: "a byte-order mark and escape codes",
            bytes: Array("\u{FEFF}{\"weather\":{\"condition\":\"\u{1B}[2J\"}}".utf8)),
    ]

    @Test(arguments: FaultCampaign.pick(brokenStates, ci: 1))
    func aBrokenKeptStateIsNeverBelieved(_ broken: BrokenFile) async throws {
        let scenario = FaultScenario("process", "broken kept state: \(broken.name)")
        let gpsd = try FakeGPSD(script: GPSDStep.healthy(latitude: 48.1372, longitude: 11.5756, interval: 0.5))
        let http = try await FixtureHTTPServer()
        let directory = try DatagramSocket.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let kept = directory + "/state.json"
        if broken.directory {
            try FileManager.default.createDirectory(atPath: kept, withIntermediateDirectories: false)
        }
        if let target = broken.symlink {
            try FileManager.default.createSymbolicLink(atPath: kept, withDestinationPath: target)
        }
        if let bytes = broken.bytes { try Data(bytes).write(to: URL(fileURLWithPath: kept)) }
        scenario.injected()
        let truth = Truth(gpsd: gpsd, maxFixAge: 5, maxAge: 3600, precision: 2)
        let daemon: DaemonProcess
        do {
            daemon = try await DaemonProcess(
                configuration: FaultConfiguration.gpsd(gpsd, http, truth: truth, cache: kept),
                startTimeout: .seconds(20))
        } catch {
            scenario.hang("no READY=1 with a broken kept state: \(String(describing: error).prefix(1500))")
            scenario.finish()
            return
        }
        if let first = await scenario.now(daemon, truth), first[path: "error.code"] as? String == "cached" {
            scenario.untruthful("weather from a broken kept state was shown: \(first)")
        }
        await scenario.recovered(daemon, "fresh weather at the fix", States.freshFromGPSD)
        await scenario.end(daemon, truth)
    }

    static let brokenDecisions: [BrokenFile] = [
        BrokenFile(name: "DENIED", bytes: Array("DENIED\n".utf8)),
        BrokenFile(name: "a byte-order mark", bytes: Array("\u{FEFF}denied\n".utf8)),
        BrokenFile(name: "a NUL", bytes: Array("den\u{0}ied\n".utf8)),
        BrokenFile(name: "an extra line", bytes: Array("denied\nalways\n".utf8)),
        BrokenFile(name: "truncated", bytes: Array("den".utf8)),
        BrokenFile(name: "empty", bytes: []),
        BrokenFile(name: "a directory", bytes: nil, directory: true),
    ]

    /// A daemon with `Authorization=always` and `decision` as its saved decision file.
    static func withDecision(
        _ decision: BrokenFile, _ scenario: FaultScenario
    ) async throws -> (
        DaemonProcess, Truth, FakeGPSD, FixtureHTTPServer, String
    ) {
        let gpsd = try FakeGPSD(script: GPSDStep.healthy(latitude: 48.1372, longitude: 11.5756, interval: 0.5))
        let http = try await FixtureHTTPServer()
        let state = try DatagramSocket.temporaryDirectory()
        let file = state + "/authorization"
        if decision.directory {
            try FileManager.default.createDirectory(atPath: file, withIntermediateDirectories: false)
        }
        if let bytes = decision.bytes { try Data(bytes).write(to: URL(fileURLWithPath: file)) }
        scenario.injected()
        let truth = Truth(gpsd: gpsd, maxFixAge: 5, maxAge: 3600, precision: 2)
        let daemon = try await DaemonProcess(
            configuration: FaultConfiguration.gpsd(gpsd, http, truth: truth), environment: ["STATE_DIRECTORY": state])
        return (daemon, truth, gpsd, http, file)
    }

    @Test(arguments: FaultCampaign.pick(brokenDecisions, ci: 1))
    func aBrokenDecisionFileKeepsTheDaemonServing(_ decision: BrokenFile) async throws {
        let scenario = FaultScenario("process", "broken decision file: \(decision.name)")
        let (daemon, truth, gpsd, http, file) = try await Self.withDecision(decision, scenario)
        defer { withExtendedLifetime((gpsd, http)) {} }
        defer { try? FileManager.default.removeItem(atPath: (file as NSString).deletingLastPathComponent) }
        await scenario.nows(daemon, truth, 3)
        // An administrator's decision replaces the broken file.
        let decided = try await daemon.ctl("authorize", "always")
        if decided.status != 0 { scenario.untruthful("authorize always failed: \(decided.stderr)") }
        await scenario.recovered(daemon, "fresh weather at the fix", States.freshFromGPSD)
        await scenario.end(daemon, truth)
    }

    @Test func aSavedDenialIsKept() async throws {
        let scenario = FaultScenario("process", "a saved 'denied' with Authorization=always, GPS reporting")
        let (daemon, truth, gpsd, http, file) = try await Self.withDecision(
            BrokenFile(name: "denied", bytes: Array("denied\n".utf8)), scenario)
        defer { withExtendedLifetime(http) {} }
        defer { try? FileManager.default.removeItem(atPath: (file as NSString).deletingLastPathComponent) }
        for _ in 0..<3 {
            if let state = await scenario.now(daemon, truth), state[path: "location.source"] as? String == "gpsd" {
                scenario.privilege("a position from gpsd though GPS use was denied: \(state["location"] ?? "")")
            }
        }
        if gpsd.connections > 0 {
            scenario.privilege("gpsd was asked \(gpsd.connections) times though GPS use was denied")
        }
        await scenario.end(daemon, truth)
    }
}
