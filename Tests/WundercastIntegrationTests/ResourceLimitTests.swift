import Foundation
import Testing
import WundercastServer
import WundercastTestSupport

/// The real daemon under resource limits (child cgroups of the cgroup v1 `memory` and `pids`
/// controllers, `ulimit -v`; see ``ResourceLimitedLaunch``): it either works — answers `now`
/// with a current position from gpsd and fresh weather — or exits within 10 s with status 1
/// and exactly one line naming the limit. Never a hang (every wait has a deadline) and never
/// a signal (an exit code over 128). Before: start-up hung silently at 3 tasks or 48 MiB of
/// address space, crashed (SIGSEGV while printing a fatal error) at 64 MiB, and stayed at
/// `noLocation` for good at 5 tasks or 96 MiB.
@Suite(
    .serialized, .enabled(if: ResourceLimitedLaunch.isAvailable, "\(ResourceLimitedLaunch.unavailableReason)"),
    .timeLimit(.minutes(5)))
struct ResourceLimitTests {
    static let track = Fixtures.url("nmea/bundg_zeus_9.log")

    /// A limit below the floor, and the words the daemon's one line must carry.
    struct Short: Sendable, CustomTestStringConvertible {
        var memory: UInt64?
        var tasks: UInt64?
        var addressSpace: UInt64?
        /// Tasks taken by other processes in the same cgroup before the daemon starts.
        var occupied = 0
        var expected: String
        var testDescription: String { expected }
    }

    static let floor = ResourceFloor.daemon

    static let shortLimits: [Short] = [
        Short(tasks: 3, expected: "the task limit is 3 (TasksMax=, cgroup pids.max); it needs at least \(floor.tasks)"),
        Short(tasks: UInt64(floor.tasks - 1), expected: "the task limit is \(floor.tasks - 1) "),
        Short(memory: 32 << 20, expected: "the memory limit is 32 MiB (MemoryMax=, cgroup memory.max)"),
        // The lowest address-space case: below about 50 MiB the dynamic loader (a library's
        // segment) or the Swift runtime (its first allocations) fails before `main` runs, which
        // no code of the daemon can turn into its one line. 56 MiB leaves the debug build room.
        Short(addressSpace: 56 << 20, expected: "the address-space limit is 56 MiB (LimitAS=, ulimit -v)"),
        Short(addressSpace: 64 << 20, expected: "the address-space limit is 64 MiB "),
        Short(addressSpace: 96 << 20, expected: "the address-space limit is 96 MiB "),
        // The cap itself is high enough, but other processes hold 6 of its tasks.
        Short(
            tasks: UInt64(floor.tasks), occupied: 6,
            expected: "of the \(floor.tasks) tasks it needs can run (pthread_create: "),
    ]

    @Test(arguments: shortLimits)
    func belowTheFloorItExitsAtOnceWithOneLineNamingTheLimit(_ short: Short) async throws {
        let limits = try ResourceLimitedLaunch(
            memory: short.memory, tasks: short.tasks, addressSpace: short.addressSpace, occupiedTasks: short.occupied)
        defer { limits.remove() }  // on a failure path; else release() below
        let daemon = try await DaemonProcess(
            configuration: "[Location]\nGPSD=127.0.0.1:9\n", waitForSocket: false, launcher: limits.launcher)
        let status = try await daemon.exited(timeout: .seconds(10))
        await limits.release()
        try await daemon.output.waitForEnd("the end of the daemon's output", timeout: .seconds(10))
        #expect(status == 1, "exit status \(status) (over 128: a signal); log:\n\(daemon.log)")
        let lines = daemon.output.lines
        #expect(lines.count == 1, "\(lines)")
        #expect(lines.first?.hasPrefix("wundercastd: cannot start: ") == true, "\(lines)")
        #expect(lines.first?.contains(short.expected) == true, "\(lines)")
    }

    /// At the floor (all three limits at once) and at the unit's `MemoryMax=`/`TasksMax=`, the
    /// daemon serves: a current position from the replayed track and fresh weather for it.
    @Test(arguments: ["floor", "unit"])
    func atTheFloorAndAtTheUnitsLimitsItWorks(_ which: String) async throws {
        let unit = try Self.unitLimits()
        #expect(
            unit.memory >= Self.floor.memory && unit.tasks >= UInt64(Self.floor.tasks), "the unit is below the floor")
        let limits =
            which == "floor"
            ? try ResourceLimitedLaunch(
                memory: Self.floor.memory, tasks: UInt64(Self.floor.tasks), addressSpace: Self.floor.addressSpace)
            : try ResourceLimitedLaunch(memory: unit.memory, tasks: unit.tasks)
        defer { limits.remove() }  // on a failure path; else release() below
        let http = try await FixtureHTTPServer()
        let gpsfake = try await GPSFake.start(log: Self.track, cycle: 0.05)
        defer { gpsfake.stopInBackground() }
        let daemon = try await DaemonProcess(
            configuration: DaemonEndToEndTests().configuration(gpsdPort: gpsfake.port, http: http),
            launcher: limits.launcher)
        let state = try await daemon.waitForState(timeout: .seconds(60), "a current position and fresh weather") {
            $0[path: "location.status"] as? String == "current" && $0["status"] as? String == "fresh"
        }
        #expect(state[path: "location.source"] as? String == "gpsd")
        let latitude = try #require(state[path: "location.latitude"] as? Double)
        let longitude = try #require(state[path: "location.longitude"] as? Double)
        let box = try #require(try NMEATrack.load(Self.track).boundingBox)
        #expect((box.minLatitude - 0.01...box.maxLatitude + 0.01).contains(latitude))
        #expect((box.minLongitude - 0.01...box.maxLongitude + 0.01).contains(longitude))
        #expect(state[path: "weather.temperature"] as? Double == -5.3)
        let now = try await daemon.now()
        #expect(now["status"] as? String == "fresh")
        #expect(await daemon.stop() == 0, "log:\n\(daemon.log.suffix(2000))")
        await limits.release()
    }

    /// `MemoryMax=` (bytes) and `TasksMax=` of `systemd/wundercast.service`.
    static func unitLimits() throws -> (memory: UInt64, tasks: UInt64) {
        let unit = Fixtures.directory.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("systemd/wundercast.service")
        let lines = try String(contentsOf: unit, encoding: .utf8).split(separator: "\n")
        func value(_ key: String) throws -> String {
            try #require(lines.first { $0.hasPrefix(key + "=") }.map { String($0.dropFirst(key.count + 1)) })
        }
        let memory = try value("MemoryMax")
        let units: [Character: UInt64] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30]
        let bytes = try #require(
            units[memory.last ?? " "].flatMap { scale in UInt64(memory.dropLast()).map { $0 * scale } }
                ?? UInt64(memory))
        return (bytes, try #require(UInt64(try value("TasksMax"))))
    }
}
