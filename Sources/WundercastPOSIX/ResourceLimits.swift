#if canImport(Glibc)
import Glibc
#endif

/// The limits the kernel puts on this process, as far as it can read them: its address space
/// (`RLIMIT_AS`: systemd's `LimitAS=`, `ulimit -v`) and its cgroup's memory and task caps
/// (systemd's `MemoryMax=` and `TasksMax=`). A cgroup's limit binds every cgroup below it, so
/// each cap is the smallest one on the way from the process's cgroup to the root, read from
/// cgroup v2 (`memory.max`, `pids.max`) or v1 (`memory/…/memory.limit_in_bytes`,
/// `pids/…/pids.max`). `nil`: no limit, or none that could be read.
public struct ResourceLimits: Sendable, Equatable {
    /// `RLIMIT_AS` (soft), bytes.
    public var addressSpace: UInt64?
    /// The cgroup's memory cap, bytes.
    public var memory: UInt64?
    /// The cgroup's task (thread) cap.
    public var tasks: UInt64?

    public init(addressSpace: UInt64? = nil, memory: UInt64? = nil, tasks: UInt64? = nil) {
        self.addressSpace = addressSpace
        self.memory = memory
        self.tasks = tasks
    }

    /// This process's limits now (`getrlimit`, `/proc/self/cgroup`, `/sys/fs/cgroup`).
    public static func current(cgroupRoot: String = "/sys/fs/cgroup") -> ResourceLimits {
        var limits = ResourceLimits()
        var rlimit = Glibc.rlimit()
        if getrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &rlimit) == 0, rlimit.rlim_cur != rlim_t.max {  // RLIM_INFINITY
            limits.addressSpace = UInt64(rlimit.rlim_cur)
        }
        let membership = (try? WholeFile.read(path: "/proc/self/cgroup", limit: 64 * 1024)) ?? []
        let groups = cgroupPaths(String(decoding: membership, as: UTF8.self))
        func smallest(_ directory: String?, _ file: String) -> UInt64? {
            guard let directory else { return nil }
            return ancestors(directory).compactMap { path in
                (try? WholeFile.read(path: cgroupRoot + path + "/" + file, limit: 64)).flatMap {
                    limitValue(String(decoding: $0, as: UTF8.self))
                }
            }.min()
        }
        if let unified = groups[""] {
            limits.memory = smallest(unified, "memory.max")
            limits.tasks = smallest(unified, "pids.max")
        }
        if limits.memory == nil {
            limits.memory = smallest(groups["memory"].map { "/memory" + $0 }, "memory.limit_in_bytes")
        }
        if limits.tasks == nil { limits.tasks = smallest(groups["pids"].map { "/pids" + $0 }, "pids.max") }
        return limits
    }

    /// Controller → cgroup path, from the lines of `/proc/self/cgroup`
    /// (`4:memory:/system.slice/x.service`; cgroup v2's line is `0::/…`, key `""`).
    static func cgroupPaths(_ text: String) -> [String: String] {
        var paths: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3, fields[2].hasPrefix("/") else { continue }
            for controller in fields[1].split(separator: ",", omittingEmptySubsequences: false) {
                paths[String(controller)] = String(fields[2])
            }
        }
        return paths
    }

    /// `/a/b` → `/a/b`, `/a`, `` (the root); each directory relative to a hierarchy's mount.
    static func ancestors(_ path: String) -> [String] {
        var result: [String] = []
        var current = path.hasSuffix("/") ? String(path.dropLast()) : path
        while true {
            result.append(current)
            guard let slash = current.lastIndex(of: "/") else { break }
            current = String(current[..<slash])
            if current.isEmpty {
                result.append("")
                break
            }
        }
        return result
    }

    /// A limit file's value: a number, or `nil` for `max` (v2) and v1's "no limit"
    /// (`9223372036854771712`, `PAGE_COUNTER_MAX` pages; anything from 2^62 bytes up).
    static func limitValue(_ text: String) -> UInt64? {
        let trimmed = text.filter { !$0.isWhitespace }
        guard let value = UInt64(trimmed), value < 1 << 62 else { return nil }
        return value
    }
}

/// Whether this process can have a number of threads at once: the task cap of its cgroup,
/// `RLIMIT_NPROC` and the kernel's `threads-max` all make `pthread_create` fail with `EAGAIN`.
public enum ThreadProbe {
    /// What ``run(threads:)`` found when not every thread could be created.
    public struct Shortfall: Error, Sendable, Equatable {
        /// Threads created before the failure.
        public var created: Int
        /// `pthread_create`'s error number.
        public var code: Int32
        /// `strerror` of ``code``.
        public var reason: String { String(cString: strerror(code)) }
    }

    /// Creates `threads` threads (64 KiB stacks: this measures tasks, not memory) that all
    /// exist at the same moment: each waits until the last is created or one failed, then
    /// ends; all are joined before this returns. Call before other threads exist, or
    /// they count too.
    public static func run(threads: Int) -> Result<Void, Shortfall> {
        // A pipe as the gate: every thread blocks in read() until the write end is closed. (No
        // O_CLOEXEC needed: closed again before this returns, and nothing execs meanwhile.)
        var gate: [Int32] = [-1, -1]
        guard pipe(&gate) == 0 else { return .failure(Shortfall(created: 0, code: errno)) }
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, 64 * 1024)
        var started: [pthread_t] = []
        started.reserveCapacity(threads)
        var failure: Int32 = 0
        let readEnd = UnsafeMutableRawPointer(bitPattern: Int(gate[0]) + 1)
        for _ in 0..<threads {
            var thread = pthread_t()
            let created = pthread_create(
                &thread, &attributes,
                { raw in
                    let fd = Int32(Int(bitPattern: raw) - 1)
                    var byte: UInt8 = 0
                    while read(fd, &byte, 1) < 0 && errno == EINTR {}
                    return nil
                }, readEnd)
            guard created == 0 else {
                failure = created
                break
            }
            started.append(thread)
        }
        _ = close(gate[1])
        for thread in started { _ = pthread_join(thread, nil) }
        _ = close(gate[0])
        return failure == 0 ? .success(()) : .failure(Shortfall(created: started.count, code: failure))
    }
}
