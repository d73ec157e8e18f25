import Foundation
import Testing
import WundercastModel
import WundercastPipeline
import WundercastTestSupport

/// Issue 8, point 2, on the pure parts: which back-offs a wake cuts short (only one after a
/// network failure), the suspend detector's arithmetic, the debouncer, the heartbeat.
@Suite struct WakeDecisionTests {
    typealias Machine = RefreshStateMachine<ManualClock.Instant>
    let clock = ManualClock()
    let wall = Date(timeIntervalSince1970: 1_764_583_200)  // 2025-12-01 10:00:00 UTC
    let here = Position(coordinate: Coordinate(latitude: 59.91, longitude: 10.75), source: .fallback(name: nil))

    /// A machine whose first fetch (at t+0) failed with `error` at t+1.
    func failed(_ error: WeatherError) -> Machine {
        var m = Machine(policy: ThrottlePolicy(minInterval: .seconds(120), minDistance: 1000, maxAge: .seconds(900)))
        guard case .fetch(let id, _, _, _) = m.offer(here, at: clock.at(.zero)) else {
            Issue.record("no first fetch")
            return m
        }
        _ = m.fetchEnded(id: id, .failure(error), at: clock.at(.seconds(1)), wallNow: wall)
        return m
    }

    static let network: [WeatherError] = [
        .transport(code: 6, message: "Could not resolve host"), .transport(code: 7, message: "Couldn't connect"),
        .transport(code: 28, message: "timed out"), .transport(code: 60, message: "SSL"),
        .transport(code: 56, message: "reset"), .transport(code: 18, message: "closed"),
    ]

    /// After three network failures (waits 5, 10, 20 s) a wake lets the retry start at once.
    @Test(arguments: network, WakeReason.allCases)
    func aNetworkBackoffIsCutShort(_ error: WeatherError, _ reason: WakeReason) {
        var m = failed(error)
        var now = clock.at(.seconds(1))
        for _ in 0..<2 {
            now = m.deadline!
            guard case .fetch(let id, _, .retry, _) = m.tick(at: now) else {
                Issue.record("no retry at \(now)")
                return
            }
            _ = m.fetchEnded(id: id, .failure(error), at: now, wallNow: wall)
        }
        #expect(m.deadline == now.advanced(by: .seconds(20)))
        let woken = now.advanced(by: .seconds(7))
        #expect(m.tick(at: woken) == nil, "still backing off")
        #expect(m.wake(reason, at: woken) == .backoffCutShort)
        #expect(m.deadline == woken)
        guard case .fetch(_, let position, .retry, nil) = m.tick(at: woken) else {
            Issue.record("no retry after the wake")
            return
        }
        #expect(position == here)
    }

    /// Right after a network failure a wake does not make the retry tighter than
    /// 5 s after the last attempt started: a flapping link cannot loop fetches.
    @Test func aWakeNeverRetriesSoonerThanTheFirstStep() {
        var m = failed(.transport(code: 7, message: "Couldn't connect"))
        #expect(m.wake(.networkReturned, at: clock.at(.seconds(2))) == .backoffCutShort)
        #expect(m.deadline == clock.at(.seconds(5)))
        #expect(m.tick(at: clock.at(.seconds(2))) == nil)
    }

    struct Kept: Sendable, CustomTestStringConvertible {
        var error: WeatherError
        var wait: Duration
        var code: String
        var testDescription: String { error.code + (error.retryAfter.map { " Retry-After \($0)" } ?? "") }
    }

    static let kept: [Kept] = [
        Kept(error: .http(status: 429, reason: nil, retryAfter: 120), wait: .seconds(120), code: "http"),
        Kept(error: .http(status: 429, reason: nil, retryAfter: nil), wait: .seconds(60), code: "http"),
        Kept(error: .http(status: 503, reason: nil, retryAfter: 300), wait: .seconds(300), code: "http"),
        Kept(error: .http(status: 401, reason: nil, retryAfter: nil), wait: .seconds(3600), code: "http"),
        Kept(error: .http(status: 403, reason: nil, retryAfter: nil), wait: .seconds(3600), code: "http"),
        // 10:00:01 UTC: a daily limit waits until midnight.
        Kept(
            error: .limited(status: 429, window: .day, reason: "Daily API request limit exceeded", retryAfter: nil),
            wait: .seconds(50_400), code: "http"),
        Kept(error: .decoding(message: "not an object"), wait: .seconds(5), code: "decoding"),
    ]

    /// `Retry-After`, 429, 401/403, a daily limit and bad answers keep their wait, whatever woke.
    @Test(arguments: kept, WakeReason.allCases)
    func otherBackoffsStand(_ c: Kept, _ reason: WakeReason) {
        var m = failed(c.error)
        let deadline = clock.at(.seconds(1) + c.wait)
        #expect(m.deadline == deadline)
        let woken = clock.at(.seconds(2))
        #expect(m.wake(reason, at: woken) == .backoffKept(remaining: c.wait - .seconds(1), code: c.code))
        #expect(m.deadline == deadline)
        #expect(m.tick(at: woken) == nil)
        if case .fetch(_, _, .retry, _) = m.tick(at: deadline) {} else { Issue.record("no retry at the deadline") }
    }

    /// With nothing failed: a resume refetches once `MinInterval` allows; a network change does nothing.
    @Test func withNothingFailedOnlyAResumeRefetches() {
        var m = Machine(policy: ThrottlePolicy(minInterval: .seconds(120), minDistance: 1000, maxAge: .seconds(900)))
        guard case .fetch(let id, _, _, _) = m.offer(here, at: clock.at(.zero)) else { return }
        _ = m.fetchEnded(id: id, .success, at: clock.at(.seconds(1)), wallNow: wall)
        #expect(m.wake(.networkReturned, at: clock.at(.seconds(200))) == .nothing)
        #expect(m.tick(at: clock.at(.seconds(200))) == nil)
        #expect(m.wake(.clockJump, at: clock.at(.seconds(30))) == .refresh)
        #expect(m.tick(at: clock.at(.seconds(30))) == nil, "MinInterval holds")
        #expect(m.deadline == clock.at(.seconds(120)))
        guard case .fetch(_, let position, .requested, nil) = m.tick(at: clock.at(.seconds(120))) else {
            Issue.record("no fetch when MinInterval ended")
            return
        }
        #expect(position == here)
    }

    @Test func theDetectorTellsASuspendFromDrift() {
        var d = SuspendDetector(threshold: .seconds(5))
        #expect(d.tick(offset: .seconds(100)) == nil, "the first reading is the baseline")
        #expect(d.tick(offset: .milliseconds(100_004)) == nil, "drift")
        #expect(d.tick(offset: .seconds(3700)) == .milliseconds(3_599_996))
        #expect(d.tick(offset: .seconds(3700)) == nil)
        // logind's signal for the suspend the tick reported already is not a second resume.
        #expect(d.resumed(offset: .seconds(3700)) == nil)
        // logind first: the next tick sees nothing new.
        #expect(d.resumed(offset: .seconds(3760)) == .seconds(60))
        #expect(d.tick(offset: .seconds(3760)) == nil)
        // A suspend that failed (or a forged signal): logind's word, the clocks did not move.
        #expect(d.resumed(offset: .seconds(3760)) == nil)
        // A tick's report, then a later, separate suspend that only logind reports.
        #expect(d.tick(offset: .seconds(3800)) == .seconds(40))
        #expect(d.resumed(offset: .seconds(3900)) == .seconds(100))
    }

    /// Forged `PrepareForSleep(false)` signals: without growth of the clocks none is a resume,
    /// however many; the first one after a real suspend is.
    @Test func logindsWordNeedsTheClocks() {
        var d = SuspendDetector()
        #expect(d.resumed(offset: .seconds(50)) == nil, "the first reading is the baseline")
        for _ in 0..<10_000 { #expect(d.resumed(offset: .seconds(50)) == nil) }
        #expect(d.resumed(offset: .milliseconds(50_999)) == nil, "less than resumeEvidence")
        #expect(d.resumed(offset: .milliseconds(52_500)) == .milliseconds(1_501))
        #expect(d.resumed(offset: .milliseconds(52_500)) == nil)
        #expect(d.tick(offset: .milliseconds(52_500)) == nil)
    }

    @Test func aBurstBecomesOneAction() async throws {
        let debouncer = Debouncer(clock: clock, quiet: .seconds(1), maxDelay: .seconds(5))
        let actions = Observed(0)
        let running = Task { await debouncer.run { actions.update { $0 += 1 } } }
        debouncer.signal()
        debouncer.signal()
        try await clock.waitForSleeper(until: clock.at(.seconds(1)))
        debouncer.signal()  // during the quiet time: wait another second
        clock.advance(by: .seconds(1))
        try await clock.waitForSleeper(until: clock.at(.seconds(2)))
        #expect(actions.value == 0)
        clock.advance(by: .seconds(1))
        _ = try? await actions.wait(timeout: .seconds(10), "one action") { $0 == 1 }
        // A burst that never goes quiet acts after maxDelay.
        debouncer.signal()
        for second in 3..<7 {
            try await clock.waitForSleeper(until: clock.at(.seconds(second)))
            debouncer.signal()
            clock.advance(by: .seconds(1))
        }
        try await clock.waitForSleeper(until: clock.at(.seconds(7)))
        debouncer.signal()  // still no quiet second: maxDelay (5 s after t+2) ends the wait
        clock.advance(by: .seconds(1))
        _ = try? await actions.wait(timeout: .seconds(10), "the second action") { $0 == 2 }
        #expect(actions.value == 2)
        running.cancel()
        await running.value
        #expect(actions.value == 2, "a burst acted on once")
    }

    @Test func theHeartbeatCountsProbes() {
        let beat = Heartbeat()
        #expect(beat.isAnswered)
        let first = beat.send()
        #expect(!beat.isAnswered)
        beat.answer(first)
        #expect(beat.isAnswered)
        let second = beat.send()
        let third = beat.send()
        #expect(!beat.isAnswered)
        beat.answer(third)
        #expect(beat.isAnswered)
        beat.answer(second)  // late: answers nothing new
        #expect(beat.isAnswered)
        beat.send()
        #expect(!beat.isAnswered)
        beat.answerAll()
        #expect(beat.isAnswered)
    }

    /// A probe answered late answers only itself and those before it: not the one sent after
    /// it, still queued behind work that stuck the loop (the watchdog would miss the wedge).
    @Test func aLateAnswerDoesNotAnswerALaterProbe() {
        let beat = Heartbeat()
        let early = beat.send()
        beat.send()  // queued behind the work that wedges the loop
        beat.answer(early)
        #expect(!beat.isAnswered)
    }
}
