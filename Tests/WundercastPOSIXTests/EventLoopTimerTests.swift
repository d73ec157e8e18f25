import Dispatch
import Foundation
import Testing
import WundercastPOSIX
import WundercastTestSupport

/// The event loop's timers, its `perform` for async callers, its thread's name, and the check
/// that loop-bound state is touched on the loop only.
@Suite struct EventLoopTimerTests {
    /// Timers run on the loop's thread, in deadline order whatever the order they were set in,
    /// never before their deadline; a cancelled one never runs.
    @Test func timersRunInDeadlineOrderNeverEarlyAndCancelledOnesNot() async throws {
        let loop = try EventLoop(name: "test-timers")
        defer { loop.stop() }
        let seen = Observed<[String]>([])
        let start = ContinuousClock.now
        await loop.perform {
            for (name, milliseconds) in [("c", 60), ("a", 20), ("cancelled", 40), ("b", 40)] {
                let deadline = start + .milliseconds(milliseconds)
                let timer = loop.schedule(at: deadline) {
                    let early = ContinuousClock.now < deadline
                    seen.update { $0.append("\(name)\(early ? " early" : "")\(loop.isCurrent ? "" : " off the loop")") }
                }
                if name == "cancelled" { loop.cancel(timer) }
            }
        }
        let order = try await seen.wait(timeout: .seconds(10), "three timers") { $0.count == 3 }
        #expect(order == ["a", "b", "c"])
        // A timer set from a timer, with a deadline passed already, runs on the next turn.
        _ = await loop.perform {
            loop.schedule(at: start) { loop.schedule(at: start) { seen.update { $0.append("again") } } }
        }
        _ = try await seen.wait(timeout: .seconds(10), "the timer set by a timer") { $0.last == "again" }
    }

    /// A timer cancelled by another that comes due in the same turn does not run.
    @Test func aTimerCancelledInTheSameTurnDoesNotRun() async throws {
        let loop = try EventLoop(name: "test-cancel")
        defer { loop.stop() }
        let seen = Observed<[String]>([])
        let past = ContinuousClock.now - .seconds(1)
        await loop.perform {
            var victim: EventLoop.TimerID?
            loop.schedule(at: past) {
                if let victim { loop.cancel(victim) }
                seen.update { $0.append("first") }
            }
            victim = loop.schedule(at: past + .milliseconds(1)) { seen.update { $0.append("cancelled one") } }
            loop.schedule(at: past + .milliseconds(2)) { seen.update { $0.append("last") } }
        }
        let order = try await seen.wait(timeout: .seconds(10), "two timers") { $0.count >= 2 }
        #expect(order == ["first", "last"])
    }

    /// `perform` suspends the caller without blocking a thread and returns what the loop computed.
    @Test func performReturnsTheLoopsResult() async throws {
        let loop = try EventLoop(name: "test-perform")
        defer { loop.stop() }
        let onLoop = await loop.perform { loop.isCurrent }
        #expect(onLoop)
        let sums = await withTaskGroup(of: Int.self) { group in
            for i in 0..<100 { group.addTask { await loop.perform { i * 2 } } }
            return await group.reduce(0, +)
        }
        #expect(sums == 9900)
        loop.stop()
        // After the end nothing runs on it (``EventLoopTests/performAfterStopStopsTheProcess()``).
        #expect(loop.post {} == false)
    }

    /// The loop's thread carries the loop's name (`top -H`).
    @Test func theLoopsThreadIsNamed() async throws {
        let loop = try EventLoop(name: "test-named")
        defer { loop.stop() }
        let name = await loop.perform { () -> String in
            (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
        }
        #expect(name.trimmingCharacters(in: .whitespacesAndNewlines) == "test-named")
    }

    /// Loop-bound state is read and changed on the loop.
    @Test func loopBoundStateIsTheLoops() async throws {
        let loop = try EventLoop(name: "test-bound")
        defer { loop.stop() }
        let counter = LoopBound(0, loop: loop)
        for _ in 0..<10 { await loop.perform { counter.value += 1 } }
        #expect(await loop.perform { counter.value } == 10)
    }

    /// Touched off the loop, loop-bound state stops the process with the place (checked in a
    /// child process: the test binary itself must not stop).
    @Test func loopBoundStateOffTheLoopStopsTheProcess() async throws {
        let result = try await runTestsAlone(
            "offTheLoopProbe", environment: ["WUNDERCAST_LOOPBOUND_PROBE": "1", "SWIFT_BACKTRACE": "enable=no"])
        #expect(result.stdout.contains("not on the probe event loop's thread"), "\(result.stdout.suffix(2000))")
        #expect(result.status != 0)
    }

    @Test(
        .enabled(
            if: ProcessInfo.processInfo.environment["WUNDERCAST_LOOPBOUND_PROBE"] == "1",
            "run alone in a child process by loopBoundStateOffTheLoopStopsTheProcess"))
    func offTheLoopProbe() throws {
        let loop = try EventLoop(name: "probe")
        let counter = LoopBound(0, loop: loop)
        counter.value += 1
    }
}
