import Dispatch
import Glibc
import Testing
import WundercastPOSIX
import WundercastTestSupport

@Suite struct EventLoopTests {
    @Test func postedWorkAndHandlersRunOnTheLoopsThreadInOrder() async throws {
        let loop = try EventLoop(name: "test-loop")
        defer { loop.stop() }
        let seen = Observed<[String]>([])
        var fds: [Int32] = [0, 0]
        _ = try blockingSyscall("pipe", "test") { pipe(&fds) }
        defer {
            close(fds[0])
            close(fds[1])
        }
        try Descriptor.setNonBlocking(fds[0])
        let reader = fds[0]
        let onLoop = await loop.perform { loop.isCurrent }
        #expect(onLoop)
        #expect(loop.isCurrent == false)
        _ = await loop.perform {
            try? loop.register(reader, for: .readable) { events in
                var byte: UInt8 = 0
                while read(reader, &byte, 1) == 1 {
                    seen.update { $0.append("read \(Character(UnicodeScalar(byte))) on loop \(loop.isCurrent)") }
                }
            }
        }
        loop.post { seen.update { $0.append("first") } }
        loop.post { seen.update { $0.append("second") } }
        var byte = UInt8(ascii: "x")
        _ = write(fds[1], &byte, 1)
        let events = try await seen.wait(timeout: .seconds(10), "three events") { $0.count == 3 }
        #expect(Array(events.prefix(2)) == ["first", "second"])
        #expect(events.last == "read x on loop true")
    }

    /// A descriptor that is readable but not asked for (`[]`) does not wake the loop; asking
    /// again delivers the waiting input.
    @Test func modifyStopsAndResumesEvents() async throws {
        let loop = try EventLoop(name: "test-loop")
        defer { loop.stop() }
        var fds: [Int32] = [0, 0]
        _ = try blockingSyscall("pipe", "test") { pipe(&fds) }
        defer {
            close(fds[0])
            close(fds[1])
        }
        let reader = fds[0]
        let count = Observed(0)
        let registration = try #require(
            await loop.perform {
                try? loop.register(reader, for: []) { _ in
                    var byte: UInt8 = 0
                    _ = read(reader, &byte, 1)
                    count.update { $0 += 1 }
                }
            })
        var byte = UInt8(ascii: "y")
        _ = write(fds[1], &byte, 1)
        let quiet = await loop.perform { count.value }  // a round trip through the loop after the write
        #expect(quiet == 0)
        loop.post { loop.modify(registration, for: .readable) }
        try await count.wait(timeout: .seconds(10), "the byte") { $0 == 1 }
    }

    /// After ``EventLoop/stop()`` posted work is refused, and no thread is the loop's.
    @Test func afterStopPostIsRefusedAndNoThreadIsTheLoops() async throws {
        let loop = try EventLoop(name: "test-loop")
        #expect(await loop.perform { loop.isCurrent })
        loop.stop()
        #expect(loop.post {} == false)
        #expect(!loop.isCurrent)
        loop.stop()
    }

    /// `shutDown` runs what was posted before it, then resumes the task once the loop has
    /// ended (no thread blocks); again, it returns at once.
    @Test func shutDownAwaitsTheEndAfterThePostedWork() async throws {
        let loop = try EventLoop(name: "test-shutdown")
        let ran = Observed(false)
        #expect(loop.post { ran.update { $0 = true } })
        await loop.shutDown()
        #expect(ran.value)
        #expect(loop.post {} == false)
        #expect(!loop.isCurrent)
        await loop.shutDown()
    }

    /// `perform` on an ended loop stops the process with the loop's name (it used to run the
    /// body inline, where a loop-bound body trapped with a misleading message).
    @Test func performAfterStopStopsTheProcess() async {
        await #expect(processExitsWith: .failure) {
            let loop = try! EventLoop(name: "test-ended")
            loop.stop()
            _ = await loop.perform { 42 }
        }
    }
}
