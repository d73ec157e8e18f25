import Testing
import WundercastPOSIX
import WundercastTestSupport

/// The test clock of loop-confined code: time moves only by `advance`, which runs the timers
/// that came due on the loop, earliest first, before it returns.
@Suite struct ManualLoopClockTests {
    @Test func advanceRunsTheDueTimersOnTheLoopInDeadlineOrder() async throws {
        let loop = try EventLoop(name: "test-manual")
        defer { loop.stop() }
        let clock = ManualLoopClock(loop: loop)
        let seen = Observed<[String]>([])
        await loop.perform {
            for (name, seconds) in [("c", 3), ("a", 1), ("cancelled", 2), ("b", 2)] {
                let timer = clock.schedule(at: .seconds(seconds), name: name) {
                    seen.update { $0.append("\(name)@\(clock.now)\(loop.isCurrent ? "" : " off the loop")") }
                    // A timer set by a timer within the advance runs in it too.
                    if name == "a" {
                        clock.schedule(at: clock.now + .milliseconds(500), name: "a2") {
                            seen.update { $0.append("a2@\(clock.now)") }
                        }
                    }
                }
                if name == "cancelled" { clock.cancel(timer) }
            }
        }
        #expect(try await clock.waitForTimer(named: "b") == .seconds(2))
        await clock.advance(by: .milliseconds(1999))
        #expect(seen.value == ["a@1.0 seconds", "a2@1.5 seconds"])
        await clock.advance(by: .seconds(5))
        #expect(seen.value == ["a@1.0 seconds", "a2@1.5 seconds", "b@2.0 seconds", "c@3.0 seconds"])
        #expect(clock.now == .milliseconds(6999))
        #expect(await clock.deadlines(named: "c").isEmpty)
    }

    /// A wait for a timer not yet scheduled ends when it is; a cancelled wait throws.
    @Test func waitingForATimer() async throws {
        let loop = try EventLoop(name: "test-manual")
        defer { loop.stop() }
        let clock = ManualLoopClock(loop: loop)
        let waiter = Task { try await clock.waitForTimer(named: "later") }
        loop.post { clock.schedule(at: .seconds(7), name: "later") {} }
        #expect(try await waiter.value == .seconds(7))
        let cancelled = Task { try await clock.waitForTimer(named: "never") }
        cancelled.cancel()
        await #expect(throws: CancellationError.self) { try await cancelled.value }
    }
}
