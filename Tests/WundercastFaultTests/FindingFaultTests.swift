import Foundation
import Testing
import WundercastTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// One scenario per finding of issue 14, asserting the behaviour the issue asks for. The one
/// finding fixed last (ages after a wall clock step) runs under libfaketime.
@Suite(.enabled(if: FaultCampaign.isSelected, FaultCampaign.skipReason), .serialized)
struct FindingFaultTests {
    static let home = (latitude: 48.1372, longitude: 11.5756)

    // MARK: S1: public lookups answered from the daemon's own cell

    @Test
    func s1PublicLookupsNeverComeFromTheDaemonsCell() async throws {
        let scenario = FaultScenario("socket", "S1: nobody probes the cells around the public position")
        let gpsd = try FakeGPSD(
            script: GPSDStep.healthy(latitude: Self.home.latitude, longitude: Self.home.longitude, interval: 0.5))
        let http = try await FixtureHTTPServer()
        let truth = Truth(gpsd: gpsd, maxFixAge: 5, maxAge: 3600, precision: 2)
        let daemon = try await DaemonProcess(
            configuration: FaultConfiguration.gpsd(gpsd, http, truth: truth, extra: "[Socket]\nLookupsPerMinute=1000"))
        daemon.openToOtherUsers()
        await scenario.recovered(daemon, "fresh weather at the fix", States.freshFromGPSD)
        // From now on each fetch takes 2 s: weather fetched for a probe is seconds younger than
        // the daemon's own, so a probe answered from the daemon's cell stands out by its age.
        try http.respond(delaySeconds: 2)
        // The cells at Precision=2 around the public position 48.1,11.6 (all 100 in the full campaign).
        let side = FaultCampaign.isFull ? Array(0..<10) : [3, 4, 5]
        let cells = side.flatMap { i in side.map { j in (48.10 + Double(i + 1) * 0.01, 11.55 + Double(j) * 0.01) } }
        var answers: [String] = []
        for batch in stride(from: 0, to: cells.count, by: 4) {
            let requests = cells[batch..<min(batch + 4, cells.count)].map { "weather \($0.0),\($0.1)\n" }.joined()
            answers += try await ask(daemon, Array(requests.utf8)).lines
            scenario.injected(min(4, cells.count - batch))
        }
        // Every probed cell is answered in its public cell (PublicPrecision=1): the answers of one
        // public cell are alike, whichever probed cell asked, and none is the daemon's own fetch.
        var fetchedPerCell: [String: Set<String>] = [:]
        for answer in answers {
            let object = (try? JSONSerialization.jsonObject(with: Data(answer.utf8))) as? [String: Any] ?? [:]
            let cell = "\(object[path: "location.latitude"] ?? "?"),\(object[path: "location.longitude"] ?? "?")"
            fetchedPerCell[cell, default: []].insert(object["fetchedAt"] as? String ?? "none")
        }
        let own = try await daemon.now()["fetchedAt"] as? String
        if fetchedPerCell.values.contains(where: { $0.count != 1 || own.map($0.contains) == true }) {
            scenario.privilege(
                "the probed cells are told apart by their fetch times \(fetchedPerCell) (the daemon's: \(own ?? "none")): \(answers.map { $0.prefix(200) })"
            )
        }
        await scenario.end(daemon, truth)
    }

    // MARK: S2: the API key in a 200 answer's texts and past the 200-character cut

    @Test
    func s2AProviderEchoingTheKeyEverywhereLeavesNoPiece() async throws {
        let scenario = FaultScenario("secrets", "S2: a provider echoes the API key in every text and error")
        let key = SecretFaultTests.key
        let directory = try DatagramSocket.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let recorded = try String(
            contentsOf: Fixtures.url("weather/openweathermap/weather_zocca_standard.json"), encoding: .utf8)
        let escaped = "\\u00" + String(key.unicodeScalars.first!.value, radix: 16) + key.dropFirst()
        let echoing = recorded.replacingOccurrences(
            of: #""description": "moderate rain""#,
            with: #""description": "rain \#(key) \#(key.uppercased()) \#(escaped)""#
        ).replacingOccurrences(of: #""name": "Zocca""#, with: #""name": "\#(key)""#)
        // The echoing current weather on its route; the recorded forecast on its own.
        let root = try OpenWeatherMapVariants.servedDirectory(
            weather: Array(echoing.utf8),
            forecast: try Fixtures.bytes("weather/openweathermap/forecast_moravska-trebova_2015.json"))
        defer { try? FileManager.default.removeItem(at: root) }
        let http = try await FixtureHTTPServer(root: root)
        let daemon = try await SecretFaultTests.start(http, directory: directory)
        await scenario.recovered(daemon, "weather from the echoing answer") { $0["weather"] != nil }
        scenario.injected(try http.requests().count)
        // A 403 quoting the request URL past the 200-character cut, key percent-encoded too.
        let percent = key.utf8.map { String(format: "%%%02X", $0) }.joined()
        try http.respond(
            status: 403,
            body:
                #"{"cod":403,"message":"\#(String(repeating: "x", count: 180)) https://api.openweathermap.org/data/2.5/weather?lat=44.44&lon=26.13&appid=\#(key) or \#(percent)"}"#
        )
        let before = try http.requests().count
        _ = try await daemon.ctl("refresh")
        _ = try await http.waitForRequests(count: before + 1, timeout: .seconds(30))
        await scenario.recovered(daemon, "the 403") { $0[path: "error.code"] as? String == "http-403" }
        scenario.injected(try http.requests().count - before)
        await SecretFaultTests.checkEverywhere(daemon, scenario, directory: directory)
        await http.stopAndWait()
    }

    // MARK: M1: any TPV resets the gpsd back-off

    @Test
    func m1OneTPVThenCloseBacksOff() async throws {
        let scenario = FaultScenario("gpsd", "M1: one TPV then close, for 10 s")
        let gpsd = try FakeGPSD(script: [.fault(.fix(latitude: Self.home.latitude, longitude: Self.home.longitude))])
        let http = try await FixtureHTTPServer()
        let truth = Truth(gpsd: gpsd, maxFixAge: 5, maxAge: 3600, precision: 2)
        let daemon = try await DaemonProcess(configuration: FaultConfiguration.gpsd(gpsd, http, truth: truth))
        await faultLasts(.seconds(10))
        scenario.injected(gpsd.faults)
        // Back-off from 250 ms, doubling, never reset by one TPV: about 6 connections in 10 s.
        if gpsd.connections > 10 {
            scenario.untruthful("\(gpsd.connections) gpsd connections in 10 s: one TPV reset the back-off")
        }
        await scenario.end(daemon, truth)
    }

    // MARK: M2: each `now` under when-in-use opens a gpsd session

    @Test
    func m2ReadersCannotOpenGPSDSessionsAtWill() async throws {
        let scenario = FaultScenario("gpsd", "M2: nobody sends 100 `now` under Authorization=when-in-use")
        let gpsd = try FakeGPSD(
            script: GPSDStep.healthy(latitude: Self.home.latitude, longitude: Self.home.longitude, interval: 0.5))
        let http = try await FixtureHTTPServer()
        let truth = Truth(gpsd: gpsd, maxFixAge: 5, maxAge: 3600, precision: 2)
        let daemon = try await DaemonProcess(
            configuration: FaultConfiguration.gpsd(gpsd, http, authorization: "when-in-use", truth: truth))
        daemon.openToOtherUsers()
        for _ in 0..<10 {
            _ = try await ask(daemon, Array(String(repeating: "now\n", count: 10).utf8))
            scenario.injected(10)
        }
        if gpsd.connections > 5 {
            scenario.untruthful("\(gpsd.connections) gpsd sessions for 100 `now` of one public reader")
        }
        await scenario.end(daemon, truth)
    }

    // MARK: M3: an unparseable decision file is ignored

    @Test(
        arguments: FaultCampaign.pick(ProcessFaultTests.brokenDecisions, ci: 1))
    func m3ABrokenDecisionCountsAsDenied(_ decision: ProcessFaultTests.BrokenFile) async throws {
        let scenario = FaultScenario("process", "M3: a broken decision file (\(decision.name)) counts as denied")
        let (daemon, truth, gpsd, http, file) = try await ProcessFaultTests.withDecision(decision, scenario)
        defer { withExtendedLifetime(http) {} }
        defer { try? FileManager.default.removeItem(atPath: (file as NSString).deletingLastPathComponent) }
        if let state = await scenario.now(daemon, truth) {
            if state[path: "location.source"] as? String == "gpsd" || state["authorization"] as? String != "denied" {
                scenario.privilege(
                    "a broken decision file was ignored: authorization \(state["authorization"] ?? "none")")
            }
        }
        if gpsd.connections > 0 { scenario.privilege("gpsd was used under a broken decision file") }
        if !daemon.log.contains(file) { scenario.untruthful("the broken decision file \(file) was not logged") }
        let status = try await daemon.ctl("--format", "json", "status")
        if !status.stdout.contains("\"authorization\":\"denied\"") {
            scenario.untruthful("status does not show the denial: \(status.stdout.prefix(300))")
        }
        await scenario.end(daemon, truth)
    }

    // MARK: F1: the published fix age reset by a MaxAge refresh

    @Test
    func f1AMaxAgeRefreshKeepsTheFixAge() async throws {
        let scenario = FaultScenario("gpsd", "F1: a MaxAge refresh shows a position in another cell after the last fix")
        // A fetch at A, then fixes at B (11 km away, under MinDistance=50km), then silence.
        let gpsd = try FakeGPSD(script: [
            .repeating([.fix(latitude: 48.10, longitude: 11.50), .pause(0.2)], times: 5),
            .repeating([.fix(latitude: 48.20, longitude: 11.50), .pause(0.2)], times: 2),
            .fault(.hold),
        ])
        let http = try await FixtureHTTPServer()
        let truth = Truth(gpsd: gpsd, maxFixAge: 60, maxAge: 6, precision: 2)
        let daemon = try await DaemonProcess(
            configuration: FaultConfiguration.gpsd(gpsd, http, truth: truth)
                .replacingOccurrences(of: "MinDistance=1km", with: "MinDistance=50km")
                .replacingOccurrences(of: "Timeout=3s", with: "Timeout=1s"))
        await scenario.recovered(daemon, "the MaxAge refresh showing B") {
            ($0[path: "location.latitude"] as? Double).map { abs($0 - 48.20) < 0.001 } == true
        }
        scenario.injected(gpsd.faults)
        await scenario.nows(daemon, truth, 3)
        await scenario.end(daemon, truth)
    }

    // MARK: gpsd numbers libgps reads as 0

    static let malformedNumbers = ["-Infinity", "0x10", "--1"]

    @Test(
        arguments: FaultCampaign.pick(malformedNumbers, ci: 1))
    func malformedNumbersAreNeverAPosition(_ number: String) async throws {
        let scenario = FaultScenario("gpsd", "malformed gpsd numbers: lat and lon \(number)")
        let good = GPSDStep.fix(latitude: Self.home.latitude, longitude: Self.home.longitude)
        let lie = GPSDStepLines.tpv(#""lat":\#(number),"lon":11.5"#)
        let lie2 = GPSDStepLines.tpv(#""lat":48.1,"lon":\#(number)"#)
        let gpsd = try FakeGPSD(script: [
            .repeating(
                [good, .pause(0.3), .fault(.line(lie)), .pause(0.3), .fault(.line(lie2)), .pause(0.3)], times: nil)
        ])
        let http = try await FixtureHTTPServer()
        let truth = Truth(gpsd: gpsd, maxFixAge: 5, maxAge: 3600, precision: 2)
        let daemon = try await DaemonProcess(configuration: FaultConfiguration.gpsd(gpsd, http, truth: truth))
        await scenario.recovered(daemon, "fresh weather at the good fix", States.freshFromGPSD)
        if let zero = try? await daemon.waitForState(
            timeout: .seconds(6), "a position at latitude or longitude 0",
            {
                ($0[path: "location.latitude"] as? Double) == 0 || ($0[path: "location.longitude"] as? Double) == 0
            })
        {
            scenario.untruthful("a position gpsd did not report: \(zero["location"] ?? "")")
        }
        await scenario.nows(daemon, truth, 3)
        scenario.injected(gpsd.faults)
        await scenario.end(daemon, truth)
    }

    // MARK: journal flood from a flapping device

    @Test
    func aFlappingDeviceDoesNotFloodTheJournal() async throws {
        let scenario = FaultScenario("gpsd", "a device flapping once a second for 12 s")
        let gpsd = try FakeGPSD(script: [
            .repeating(
                [
                    .fix(latitude: Self.home.latitude, longitude: Self.home.longitude),
                    .fault(.line(GPSDFaultTests.deviceGone)), .pause(0.5), .line(GPSDFaultTests.deviceBack),
                    .pause(0.5),
                ], times: nil)
        ])
        let http = try await FixtureHTTPServer()
        let truth = Truth(gpsd: gpsd, maxFixAge: 5, maxAge: 3600, precision: 2)
        // At the journal's own level (no WUNDERCAST_DEBUG): what a machine's journal would get.
        let daemon = try await DaemonProcess(
            configuration: FaultConfiguration.gpsd(gpsd, http, truth: truth), environment: ["WUNDERCAST_DEBUG": "0"])
        await faultLasts(.seconds(12))
        scenario.injected(gpsd.faults)
        let lines = daemon.log.split(separator: "\n").filter { $0.contains("/dev/ttyFAKE0") }
        if lines.count > 4 {
            scenario.untruthful("\(lines.count) log lines about one flapping device in 12 s: \(lines.prefix(8))")
        }
        await scenario.end(daemon, truth)
    }

    // MARK: the clock's synchronisation from adjtimex

    @Test
    func aSynchronisedKernelClockMakesTheKeptAgeKnown() async throws {
        let scenario = FaultScenario("clock", "no ClockSyncFile=, the kernel says TIME_OK (injected)")
        let directory = try DatagramSocket.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let kept = directory + "/state.json"
        let http = try await FixtureHTTPServer()
        let truth = Truth(maxAge: 3600, precision: 2)
        // Weather kept by a daemon whose clock is trusted.
        let first = try await DaemonProcess(configuration: FaultConfiguration.fallback(http, truth: truth, cache: kept))
        await scenario.recovered(first, "fresh weather, kept", States.fresh)
        await first.stop()
        // Restarted: no sync file, the provider failing, the kernel synchronised.
        try http.respond(status: 500, body: "down")
        // The kernel's answer is injected the way the daemon takes it in tests (a debug build
        // reads WUNDERCAST_TEST_KERNEL_CLOCK instead of calling adjtimex; 0 is TIME_OK).
        let daemon = try await DaemonProcess(
            configuration: FaultConfiguration.fallback(http, truth: truth).replacingOccurrences(
                of: "Enabled=no", with: "Enabled=yes\nPath=\(kept)\nClockSyncFile=\(directory)/no-such-file"),
            environment: ["WUNDERCAST_TEST_KERNEL_CLOCK": "0"])
        scenario.injected()
        if let state = await scenario.now(daemon, truth) {
            if state["weather"] == nil { scenario.untruthful("the kept weather was not shown") }
            if state["ageUnknown"] as? Bool == true {
                scenario.untruthful("age unknown though adjtimex says the clock is synchronised")
            }
        }
        await scenario.end(daemon, truth)
    }

    // MARK: ages after a wall clock step

    @Test(
        .enabled(if: FileManager.default.fileExists(atPath: SteppedClock.library), "libfaketime not installed"),
        arguments: FaultCampaign.pick([7200, -3600, -300, 86_400 * 365], ci: 1))
    func agesStayTrueAcrossAWallClockStep(_ step: Int) async throws {
        let scenario = FaultScenario("clock", "the ages across a wall clock step of \(step) s")
        let clock = try await SteppedClock()
        let http = try await FixtureHTTPServer()
        let truth = Truth(maxAge: 3600, precision: 2)
        let started = Date()
        let daemon = try await DaemonProcess(
            configuration: FaultConfiguration.fallback(http, truth: truth), environment: clock.environment,
            launcher: clock.launcher)
        await scenario.recovered(daemon, "fresh weather", States.fresh)
        let fetched = try #require(try http.requests().last?.time)
        // Time passes after the step, with a change at its end that every watcher is sent: a
        // refresh whose answer (an error) comes 4 s late. The weather kept is as old as its
        // fetch, the fallback place as old as the daemon's start, whatever the wall clock says.
        try http.respond(status: 500, body: "{}", delaySeconds: 4)
        try clock.step(to: step)
        scenario.injected()
        _ = try await daemon.ctl("refresh")
        guard
            let state = await scenario.recovered(daemon, "the failed refresh", { $0["status"] as? String == "stale" })
        else { return await scenario.end(daemon, truth) }
        let now = Date().timeIntervalSince1970
        let ages: [(String, Any?, Double)] = [
            ("weather", state["ageSeconds"], now - fetched),
            (
                "fallback place", (state["location"] as? [String: Any])?["ageSeconds"],
                now - started.timeIntervalSince1970
            ),
        ]
        for (what, published, truly) in ages {
            guard let age = (published as? NSNumber)?.doubleValue else {
                scenario.untruthful("no age of the \(what) after a clock step of \(step) s")
                continue
            }
            // Truly about 4 s or more (the late answer; a second may go to rounding) and at most
            // the time since the start: a wall clock age would be off by the step, or 0 for a
            // step back.
            if age < 3 || age > truly + 1 {
                scenario.untruthful(
                    "\(what) age \(Int(age)) s, truly \(Int(truly)) s, after a clock step of \(step) s")
            }
        }
        await scenario.end(daemon, truth)
    }

    // MARK: resource limits

    static let tightLimits: [(name: String, memory: Int, tasks: Int)] = [
        ("TasksMax=3", 1 << 30, 3), ("TasksMax=5", 1 << 30, 5), ("MemoryMax=48M", 48 << 20, 512),
        ("MemoryMax=64M", 64 << 20, 512), ("MemoryMax=80M", 80 << 20, 512), ("MemoryMax=96M", 96 << 20, 512),
    ]

    @Test(
        .enabled(if: ResourceLimits.writable, "cgroup v1 memory and pids hierarchies are not writable here"),
        arguments: FaultCampaign.pick(tightLimits.map(\.name), ci: 1))
    func underTightLimitsTheDaemonWorksOrExitsClearly(_ name: String) async throws {
        let limit = try #require(Self.tightLimits.first { $0.name == name })
        let scenario = FaultScenario(
            "resources", "\(name) (cgroup v1): works, or exits within 10 s with one clear line")
        let limits = try ResourceLimits(memoryBytes: limit.memory, tasks: limit.tasks)
        defer { limits.remove() }
        scenario.injected()
        // Following a gpsd: its reader thread is one of the threads the limits may refuse.
        let gpsd = try FakeGPSD(
            script: GPSDStep.healthy(latitude: Self.home.latitude, longitude: Self.home.longitude, interval: 0.5))
        let http = try await FixtureHTTPServer()
        let truth = Truth(gpsd: gpsd, maxFixAge: 5, maxAge: 3600, precision: 2)
        let daemon = try await DaemonProcess(
            configuration: FaultConfiguration.gpsd(gpsd, http, truth: truth), waitForSocket: false,
            launcher: limits.launcher)
        if let code = try? await daemon.exited(timeout: .seconds(10)) {
            if code >= 128 { scenario.crash("signal \(code - 128) under \(name); log:\n\(daemon.log.suffix(1500))") }
            if code == 0 { scenario.untruthful("exit status 0 under \(name) without serving") }
            let lines = daemon.log.split(separator: "\n").filter { !$0.isEmpty }
            if lines.isEmpty { scenario.untruthful("no log line says why the daemon exited under \(name)") }
            scenario.checkSafe(daemon.log, "the daemon's log", truth)
            scenario.finish()
        } else {
            await scenario.recovered(daemon, "fresh weather from gpsd under \(name)", States.freshFromGPSD)
            await scenario.end(daemon, truth)
            await daemon.stop()
        }
    }
}

/// gpsd report lines for scripts.
enum GPSDStepLines {
    /// A 3D TPV of the fake receiver with the current time and `members` (e.g. `"lat":1,"lon":2`).
    static func tpv(_ members: String) -> String {
        #"{"class":"TPV","device":"/dev/ttyFAKE0","mode":3,"time":"{now}","eph":5,"# + members + "}"
    }
}
