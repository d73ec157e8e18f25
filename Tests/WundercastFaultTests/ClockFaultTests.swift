import Foundation
import Testing
import WundercastTestSupport

/// Clock: the daemon's wall clock steps (libfaketime, Debian `faketime`, preloaded into the
/// daemon alone: the machine's clock is never touched) and the kernel's synchronisation state is
/// injected (`Tests/Tools/adjtimex_ok.c`). `now` answers through the steps, and weather fetched
/// after a step is fresh with a true age.
@Suite(
    .enabled(if: FaultCampaign.isSelected, FaultCampaign.skipReason),
    .enabled(
        if: FileManager.default.fileExists(atPath: SteppedClock.library),
        "libfaketime not installed (Debian faketime; make faults installs it)"),
    .serialized)
struct ClockFaultTests {
    static let truth = Truth(maxAge: 86_400, precision: 2)

    /// Forward steps within MaxAge; backward steps and a year ahead are the finding "ages after
    /// a wall clock step" (FindingFaultTests).
    @Test(arguments: FaultCampaign.pick([7200, 600], ci: 1))
    func aWallClockStepIsSurvived(_ step: Int) async throws {
        let scenario = FaultScenario("clock", "the wall clock steps \(step > 0 ? "+" : "")\(step) s")
        let clock = try await SteppedClock()
        let http = try await FixtureHTTPServer()
        let daemon = try await DaemonProcess(
            configuration: FaultConfiguration.fallback(http, truth: Self.truth), environment: clock.environment,
            launcher: clock.launcher)
        await scenario.recovered(daemon, "fresh weather", States.fresh)
        try clock.step(to: step)
        scenario.injected()
        await scenario.nows(daemon, Self.truth, 3)
        // A fetch after the step: fresh, its age counted from the stepped clock, so about 0.
        let before = try http.requests().count
        _ = try await daemon.ctl("refresh")
        _ = try await http.waitForRequests(count: before + 1, timeout: .seconds(30))
        await scenario.recovered(daemon, "fresh weather fetched after the step") {
            States.fresh($0) && ($0["ageSeconds"] as? Double).map { $0 <= 5 } == true
        }
        await scenario.end(daemon, Self.truth)
    }
}

/// A wall clock for one daemon that the test steps: libfaketime reads the offset from a file
/// on every call (`FAKETIME_NO_CACHE`); monotonic clocks stay real (`FAKETIME_DONT_FAKE_MONOTONIC`),
/// and so do monotonic timers (`Tests/Tools/timerfd_real.c`, preloaded first: libfaketime moves
/// them by the offset, which no real step does).
final class SteppedClock: Sendable {
    static let library = "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1"
    let file: String
    let realTimers: String

    /// Builds the timer companion and starts at offset 0.
    init() async throws {
        let directory = try DatagramSocket.temporaryDirectory()
        file = directory + "/faketime"
        realTimers = directory + "/timerfd_real.so"
        let result = try await runProcess(
            "/usr/bin/cc",
            ["-shared", "-fPIC", "-o", realTimers, Fixtures.tools.appendingPathComponent("timerfd_real.c").path])
        guard result.status == 0 else { throw FaultSetupError(description: "cc timerfd_real.c: \(result.stderr)") }
        try step(to: 0)
    }

    deinit { try? FileManager.default.removeItem(atPath: (file as NSString).deletingLastPathComponent) }

    /// Put before the daemon's command line: `env`, preloaded too, execs it. (Started by
    /// `posix_spawn` straight from an unpreloaded parent, the preloaded daemon ran with its
    /// default configuration as if without `--config`: seen here with libfaketime 0.9.10.)
    let launcher = ["/usr/bin/env"]

    /// The environment that makes a daemon read this clock.
    var environment: [String: String] {
        [
            "LD_PRELOAD": realTimers + ":" + Self.library, "FAKETIME_TIMESTAMP_FILE": file,
            "FAKETIME_NO_CACHE": "1", "FAKETIME_DONT_FAKE_MONOTONIC": "1",
        ]
    }

    /// From now on the daemon's wall clock is `offset` seconds off the real one.
    func step(to offset: Int) throws {
        try "\(offset >= 0 ? "+" : "")\(offset)\n".write(toFile: file + ".new", atomically: false, encoding: .utf8)
        _ = rename(file + ".new", file)
    }
}

/// `Tests/Tools/adjtimex_ok.c` built into a preloadable library: the kernel's answer "the clock
/// is synchronised" (TIME_OK), injected into one daemon.
enum SynchronisedKernel {
    static func library(in directory: String) async throws -> String {
        let output = directory + "/adjtimex_ok.so"
        let result = try await runProcess(
            "/usr/bin/cc",
            ["-shared", "-fPIC", "-o", output, Fixtures.tools.appendingPathComponent("adjtimex_ok.c").path])
        guard result.status == 0 else { throw FaultSetupError(description: "cc adjtimex_ok.c: \(result.stderr)") }
        return output
    }
}
