import Foundation
import Testing
import WundercastPipeline
import WundercastPOSIX
import WundercastTestSupport

/// The kept weather with real processes: a real `wundercastd` fetches from the loopback
/// fixture server (and a gpsfake track), is stopped or killed, and a new one starts with the
/// provider unreachable.
@Suite(.serialized) struct DaemonLastStateTests {
    /// A private directory for the kept file (the daemon's own is removed with it).
    final class CacheDirectory: Sendable {
        let path: String
        var file: String { path + "/state.json" }
        init() throws { path = try DatagramSocket.temporaryDirectory() }
        deinit { try? FileManager.default.removeItem(atPath: path) }

        var names: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted() }

        func kept() throws -> LastState {
            try LastState.decode(try WholeFile.read(path: file, limit: LastState.sizeLimit))
        }

        func write(_ record: LastState) throws {
            try WholeFile.writeAtomically(record.encoded(), to: file, permissions: 0o600)
        }
    }

    static let unreachable = "http://127.0.0.1:1"

    static func configuration(
        cache: CacheDirectory, url: String, authorization: String = "denied", gpsdPort: Int = 1,
        clockSyncFile: String = "", maxAge: String = "1h", timeout: String = "5s"
    ) -> String {
        """
        [Location]
        Authorization=\(authorization)
        GPSD=127.0.0.1:\(gpsdPort)
        MaxHorizontalError=10km
        Fallback=59.9139,10.7522
        [Throttle]
        MinInterval=1s
        MinDistance=50m
        MaxAge=\(maxAge)
        [Weather]
        URL=\(url)
        Precision=4
        Timeout=\(timeout)
        [Cache]
        Path=\(cache.file)
        ClockSyncFile=\(clockSyncFile)
        """
    }

    /// Weather kept `ago` seconds ago at a GPS position, as a daemon would have written it.
    static func kept(ago: TimeInterval, clockSynchronized: Bool = true) -> LastState {
        var weather = makeWeather(-7.5)
        weather.time = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - ago).rounded(.down))
        return LastState(
            provider: "open-meteo", fetchedAt: Date() - ago, clockSynchronized: clockSynchronized,
            location: .init(latitude: 48.12, longitude: 11.57, source: .gpsd), weather: weather)
    }

    static func inode(_ path: String) -> (UInt, Int)? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return (UInt(status.st_ino), status.st_mtim.tv_sec * 1_000_000_000 + status.st_mtim.tv_nsec)
    }

    /// The whole story: weather for a GPS track is kept; stopped and started again with gpsd
    /// gone and the provider unreachable, the daemon shows it at once, stale, with its age and
    /// its position as last known; and, nothing having changed, it does not write the file again.
    @Test func afterARestartWithoutNetworkTheKeptWeatherShowsStaleWithItsAge() async throws {
        let cache = try CacheDirectory()
        let http = try await FixtureHTTPServer()
        let port = try GPSFake.freePort()
        let gpsfake = try await GPSFake.start(log: DaemonEndToEndTests.boat, cycle: 0.01, port: port)
        var first: DaemonProcess? = try await DaemonProcess(
            configuration: Self.configuration(cache: cache, url: http.baseURL, authorization: "always", gpsdPort: port))
        _ = try await first?.waitForState("fresh weather for the boat") { $0["status"] as? String == "fresh" }
        #expect(await first?.stop() == 0)
        first = nil
        await gpsfake.stopAndWait()
        let kept = try cache.kept()
        #expect(kept.location?.source == .gpsd)
        #expect(kept.weather.temperature == -5.3)
        // Kept at [Cache] Precision=2, though the daemon published 4 decimals.
        let latitude = try #require(kept.location?.latitude)
        #expect((latitude * 100).rounded() / 100 == latitude)
        let before = try #require(Self.inode(cache.file))

        let daemon = try await DaemonProcess(
            configuration: Self.configuration(
                cache: cache, url: Self.unreachable, authorization: "always", gpsdPort: port))
        let state = try await daemon.now()
        #expect(state["status"] as? String == "stale")
        #expect(state[path: "error.code"] as? String == "cached")
        #expect(state[path: "weather.temperature"] as? Double == -5.3)
        #expect(state["fetchedAt"] as? String == kept.fetchedAt.formatted(.iso8601))
        let age = try #require(state["ageSeconds"] as? Int)
        #expect(age >= 0 && Double(age) <= Date().timeIntervalSince(kept.fetchedAt) + 1)
        #expect(state["ageUnknown"] == nil)
        #expect(state[path: "location.status"] as? String == "lastKnown")
        #expect(state[path: "location.latitude"] as? Double == latitude)
        let human = try await daemon.ctl("now")
        #expect(human.stdout.contains("(last known position: weather from before the restart)"), "\(human.stdout)")
        #expect(human.stdout.contains("ago") || human.stdout.contains("just now"), "\(human.stdout)")
        #expect(await daemon.stop() == 0)
        let after = try #require(Self.inode(cache.file))
        #expect(after == before, "the same state is not written again")
        #expect(cache.names == ["state.json"])
    }

    /// A kept position finer than configured (an older `Precision=`, or an edited file) is
    /// rounded at load to the smaller of `[Cache]` and `[Weather] Precision=` (2 and 4 here).
    @Test func aKeptPositionIsRoundedWhenLoaded() async throws {
        let cache = try CacheDirectory()
        var record = Self.kept(ago: 600)
        record.location = .init(latitude: 44.432765, longitude: 26.103812, source: .gpsd)
        try cache.write(record)
        let daemon = try await DaemonProcess(
            configuration: Self.configuration(cache: cache, url: Self.unreachable, authorization: "always"))
        let state = try await daemon.now()
        #expect(state["status"] as? String == "stale")
        #expect(state[path: "location.latitude"] as? Double == 44.43)
        #expect(state[path: "location.longitude"] as? Double == 26.1)
        #expect(await daemon.stop() == 0)
    }

    /// A kept time before 2000 (a clock never set, or an edited file) is refused and set aside.
    @Test func aKeptTimeBefore2000IsSetAside() async throws {
        let cache = try CacheDirectory()
        var record = Self.kept(ago: 600)
        record.fetchedAt = Date(timeIntervalSince1970: -86400)
        try cache.write(record)
        let daemon = try await DaemonProcess(configuration: Self.configuration(cache: cache, url: Self.unreachable))
        let state = try await daemon.now()
        #expect(state["weather"] == nil)
        #expect(await daemon.stop() == 0)
        #expect(cache.names == ["state.json.corrupt"])
    }

    /// `[Cache] Path=` naming a directory: an error logged once, the directory untouched, and
    /// nothing written there for the run, even when weather comes.
    @Test func aCachePathThatIsADirectoryIsLeftAlone() async throws {
        let cache = try CacheDirectory()
        #expect(mkdir(cache.file, 0o700) == 0)
        #expect(FileManager.default.createFile(atPath: cache.file + "/inside", contents: Data("x".utf8)))
        let http = try await FixtureHTTPServer()
        let daemon = try await DaemonProcess(configuration: Self.configuration(cache: cache, url: http.baseURL))
        _ = try await daemon.waitForState("fresh weather") { $0["status"] as? String == "fresh" }
        #expect(await daemon.stop() == 0)
        #expect(cache.names == ["state.json"])
        #expect(FileManager.default.fileExists(atPath: cache.file + "/inside"))
        let lines = daemon.log.split(separator: "\n").filter { $0.contains("is a directory, not a regular file") }
        #expect(lines.count == 1, "\(daemon.log)")
    }

    /// `READY=1` comes after the kept weather is in place: the first answer after it has it.
    @Test func theFirstStateAfterReadyHasTheKeptWeather() async throws {
        let cache = try CacheDirectory()
        try cache.write(Self.kept(ago: 7200))
        let notify = try NotifySocket(path: cache.path + "/notify")
        let daemon = try await DaemonProcess(
            configuration: Self.configuration(cache: cache, url: Self.unreachable),
            environment: ["NOTIFY_SOCKET": notify.path], waitForSocket: false)
        let ready = try await notify.messages.waitFor("READY=1") { $0.contains("READY=1") }
        // systemctl status shows the kept weather from the start, not just where it serves.
        #expect(ready.contains("STATUS=-8°C"), "\(ready)")
        let state = try await daemon.now()
        #expect(state[path: "weather.temperature"] as? Double == -7.5)
        // Never fresh: stale, or (once the fallback place's fetch has started) fetching with the
        // kept weather shown as the old one.
        #expect(["stale", "fetching"].contains(state["status"] as? String ?? ""), "\(state)")
        let age = try #require(state["ageSeconds"] as? Int)
        #expect(age >= 7199 && age < 7200 + 60)
        _ = try await daemon.output.waitFor(containing: "showing the weather kept in \(cache.file)")
        #expect(await daemon.stop() == 0)
    }

    /// Until the clock is known to be right the age is unknown, never a number; once the
    /// clock-sync file appears it is the true age.
    @Test func anUnsynchronisedClockGivesNoAge() async throws {
        let cache = try CacheDirectory()
        try cache.write(Self.kept(ago: 600))
        let flag = cache.path + "/synchronized"
        let daemon = try await DaemonProcess(
            configuration: Self.configuration(cache: cache, url: Self.unreachable, clockSyncFile: flag))
        let state = try await daemon.now()
        #expect(state[path: "weather.temperature"] as? Double == -7.5)
        #expect(state["ageSeconds"] == nil)
        #expect(state["ageUnknown"] as? Bool == true)
        let human = try await daemon.ctl("now")
        #expect(human.stdout.contains("age unknown"), "\(human.stdout)")
        #expect(!human.stdout.contains(" ago"), "\(human.stdout)")
        #expect(FileManager.default.createFile(atPath: flag, contents: nil))
        let known = try await daemon.waitForState("the age once the clock is synchronised") { $0["ageSeconds"] is Int }
        #expect(known["ageUnknown"] == nil)
        #expect((known["ageSeconds"] as? Int ?? 0) >= 600)
        #expect(await daemon.stop() == 0)
    }

    /// With chrony or ntpd there is no clock-sync file: the kernel's `TIME_OK` (injected)
    /// makes the kept weather's age known at once.
    @Test func theKernelsTimeOKGivesTheAgeWithoutAClockSyncFile() async throws {
        let cache = try CacheDirectory()
        try cache.write(Self.kept(ago: 600))
        let daemon = try await DaemonProcess(
            configuration: Self.configuration(
                cache: cache, url: Self.unreachable, clockSyncFile: cache.path + "/never-synchronized"),
            environment: ["WUNDERCAST_TEST_KERNEL_CLOCK": "0"])
        let state = try await daemon.now()
        #expect(state[path: "weather.temperature"] as? Double == -7.5)
        #expect(state["ageUnknown"] == nil)
        #expect((state["ageSeconds"] as? Int ?? 0) >= 600, "\(state)")
        #expect(await daemon.stop() == 0)
    }

    /// A kept GPS position is not shown under `ask`, and goes from the file; `authorize
    /// denied` removes it from the state and the file at run time.
    @Test func withoutGPSAuthorizationTheKeptPositionIsNeitherShownNorKept() async throws {
        let cache = try CacheDirectory()
        try cache.write(Self.kept(ago: 60))
        let events = try FileEvents(directory: cache.path)
        let asking = try await DaemonProcess(
            configuration: Self.configuration(cache: cache, url: Self.unreachable, authorization: "ask"))
        let hidden = try await asking.now()
        #expect(hidden[path: "weather.temperature"] as? Double == -7.5)
        #expect(hidden["location"] == nil)
        _ = try await events.events.wait("the file rewritten") {
            $0.contains(.init(kind: .movedIn, name: "state.json"))
        }
        #expect(try cache.kept().location == nil)
        #expect(try cache.kept().weather.temperature == -7.5)
        #expect(await asking.stop() == 0)

        try cache.write(Self.kept(ago: 60))
        let daemon = try await DaemonProcess(
            configuration: Self.configuration(cache: cache, url: Self.unreachable, authorization: "always"))
        let shown = try await daemon.now()
        #expect(shown[path: "location.source"] as? String == "gpsd")
        let decision = try await daemon.ctl("authorize", "denied")
        #expect(decision.status == 0, "\(decision.stderr)")
        // The event is a write of the file without the GPS position: each write is read as it
        // lands. Counting writes cannot tell it from one that still holds the position (this
        // test's own, whose event may arrive late, or the daemon's at start-up).
        _ = try await events.events.wait("the file rewritten without the GPS position") { _ in
            guard let kept = try? cache.kept() else { return false }
            return kept.location?.source != .gpsd
        }
        // No GPS position kept (the fallback place of `denied` may be, once its weather is fetched).
        #expect(try cache.kept().location?.source != .gpsd)
        // Denied: the fallback place (or nothing) is shown, never the kept GPS position.
        #expect(try await daemon.now()[path: "location.source"] as? String != "gpsd")
        #expect(await daemon.stop() == 0)
    }

    /// A file that cannot be used is set aside with one log line naming it and what was wrong;
    /// the daemon starts anyway and keeps new weather.
    @Test func aCorruptFileIsSetAsideAndTheDaemonStarts() async throws {
        let cache = try CacheDirectory()
        let garbage = Data(#"{"format":"wundercast-last-state","version":1,"provider":"#.utf8)
        #expect(FileManager.default.createFile(atPath: cache.file, contents: garbage))
        let http = try await FixtureHTTPServer()
        let events = try FileEvents(directory: cache.path)
        let daemon = try await DaemonProcess(configuration: Self.configuration(cache: cache, url: http.baseURL))
        let line = try await daemon.output.waitFor(containing: "set aside")
        #expect(line.contains(cache.file) && line.contains("state.json.corrupt") && line.contains("not a JSON object"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: cache.file + ".corrupt")) == garbage)
        _ = try await events.events.wait("new weather kept") { $0.contains(.init(kind: .movedIn, name: "state.json")) }
        #expect(try cache.kept().weather.temperature == -5.3)
        #expect(await daemon.stop() == 0)
        #expect(daemon.log.components(separatedBy: "set aside").count == 2, "one line")
    }

    /// `kill -9` at varying moments while the weather changes every second (each fetch a new
    /// `fetchedAt`, each a write): every restart finds a valid file, never a torn one, and
    /// leftovers of interrupted writes are cleared.
    @Test func killedAtAnyMomentEveryRestartLoadsAValidState() async throws {
        let cache = try CacheDirectory()
        let http = try await FixtureHTTPServer()
        let events = try FileEvents(directory: cache.path)
        let configuration = Self.configuration(cache: cache, url: http.baseURL, maxAge: "4s", timeout: "1s")
        var previous: Date?
        for round in 0..<20 {
            let seen = events.events.value.count
            let wasKept = FileManager.default.fileExists(atPath: cache.file)
            let daemon = try await DaemonProcess(configuration: configuration)
            if wasKept {
                _ = try await daemon.output.waitFor(containing: "showing the weather kept in \(cache.file)")
            }
            // Kill at READY, or after the 1st … 6th event of the directory: the creation of a
            // temporary file, its rename into place, its close; in the first write or a later one.
            let target = round % 7
            _ = try await events.events.wait("event \(target) of round \(round)") { $0.count >= seen + target }
            daemon.signal(SIGKILL)
            #expect(try await daemon.exited(timeout: .seconds(10)) == 128 + SIGKILL)
            #expect(!cache.names.contains { $0.hasSuffix(".corrupt") }, "round \(round): \(cache.names)")
            if FileManager.default.fileExists(atPath: cache.file) {
                let kept = try cache.kept()
                if let previous { #expect(kept.fetchedAt >= previous, "round \(round): never an older file") }
                previous = kept.fetchedAt
            }
        }
        #expect(previous != nil, "some weather was kept")
        let last = try await DaemonProcess(configuration: configuration)
        _ = try await last.output.waitFor(containing: "showing the weather kept in \(cache.file)")
        #expect(await last.stop() == 0)
        #expect(!last.log.contains("set aside"))
        #expect(!cache.names.contains { $0.contains(".tmp-") }, "\(cache.names)")
    }
}
