import Foundation
import Synchronization
import Testing
import WundercastSupport
import WundercastModel
import WundercastPipeline
import WundercastPOSIX
import WundercastTestSupport

@testable import WundercastServer

/// The watchdog service on a manual clock (issue 8, point 4): one `WATCHDOG=1` per tick while
/// the socket loop and the pipeline answer, none while the pipeline does not; the clock check
/// runs on the same tick, and without systemd's watchdog only while logind is missing.
@Suite(.timeLimit(.minutes(1))) struct WatchdogTests {
    let clock = ManualClock()

    /// Counters of what the watchdog did.
    final class Probe: Sendable {
        let pings = Observed(0)
        let ticks = Observed(0)
        let socketTrips = Observed(0)
        let answering = Atomic<Bool>(true)
    }

    func watchdog(
        _ probe: Probe, ping: Duration?, wanted: ObservableValue<Bool> = ObservableValue(false), log: Logger = .discard
    )
        -> Watchdog<ManualClock>
    {
        Watchdog(
            pingInterval: ping, idleTick: .seconds(15), tickWanted: wanted, clock: clock,
            socketAnswers: { probe.socketTrips.update { $0 += 1 } },
            pipelineAnswered: { probe.answering.load(ordering: .relaxed) },
            ping: { probe.pings.update { $0 += 1 } }, onTick: { probe.ticks.update { $0 += 1 } }, logger: log)
    }

    @Test func onePingPerTickUntilThePipelineStopsAnswering() async throws {
        let probe = Probe()
        let log = CapturedLog()
        let task = Task { await watchdog(probe, ping: .seconds(10), log: log.logger).run() }
        for n in 1...3 {
            try await clock.waitForSleeper(until: clock.at(.seconds(10 * n)))
            clock.advance(by: .seconds(10))
            _ = try await probe.pings.wait(timeout: .seconds(10), "ping \(n)") { $0 == n }
        }
        probe.answering.store(false, ordering: .relaxed)
        for n in 4...6 {
            try await clock.waitForSleeper(until: clock.at(.seconds(10 * n)))
            clock.advance(by: .seconds(10))
            _ = try await probe.ticks.wait(timeout: .seconds(10), "tick \(n)") { $0 == n }
        }
        try await clock.waitForSleeper(until: clock.at(.seconds(70)))
        #expect(probe.pings.value == 3, "no ping while the pipeline is silent")
        #expect(probe.socketTrips.value == 6, "the socket loop is asked on every tick")
        #expect(log.all.filter { $0.priority == .warning }.count == 1, "one warning: \(log.texts)")
        probe.answering.store(true, ordering: .relaxed)
        clock.advance(by: .seconds(10))
        _ = try await probe.pings.wait(timeout: .seconds(10), "ping again") { $0 == 4 }
        task.cancel()
        await task.value
    }

    /// `WATCHDOG_USEC=1` (a 500 ns ping period): the tick is clamped to 100 ms, so no ping
    /// comes before the clock reaches 100 ms, then exactly one.
    @Test func aTinyWatchdogIntervalIsClampedTo100ms() async throws {
        let probe = Probe()
        let task = Task { await watchdog(probe, ping: .nanoseconds(500)).run() }
        try await clock.waitForSleeper(until: clock.at(.milliseconds(100)))
        clock.advance(by: .milliseconds(99))
        try await clock.waitForSleeper(until: clock.at(.milliseconds(100)))
        #expect(probe.ticks.value == 0 && probe.pings.value == 0, "no tick before 100 ms")
        clock.advance(by: .milliseconds(1))
        _ = try await probe.pings.wait(timeout: .seconds(10), "the first ping") { $0 == 1 }
        try await clock.waitForSleeper(until: clock.at(.milliseconds(200)))
        #expect(probe.pings.value == 1)
        task.cancel()
        await task.value
    }

    /// Without systemd's watchdog: no ping, no socket round trip; a 15 s tick for the clock
    /// check once `tickWanted` (logind missing).
    @Test func withoutTheWatchdogItTicksOnlyForTheClockCheck() async throws {
        let probe = Probe()
        let wanted = ObservableValue(false)
        let task = Task { await watchdog(probe, ping: nil, wanted: wanted).run() }
        wanted.send(true)
        try await clock.waitForSleeper(until: clock.at(.seconds(15)))
        clock.advance(by: .seconds(15))
        _ = try await probe.ticks.wait(timeout: .seconds(10), "a tick") { $0 == 1 }
        try await clock.waitForSleeper(until: clock.at(.seconds(30)))
        #expect(probe.pings.value == 0 && probe.socketTrips.value == 0)
        task.cancel()
        await task.value
    }

    /// The clock check: the offset `CLOCK_BOOTTIME − CLOCK_MONOTONIC` grows by 1 h between two
    /// ticks → one resume, logged once; drift below 5 s → nothing.
    @Test func aJumpOfTheClocksIsAResume() throws {
        let offset = Mutex(Duration.seconds(12))
        let log = CapturedLog()
        let status = ObservableValue(AuthorizationStatus.denied)
        let service = WeatherService(
            locationManager: LocationManager(
                source: ScriptedFixSource(), authorization: status, maxHorizontalError: 50),
            provider: ScriptedWeatherProvider(), store: StateStore(provider: "scripted", authorization: .denied),
            clock: ContinuousClock(),
            settings: .init(
                throttle: ThrottlePolicy(minInterval: .seconds(60), minDistance: 1000, maxAge: .seconds(900)),
                maxFixAge: .seconds(120), precision: 2),
            logger: log.logger)
        let loop = try EventLoop(name: "test-wake")
        defer { loop.stop() }
        let wake = WakeWatch(
            service: { service }, loop: loop, logger: log.logger, readOffset: { offset.withLock { $0 } })
        func resumes() -> [CapturedLog.Entry] {
            log.all.filter { $0.fields.contains { $0 == ("MESSAGE_ID", MessageID.resumed) } }
        }
        wake.resumed()
        #expect(resumes().isEmpty, "logind's word (or a forged one) without the clocks is no resume")
        offset.withLock { $0 += .seconds(2) }
        wake.checkClocks()
        #expect(resumes().isEmpty, "drift is no suspend")
        offset.withLock { $0 += .seconds(3600) }
        wake.checkClocks()
        wake.checkClocks()
        #expect(resumes().count == 1)
        #expect(resumes().first?.fields.contains { $0 == ("WUNDERCAST_WAKE", "clock-jump") } == true)
        #expect(resumes().first?.fields.contains { $0 == ("WUNDERCAST_ASLEEP_SECONDS", "3600") } == true)
        // logind's word for the same suspend adds nothing.
        wake.resumed()
        #expect(resumes().count == 1)
    }
}
