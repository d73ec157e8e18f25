import WundercastPOSIX

/// The least the daemon needs of each limited resource, checked once at start-up before any
/// thread exists: below it the daemon would not work (a reader thread that cannot start, a
/// Dispatch worker retrying `pthread_create` forever so that start-up hangs, a failed
/// allocation ending in a crash inside the runtime's fatal-error report), so it exits at once
/// with one line naming the limit instead. README ("systemd") states these numbers, and
/// `systemd/wundercast.service` gives at least them (`MemoryMax=`, `TasksMax=`).
///
/// Measured (2026-12-01, release build, 2 cores, 100 watchers and 30 lookups at once): 6 threads
/// at most (main, the socket loop, the gpsd reader, Dispatch's manager and workers), 178 MiB of
/// address space, a 24 MiB cgroup peak (README). Each floor is at least 1.4 times that.
public struct ResourceFloor: Sendable, Equatable {
    /// Tasks (threads) that must be able to exist at once (`TasksMax=`, cgroup `pids.max`,
    /// `LimitNPROC=`).
    public var tasks: Int
    /// Bytes of the cgroup's memory cap (`MemoryMax=`).
    public var memory: UInt64
    /// Bytes of address space (`LimitAS=`, `ulimit -v`).
    public var addressSpace: UInt64

    /// The daemon's floor: 16 tasks, 48 MiB of memory, 256 MiB of address space.
    public static let daemon = ResourceFloor(tasks: 16, memory: 48 << 20, addressSpace: 256 << 20)

    /// The one line to log when `limits` are below this floor (`nil`: they are not), naming
    /// the limit, its value and the floor.
    public func shortfall(in limits: ResourceLimits) -> String? {
        if let tasks = limits.tasks, tasks < UInt64(self.tasks) {
            return "the task limit is \(tasks) (TasksMax=, cgroup pids.max); it needs at least \(self.tasks)"
        }
        if let memory = limits.memory, memory < self.memory {
            return
                "the memory limit is \(Self.mebibytes(memory)) (MemoryMax=, cgroup memory.max); it needs at least \(Self.mebibytes(self.memory))"
        }
        if let addressSpace = limits.addressSpace, addressSpace < self.addressSpace {
            return
                "the address-space limit is \(Self.mebibytes(addressSpace)) (LimitAS=, ulimit -v); it needs at least \(Self.mebibytes(self.addressSpace))"
        }
        return nil
    }

    /// The line for a failed ``ThreadProbe``: fewer threads than ``tasks`` can exist at once.
    public func shortfall(in probe: ThreadProbe.Shortfall) -> String {
        "only \(probe.created + 1) of the \(tasks) tasks it needs can run (pthread_create: \(probe.reason)); raise TasksMax= (cgroup pids.max) or LimitNPROC="
    }

    /// `48 MiB`, or the bytes when not a whole number of MiB.
    static func mebibytes(_ bytes: UInt64) -> String {
        bytes % (1 << 20) == 0 ? "\(bytes >> 20) MiB" : "\(bytes) bytes"
    }
}

extension Daemon {
    /// Checks the process's limits against ``ResourceFloor/daemon`` (the limits read, then
    /// ``ThreadProbe`` with the floor's tasks, the main thread included). On a shortfall writes
    /// `wundercastd: cannot start: <which limit, its value, the floor>` to stderr (the journal
    /// under systemd) and returns exit status 1; `nil` when the daemon may start. Call from
    /// `main.swift` before any thread exists: Dispatch retries a failed `pthread_create`
    /// forever, so a start-up short of tasks would hang without a word.
    public static func checkResourceFloor(
        _ floor: ResourceFloor = .daemon, limits: ResourceLimits = .current()
    ) -> Int32? {
        var problem = floor.shortfall(in: limits)
        if problem == nil, case .failure(let shortfall) = ThreadProbe.run(threads: floor.tasks - 1) {
            problem = floor.shortfall(in: shortfall)
        }
        guard let problem else { return nil }
        writeError("wundercastd: cannot start: \(problem) (README, systemd)\n")
        return 1
    }
}
