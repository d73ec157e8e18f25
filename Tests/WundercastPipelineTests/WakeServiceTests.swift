import Foundation
import Testing
import WundercastSupport
import WundercastModel
import WundercastPipeline
import WundercastTestSupport

/// Issue 8, point 2, at the service: a wake refetches at once after a network back-off, keeps
/// every other back-off, and a resume shows a fix older than `MaxFixAge` as last known at
/// once — without the timer that slept through the suspend. One log line per wake.
extension WeatherServiceTests {
    @Test(arguments: [WakeReason.networkReturned, .resumed, .clockJump])
    func aWakeEndsANetworkBackoffAtOnce(_ reason: WakeReason) async throws {
        let log = CapturedLog()
        let running = start(.denied, minInterval: .seconds(10), fallback: Self.place, logger: log.logger)
        let down = WeatherError.transport(code: 7, message: "Couldn't connect to server")
        // Failures at t+0, t+5, t+15: the third waits 20 s, until t+35.
        for (n, at, wait) in [(1, 0, 5), (2, 5, 10), (3, 15, 20)] {
            clock.advance(by: clock.now.duration(to: clock.at(.seconds(at))))
            try await provider.waitForRequests(n)
            provider.answerNext(with: .failure(down))
            try await clock.waitForSleeper(until: clock.at(.seconds(at + wait)))
        }
        #expect(clock.deadlines == [clock.at(.seconds(35))])
        clock.advance(by: .seconds(6))  // t+21: no timer fires
        #expect(
            await running.service.wake(reason, asleepFor: reason.isResume ? .seconds(6) : nil).outcome()
                == .backoffCutShort)
        try await provider.waitForRequests(4)
        provider.answerNext(with: .success(makeWeather(4)))
        let fresh = await running.state("fresh after the wake") { $0.status == .fresh }
        #expect(fresh?.weather?.temperature == 4)
        let id = reason == .networkReturned ? MessageID.networkBack : MessageID.resumed
        let lines = log.all.filter { $0.fields.contains { $0 == ("MESSAGE_ID", id) } }
        #expect(lines.count == 1, "one line: \(log.texts)")
        #expect(lines.first?.fields.contains { $0 == ("WUNDERCAST_WAKE", reason.rawValue) } == true)
        await running.stop()
    }

    /// A 429 with `Retry-After`: the wake keeps the wait, says so once, and fetches nothing.
    @Test(arguments: [WakeReason.networkReturned, .resumed])
    func aWakeKeepsTheProvidersRetryAfter(_ reason: WakeReason) async throws {
        let log = CapturedLog()
        let running = start(.denied, minInterval: .seconds(10), fallback: Self.place, logger: log.logger)
        try await provider.waitForRequests(1)
        provider.answerNext(with: .failure(.http(status: 429, reason: nil, retryAfter: 600)))
        try await clock.waitForSleeper(until: clock.at(.seconds(600)))
        clock.advance(by: .seconds(100))
        #expect(await running.service.wake(reason).outcome() == .backoffKept(remaining: .seconds(500), code: "http"))
        let line = log.all.last { $0.message.contains("stands") }
        #expect(line?.message.contains("retry in 8min 20s") == true, "\(log.texts)")
        // The retry comes at the provider's time, as the first request after the failure.
        clock.advance(by: .seconds(500))
        try await provider.waitForRequests(2)
        #expect(provider.requested.count == 2)
        await running.stop()
    }

    /// After a resume the position's age is checked at once: a fix older than `MaxFixAge`
    /// is only the last known one (stale), though the `MaxFixAge` timer slept through the
    /// suspend and has not fired; the weather is fetched again.
    @Test func afterAResumeAnOldFixIsNotCurrent() async throws {
        let log = CapturedLog()
        let running = start(.authorizedAlways, minInterval: .seconds(60), logger: log.logger)
        try await source.waitForOpen()
        try await fetched(makeFix(10, 10), 1, by: running, requests: 1)
        try await clock.waitForSleeper(until: clock.at(.seconds(120)))
        clock.jump(by: .seconds(3600))  // suspended for an hour: no timer fired
        #expect(running.store.current.status == .fresh)
        #expect(await running.service.wake(.resumed, asleepFor: .seconds(3600)).outcome() == .refresh)
        let stale = await running.state("last known at once") { $0.location?.status == .lastKnown }
        #expect(stale?.status == .stale)
        #expect(stale?.error?.code == "no-fix")
        try await provider.waitForRequests(2)
        provider.answerNext(with: .success(makeWeather(2)))
        let refreshed = await running.state("refreshed") { $0.weather?.temperature == 2 }
        #expect(refreshed?.status == .stale, "new weather for an old position is not fresh")
        let lines = log.all.filter { $0.fields.contains { $0 == ("MESSAGE_ID", MessageID.resumed) } }
        #expect(lines.count == 1)
        #expect(lines.first?.fields.contains { $0 == ("WUNDERCAST_ASLEEP_SECONDS", "3600") } == true)
        await running.stop()
    }

    /// A wake is an event of the session's inbox, handled in turn: behind a refresh that wedged
    /// the session it is not handled (nothing logged, the machine untouched) until the session
    /// ends; then the machine takes it, as with no session, and says so in one line.
    @Test func aWakeWaitsItsTurnInTheSessionsInbox() async throws {
        let log = CapturedLog()
        let running = start(.denied, minInterval: .seconds(10), fallback: Self.place, logger: log.logger)
        try await provider.waitForRequests(1)
        provider.answerNext(with: .success(makeWeather(1)))
        await running.state("fresh") { $0.status == .fresh }
        func resumes() -> [CapturedLog.Entry] {
            log.all.filter { $0.fields.contains { $0 == ("MESSAGE_ID", MessageID.resumed) } }
        }
        running.service.wedgeOnRefreshForTesting()
        running.service.refresh()
        let wake = running.service.wake(.resumed, asleepFor: .seconds(60))
        #expect(resumes().isEmpty, "handled outside the inbox, before the refresh queued ahead of it")
        await running.stop()
        #expect(await wake.outcome() == .refresh)
        #expect(resumes().count == 1, "\(log.texts)")
    }

    /// With no session running (a status that fetches nothing), a wake is decided at once.
    @Test func aWakeWithoutASessionIsDecidedAtOnce() async throws {
        let log = CapturedLog()
        let running = start(.notDetermined, minInterval: .seconds(10), logger: log.logger)
        let wake = running.service.wake(.clockJump, asleepFor: .seconds(60))
        let lines = log.all.filter { $0.fields.contains { $0 == ("MESSAGE_ID", MessageID.resumed) } }
        #expect(lines.count == 1, "\(log.texts)")
        #expect(await wake.outcome() == .refresh)
        await running.stop()
    }

    /// The liveness probe: answered by a running session, and not by a wedged one.
    @Test func theProbeIsAnsweredUntilThePipelineIsWedged() async throws {
        let running = start(.denied, minInterval: .seconds(10), fallback: Self.place)
        try await provider.waitForRequests(1)
        provider.answerNext(with: .success(makeWeather(1)))
        await running.state("fresh") { $0.status == .fresh }
        #expect(running.service.probeLiveness(), "nothing sent before")
        // Answered once the session handled it: wait for that through a state change it follows.
        running.service.refresh()
        try await clock.waitForSleeper(until: clock.at(.seconds(10)))
        #expect(running.service.probeLiveness())
        running.service.wedgeOnRefreshForTesting()
        running.service.refresh()
        _ = running.service.probeLiveness()
        // The session is stuck at the refresh: the probes behind it stay unanswered.
        clock.advance(by: .seconds(10))
        #expect(provider.requested.count == 1, "the wedged session fetched nothing")
        #expect(!running.service.probeLiveness())
        #expect(!running.service.probeLiveness())
        await running.stop()
    }
}
