import Foundation
import Testing
import WundercastTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// Resource limits: the daemon started inside cgroup v1 `memory` and `pids` groups of its own
/// (skipped, with the reason, where those hierarchies are not writable). Under a limit it can
/// live with, it serves as usual.
@Suite(
    .enabled(if: FaultCampaign.isSelected, FaultCampaign.skipReason),
    .enabled(if: ResourceLimits.writable, "cgroup v1 memory and pids hierarchies are not writable here"),
    .serialized)
struct ResourceFaultTests {
    @Test func aGenerousLimitChangesNothing() async throws {
        let scenario = FaultScenario("resources", "MemoryMax=256M, TasksMax=64 (cgroup v1)")
        try await ResourceLimits.run(scenario, memoryBytes: 256 << 20, tasks: 64) { daemon, truth in
            await scenario.recovered(daemon, "fresh weather under the limits", States.fresh)
            await scenario.nows(daemon, truth, 3)
        }
    }
}

/// A cgroup v1 `memory` and `pids` group of its own for one daemon.
final class ResourceLimits: Sendable {
    static let hierarchies = ["/sys/fs/cgroup/memory", "/sys/fs/cgroup/pids"]
    static var writable: Bool {
        hierarchies.allSatisfy { access($0, W_OK) == 0 && FileManager.default.fileExists(atPath: $0 + "/cgroup.procs") }
    }

    let name = "wundercast-faults-\(UUID().uuidString.prefix(8))"
    var memory: String { Self.hierarchies[0] + "/" + name }
    var pids: String { Self.hierarchies[1] + "/" + name }

    init(memoryBytes: Int, tasks: Int) throws {
        for directory in [memory, pids] {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        }
        try "\(memoryBytes)\n".write(toFile: memory + "/memory.limit_in_bytes", atomically: false, encoding: .utf8)
        try "\(tasks)\n".write(toFile: pids + "/pids.max", atomically: false, encoding: .utf8)
    }

    /// Put before the daemon's command line: moves itself into both groups, then execs it.
    var launcher: [String] {
        ["/bin/sh", "-c", "echo $$ > \(memory)/cgroup.procs && echo $$ > \(pids)/cgroup.procs && exec \"$@\"", "sh"]
    }

    /// Removes the groups (once their processes are gone).
    func remove() { for directory in [memory, pids] { rmdir(directory) } }

    static let truth = Truth(maxAge: 3600, precision: 2)

    /// Starts a fallback daemon under the limits, runs `body`, then stops the daemon (bounded) and
    /// removes the groups.
    static func run(
        _ scenario: FaultScenario, memoryBytes: Int, tasks: Int,
        _ body: (DaemonProcess, Truth) async throws -> Void
    ) async throws {
        let limits = try ResourceLimits(memoryBytes: memoryBytes, tasks: tasks)
        defer { limits.remove() }
        scenario.injected()
        let http = try await FixtureHTTPServer()
        let daemon = try await DaemonProcess(
            configuration: FaultConfiguration.fallback(http, truth: truth), launcher: limits.launcher)
        try await body(daemon, truth)
        await scenario.end(daemon, truth)
        await daemon.stop()
        await http.stopAndWait()
    }
}
