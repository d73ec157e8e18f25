import Glibc
import Testing

@testable import WundercastPOSIX
@testable import WundercastServer

/// The limits as the daemon reads them (`/proc/self/cgroup`, the limit files) and the floor's
/// verdict, without limiting anything (``ResourceLimitTests`` runs the daemon under real ones).
@Suite struct ResourceLimitsTests {
    @Test func cgroupPathsOfVersion1And2() {
        let text = """
            12:pids:/system.slice/wundercast.service
            4:memory:/system.slice/wundercast.service
            3:cpu,cpuacct:/
            1:name=systemd:/system.slice/wundercast.service
            0::/system.slice/wundercast.service
            """
        let paths = ResourceLimits.cgroupPaths(text)
        #expect(paths["pids"] == "/system.slice/wundercast.service")
        #expect(paths["memory"] == "/system.slice/wundercast.service")
        #expect(paths["cpuacct"] == "/")
        #expect(paths[""] == "/system.slice/wundercast.service")
    }

    @Test func everyAncestorUpToTheRootIsRead() {
        #expect(ResourceLimits.ancestors("/a/b") == ["/a/b", "/a", ""])
        #expect(ResourceLimits.ancestors("/") == [""])
    }

    @Test(arguments: [
        ("100663296\n", UInt64(100_663_296) as UInt64?), ("max\n", nil), ("9223372036854771712\n", nil), ("64", 64),
        ("", nil),
    ])
    func limitFileValues(_ text: String, _ value: UInt64?) {
        #expect(ResourceLimits.limitValue(text) == value)
    }

    /// The floor names the first limit it finds short, with its value and the floor's.
    @Test func theFloorNamesTheShortLimit() {
        let floor = ResourceFloor(tasks: 16, memory: 48 << 20, addressSpace: 256 << 20)
        #expect(floor.shortfall(in: ResourceLimits()) == nil)
        #expect(floor.shortfall(in: ResourceLimits(addressSpace: 256 << 20, memory: 48 << 20, tasks: 16)) == nil)
        #expect(
            floor.shortfall(in: ResourceLimits(tasks: 5))
                == "the task limit is 5 (TasksMax=, cgroup pids.max); it needs at least 16")
        #expect(
            floor.shortfall(in: ResourceLimits(memory: 40_000_000))
                == "the memory limit is 40000000 bytes (MemoryMax=, cgroup memory.max); it needs at least 48 MiB")
        #expect(
            floor.shortfall(in: ResourceLimits(addressSpace: 96 << 20))
                == "the address-space limit is 96 MiB (LimitAS=, ulimit -v); it needs at least 256 MiB")
        #expect(
            floor.shortfall(in: ThreadProbe.Shortfall(created: 9, code: EAGAIN))
                == "only 10 of the 16 tasks it needs can run (pthread_create: \(String(cString: strerror(EAGAIN)))); raise TasksMax= (cgroup pids.max) or LimitNPROC="
        )
    }

    /// A few threads can always exist at once here; the probe joins them all.
    @Test func theProbeCreatesThreadsThatExistAtOnce() {
        #expect(throws: Never.self) { try ThreadProbe.run(threads: 8).get() }
    }
}
