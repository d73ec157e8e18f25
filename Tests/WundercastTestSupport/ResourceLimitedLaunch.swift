import Foundation

/// A child's resource limits, as systemd's `MemoryMax=`, `TasksMax=` and `LimitAS=` set them:
/// a fresh child cgroup below the test process's own in the cgroup v1 `memory` and `pids`
/// hierarchies (`memory.limit_in_bytes` and `memory.memsw.limit_in_bytes`, `pids.max`), and
/// `ulimit -v` for the address space.
///
/// ``launcher`` is a shell that moves itself into both cgroups, sets the address-space limit
/// and execs the command after it (``DaemonProcess``'s `launcher:`): the daemon is under the
/// limits from its first instruction. ``release()`` ends the processes that hold tasks and
/// deletes the cgroups; ``remove()`` (and `deinit`) only delete them (once empty).
public final class ResourceLimitedLaunch: @unchecked Sendable {
    public struct Unavailable: Error, CustomStringConvertible {
        public var description: String
    }

    /// Whether child cgroups can be made and limited here (root, cgroup v1 `memory` and
    /// `pids` mounted writable under `/sys/fs/cgroup`); for `.enabled(if:)`.
    public static let isAvailable: Bool = {
        guard let launch = try? ResourceLimitedLaunch(memory: 1 << 30, tasks: 1024) else { return false }
        launch.remove()
        return true
    }()

    /// Why ``isAvailable`` is false, for the skip message.
    public static let unavailableReason =
        "cgroup v1 memory and pids controllers are not writable here (needs root and /sys/fs/cgroup/{memory,pids})"

    public let memoryGroup: String?
    public let pidsGroup: String?
    /// `ulimit -v` in KiB, or none.
    public let addressSpaceKiB: UInt64?
    /// `sleep` processes put in the pids cgroup before the command starts, one task each.
    private let occupiers: [ChildProcess]

    /// - Parameters: `memory` in bytes (`nil`: no memory cgroup), `tasks` (`nil`: no pids
    ///   cgroup), `addressSpace` in bytes (`nil`: unlimited), `occupiedTasks`: tasks of the
    ///   pids cgroup held by other processes (`sleep`, ended by ``release()``).
    /// - Throws: ``Unavailable`` when a cgroup cannot be made or limited.
    public init(
        memory: UInt64? = nil, tasks: UInt64? = nil, addressSpace: UInt64? = nil, occupiedTasks: Int = 0
    ) throws {
        let name = "wundercast-test-\(getpid())-\(UUID().uuidString.prefix(8))"
        var made: [String] = []
        func group(_ controller: String, _ settings: [(String, String)]) throws -> String {
            guard let own = Self.ownPath(controller) else {
                throw Unavailable(description: "no \(controller) cgroup (v1) in /proc/self/cgroup")
            }
            let path = "/sys/fs/cgroup/\(controller)\(own == "/" ? "" : own)/\(name)"
            guard mkdir(path, 0o755) == 0 else {
                throw Unavailable(description: "mkdir \(path): \(String(cString: strerror(errno)))")
            }
            made.append(path)
            for (file, value) in settings {
                do {
                    try value.write(toFile: "\(path)/\(file)", atomically: false, encoding: .utf8)
                } catch {
                    throw Unavailable(description: "write \(value) to \(path)/\(file): \(error)")
                }
            }
            return path
        }
        do {
            memoryGroup = try memory.map {
                try group("memory", [("memory.limit_in_bytes", "\($0)"), ("memory.memsw.limit_in_bytes", "\($0)")])
            }
            pidsGroup = try tasks.map { try group("pids", [("pids.max", "\($0)")]) }
        } catch {
            for path in made { rmdir(path) }
            throw error
        }
        addressSpaceKiB = addressSpace.map { $0 / 1024 }
        var occupiers: [ChildProcess] = []
        if let pidsGroup = pidsGroup {
            for _ in 0..<occupiedTasks {
                let sleeper = try ChildProcess(["/bin/sleep", "300"])
                occupiers.append(sleeper)
                try "\(sleeper.pid)".write(toFile: "\(pidsGroup)/cgroup.procs", atomically: false, encoding: .utf8)
            }
        }
        self.occupiers = occupiers
    }

    deinit { remove() }

    /// `sh -c '…; exec "$@"' sh`: put before a command line.
    public var launcher: [String] {
        var script = ""
        for group in [memoryGroup, pidsGroup].compactMap({ $0 }) { script += "echo $$ > '\(group)/cgroup.procs' && " }
        if let addressSpaceKiB { script += "ulimit -v \(addressSpaceKiB) && " }
        return ["/bin/sh", "-c", script + "exec \"$@\"", "sh"]
    }

    /// The most memory the cgroup's processes used (`memory.max_usage_in_bytes`), bytes.
    public var peakMemory: UInt64? {
        memoryGroup.flatMap { try? String(contentsOfFile: "\($0)/memory.max_usage_in_bytes", encoding: .utf8) }
            .flatMap { UInt64($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    /// Ends the processes that hold tasks (awaiting each), then deletes the cgroups. Call once
    /// the command has ended.
    public func release() async {
        for occupier in occupiers { _ = await occupier.terminate(grace: .seconds(5)) }
        remove()
    }

    /// Deletes the cgroups (fails silently while a process is still in one).
    public func remove() {
        for group in [memoryGroup, pidsGroup].compactMap({ $0 }) { rmdir(group) }
    }

    /// The test process's cgroup path in the v1 hierarchy of `controller` (`/proc/self/cgroup`).
    static func ownPath(_ controller: String) -> String? {
        guard let text = try? String(contentsOfFile: "/proc/self/cgroup", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            if fields.count == 3, fields[1].split(separator: ",").contains(Substring(controller)) {
                return String(fields[2])
            }
        }
        return nil
    }
}
