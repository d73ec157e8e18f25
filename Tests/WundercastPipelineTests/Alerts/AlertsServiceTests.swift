import Foundation
import Synchronization
import Testing
import WundercastModel
import WundercastPipeline
import WundercastSupport
import WundercastTestSupport

/// The alerts service on a manual clock, with a source the test scripts (its answers are
/// alerts built here; the decoders are tested on recorded bodies). Every wait is on an event: a
/// request, a state, a sleeper, a journal entry.
@Suite(.timeLimit(.minutes(1))) struct AlertsServiceTests {
    static let t0 = Date(timeIntervalSince1970: 1_736_400_000)
    static let here = Coordinate(latitude: 61.22, longitude: -149.9)

    /// Answers in order (the last one again when they run out), and counts the requests.
    final class ScriptedSource: Sendable {
        let answers: Mutex<[Result<[Alert], WeatherError>]>
        let requests = Mutex<[Coordinate]>([])
        let asked = ObservableValue(0)
        init(_ answers: [Result<[Alert], WeatherError>]) { self.answers = Mutex(answers) }

        func fetch(_ source: AlertSourceID, _ at: Coordinate) async throws(WeatherError) -> [Alert] {
            let answer: Result<[Alert], WeatherError> = answers.withLock { $0.count > 1 ? $0.removeFirst() : $0[0] }
            let count = requests.withLock {
                $0.append(at)
                return $0.count
            }
            asked.updateIfChanged { $0 = count }
            switch answer {
            case .success(let alerts): return alerts
            case .failure(let error): throw error
            }
        }

        func waitForRequests(_ count: Int) async -> Bool {
            for await n in asked.values() where n >= count { return true }
            return false
        }
    }

    struct Running {
        let store: StateStore
        let service: AlertsService<ManualClock>
        let task: Task<Void, Never>
        func stop() async {
            task.cancel()
            await task.value
        }
    }

    let clock = ManualClock()
    let log = CapturedLog()

    func start(
        _ source: ScriptedSource, country: String = "US", interval: Duration = .seconds(600),
        minInterval: Duration = .seconds(60), countryOf: (@Sendable (Coordinate) -> String?)? = nil,
        logger: Logger? = nil
    ) -> Running {
        let store = StateStore(provider: "scripted", authorization: .denied)
        let clock = clock
        let service = AlertsService(
            store: store,
            settings: .init(sources: Set(AlertSourceID.allCases), interval: interval, minInterval: minInterval),
            fetch: { (at, coordinate) throws(WeatherError) in try await source.fetch(at, coordinate) },
            country: countryOf ?? { _ in country }, clock: clock,
            wallClock: { Self.t0 + TimeInterval(clock.now.offset.components.seconds) }, logger: logger ?? log.logger)
        let task = Task { await service.run() }
        store.publishPosition(
            Position(coordinate: Self.here, source: .fallback(name: "Anchorage")), rounded: Self.here,
            receivedAt: Self.t0, fetching: false)
        store.publishWeather(Weather(temperature: -3, units: .requested(.metric)), fetchedAt: Self.t0)
        return Running(store: store, service: service, task: task)
    }

    static func alert(_ id: String, expiresIn: TimeInterval = 7200, severity: Alert.Severity = .severe) -> Alert {
        Alert(
            id: id, source: .nws, authority: "NWS Anchorage AK", event: "Winter Storm Warning", severity: severity,
            expires: t0 + expiresIn, headline: "Winter Storm Warning issued", areaDescription: "Anchorage")
    }

    /// The source fails: the state says `unavailable` with the error — never an empty `ok` —
    /// while the weather stays fresh and the top-level error stays the weather's; after the
    /// back-off the source answers and the alert is there.
    @Test func aSourceThatFailsIsUnavailableNotQuietThenBack() async throws {
        let source = ScriptedSource([
            .failure(.http(status: 503, reason: nil, retryAfter: nil)), .success([Self.alert("w1")]),
        ])
        let running = start(source)
        let down = await running.store.waitFor {
            $0.alerts?.status == .unavailable && $0.alerts?.error?.message.contains("503") == true
        }
        let state = try #require(down, "\(running.store.current)")
        #expect(state.alerts?.source == .nws)
        #expect(state.alerts?.error?.code == "alerts-unavailable")
        #expect(state.alerts?.items == nil, "nothing known is not an empty list")
        #expect(state.status == .fresh && state.error == nil, "the weather is not touched")
        #expect(log.all.contains { $0.field("MESSAGE_ID") == MessageID.alertsUnavailable && $0.priority == .warning })
        try await clock.waitForSleeper(until: clock.at(.seconds(60)))
        clock.advance(by: .seconds(60))
        let back = try #require(await running.store.waitFor { $0.alerts?.status == .ok })
        #expect(back.alerts?.items?.map(\.id) == ["w1"])
        #expect(back.alerts?.error == nil)
        #expect(back.alerts?.fetchedAt == Self.t0 + 60)
        #expect(
            await log.wait {
                $0.contains {
                    $0.field("MESSAGE_ID") == MessageID.alertIssued && $0.field("WUNDERCAST_ALERT_ID") == "w1"
                }
            })
        await running.stop()
    }

    /// An alert whose `expires` comes between two regular requests: asked again once shortly
    /// before (2 min), and gone at its `expires` — journalled as expired.
    @Test func anAlertExpiringBetweenRequestsLeavesOnTime() async throws {
        let source = ScriptedSource([.success([Self.alert("short", expiresIn: 300), Self.alert("long")])])
        let running = start(source)
        _ = try #require(await running.store.waitFor { $0.alerts?.items?.count == 2 })
        // Asked again 2 min before the expiry (at 180 s), not every minute after it.
        try await clock.waitForSleeper(until: clock.at(.seconds(180)))
        clock.advance(by: .seconds(180))
        #expect(await source.waitForRequests(2))
        try await clock.waitForSleeper(until: clock.at(.seconds(300)))
        clock.advance(by: .seconds(120))
        let after = try #require(await running.store.waitFor { $0.alerts?.items?.count == 1 })
        #expect(after.alerts?.items?.map(\.id) == ["long"])
        #expect(source.requests.withLock { $0.count } == 2, "no request at the expiry")
        #expect(
            await log.wait {
                $0.contains {
                    $0.field("MESSAGE_ID") == MessageID.alertEnded && $0.field("WUNDERCAST_ALERT_END") == "expired"
                }
            })
        await running.stop()
    }

    /// At rest for a day (a position that does not move): one request per `Interval=`.
    @Test func aDayAtRestStaysInsideTheBudget() async throws {
        let source = ScriptedSource([.success([])])
        let running = start(source)
        _ = try #require(await running.store.waitFor { $0.alerts?.status == .ok })
        while clock.now.offset < .seconds(86_400) {
            try await clock.waitForSleepers(1)
            let next = try #require(clock.deadlines.first)
            clock.advance(by: clock.now.duration(to: next))
            #expect(await source.waitForRequests(Int(clock.now.offset.components.seconds / 600) + 1))
        }
        let count = source.requests.withLock { $0.count }
        #expect(count == 86_400 / 600 + 1, "one at the start, then one per 10 min: \(count)")
        await running.stop()
    }

    /// Driving for an hour (a new position every 10 s, as a receiver moving 100 m per fix at
    /// `Precision=3` publishes): no more than one request per `MinInterval` (2 min), so at most
    /// 31 in the hour; and the alerts follow the van (asked at least every 10 min).
    @Test func anHourOfDrivingStaysInsideTheBudget() async throws {
        let source = ScriptedSource([.success([])])
        let running = start(source, minInterval: .seconds(120))
        _ = try #require(await running.store.waitFor { $0.alerts?.status == .ok })
        for step in 1...360 {
            let here = Coordinate(latitude: Self.here.latitude + Double(step) / 1000, longitude: Self.here.longitude)
            running.store.publishPosition(
                Position(coordinate: here, source: .fallback(name: "van")), rounded: here,
                receivedAt: Self.t0 + Double(step * 10), fetching: false)
            _ = await running.store.waitFor { $0.location?.latitude == here.latitude }
            try await clock.waitForSleepers(1)
            clock.advance(by: .seconds(10))
        }
        let requests = source.requests.withLock { $0.count }
        print("alert requests in an hour of driving: \(requests)")
        #expect(requests <= 31, "at most one per MinInterval: \(requests)")
        #expect(requests >= 6, "the moving position is asked for: \(requests)")
        await running.stop()
    }

    /// A `Retry-After` far beyond any use (or not a number a clock can hold) waits 24 h, and
    /// never crashes the daemon (found by the hostile review: 1e22 s overflowed a Duration).
    @Test(arguments: [1e22, 9.3e18, Double.infinity, 34_560_000.0])
    func aHugeRetryAfterWaitsADay(_ seconds: Double) async throws {
        let source = ScriptedSource([.failure(.http(status: 429, reason: nil, retryAfter: seconds))])
        let running = start(source)
        _ = try #require(
            await running.store.waitFor {
                $0.alerts?.status == .unavailable && $0.alerts?.error?.message.contains("429") == true
            })
        try await clock.waitForSleeper(until: clock.at(.seconds(86_400)))
        await running.stop()
    }

    /// A failure is retried no sooner than `MinInterval` after the request that failed, even
    /// when the back-off's first step is shorter.
    @Test func aRetryWaitsAtLeastMinInterval() async throws {
        let source = ScriptedSource([.failure(.http(status: 503, reason: nil, retryAfter: nil))])
        let running = start(source, minInterval: .seconds(300))
        _ = try #require(
            await running.store.waitFor {
                $0.alerts?.status == .unavailable && $0.alerts?.error?.message.contains("503") == true
            })
        try await clock.waitForSleeper(until: clock.at(.seconds(300)))
        await running.stop()
    }

    /// A position that leaves the covered country for a moment (a border) and comes back is
    /// not asked for again at once: what the service knew stays while uncovered.
    @Test func aBorderCrossedAndBackKeepsMinInterval() async throws {
        let source = ScriptedSource([.success([Self.alert("w1")])])
        let running = start(source, countryOf: { $0.latitude > 62 ? "FR" : "US" })
        _ = try #require(await running.store.waitFor { $0.alerts?.status == .ok })
        for (latitude, status) in [(63.0, AlertsState.Status.uncovered), (61.23, .ok)] {
            let here = Coordinate(latitude: latitude, longitude: Self.here.longitude)
            running.store.publishPosition(
                Position(coordinate: here, source: .fallback(name: "border")), rounded: here, receivedAt: Self.t0,
                fetching: false)
            _ = try #require(
                await running.store.waitFor { $0.location?.latitude == latitude && $0.alerts?.status == status })
        }
        // Back on the covered side: asked MinInterval (60 s) after the first request, not at once.
        try await clock.waitForSleeper(until: clock.at(.seconds(60)))
        #expect(source.requests.withLock { $0.count } == 1)
        clock.advance(by: .seconds(60))
        #expect(await source.waitForRequests(2))
        await running.stop()
    }

    /// Three alerts of one event for three areas: three journal entries, also through the
    /// journal's repeat limit (which takes entries that differ only in numbers as one).
    @Test func eachAlertGetsItsOwnEntryThroughTheRepeatLimit() async throws {
        let alerts = ["Zone 1", "Zone 2", "Zone 3"].enumerated().map { index, area in
            Alert(
                id: "f\(index)", source: .nws, authority: "NWS", event: "Flood Warning", severity: .moderate,
                expires: Self.t0 + 3600 + Double(index), areaDescription: area)
        }
        let source = ScriptedSource([.success(alerts)])
        let running = start(source, logger: log.logger.limitingRepeats())
        _ = try #require(await running.store.waitFor { $0.alerts?.items?.count == 3 })
        let issued = log.all.filter { $0.field("MESSAGE_ID") == MessageID.alertIssued }
        #expect(issued.count == 3, "\(issued.map(\.message))")
        #expect(Set(issued.compactMap { $0.field("WUNDERCAST_ALERT_ID") }) == ["f0", "f1", "f2"])
        await running.stop()
    }

    /// A reload makes a new service: it takes over the alerts in force and the time of the last
    /// request, so the source is not asked again at once (found by the hostile review: three
    /// SIGHUPs, three requests).
    @Test func aServiceThatTakesOverAsksNoSoonerThanMinInterval() async throws {
        let source = ScriptedSource([.success([Self.alert("w1")])])
        let first = start(source)
        _ = try #require(await first.store.waitFor { $0.alerts?.status == .ok })
        await first.stop()
        let clock = clock
        let settings = AlertsService<ManualClock>.Settings(
            sources: Set(AlertSourceID.allCases), interval: .seconds(600), minInterval: .seconds(60))
        let make = {
            AlertsService(
                store: first.store, settings: settings,
                fetch: { (at, coordinate) throws(WeatherError) in try await source.fetch(at, coordinate) },
                country: { _ in "US" }, clock: clock, wallClock: { Self.t0 }, logger: .discard)
        }
        let replaced = make()
        replaced.continuing(first.service)
        let task = Task { await replaced.run() }
        try await clock.waitForSleeper(until: clock.at(.seconds(600)))
        #expect(source.requests.withLock { $0.count } == 1, "no request at the reload")
        #expect(first.store.current.alerts?.items?.map(\.id) == ["w1"])
        task.cancel()
        await task.value
    }

    /// Another place's alerts are never shown as in force here (found by the hostile review:
    /// Phoenix's warning shown in Chicago while NWS failed): a position more than 5 km from the
    /// one the alerts were answered for shows none until its own answer; a short move keeps them.
    @Test func aFarMoveShowsNoAlertsUntilItsOwnAnswer() async throws {
        let source = ScriptedSource([
            .success([Self.alert("phoenix")]), .failure(.http(status: 500, reason: nil, retryAfter: nil)),
        ])
        let running = start(source)
        _ = try #require(await running.store.waitFor { $0.alerts?.items?.map(\.id) == ["phoenix"] })
        func move(_ latitude: Double) {
            let here = Coordinate(latitude: latitude, longitude: Self.here.longitude)
            running.store.publishPosition(
                Position(coordinate: here, source: .fallback(name: "van")), rounded: here, receivedAt: Self.t0,
                fetching: false)
        }
        move(Self.here.latitude + 0.02)  // about 2 km
        let near = try #require(await running.store.waitFor { $0.location?.latitude == Self.here.latitude + 0.02 })
        #expect(near.alerts?.items?.map(\.id) == ["phoenix"], "a short move keeps them")
        move(Self.here.latitude + 1.5)  // about 170 km
        let far = try #require(
            await running.store.waitFor { $0.location?.latitude == Self.here.latitude + 1.5 && $0.alerts?.items == nil }
        )
        #expect(far.alerts?.status == .unavailable)
        // Its own request fails: still none of Phoenix's, the failure said.
        try await clock.waitForSleeper(until: clock.at(.seconds(60)))
        clock.advance(by: .seconds(60))
        let failed = try #require(await running.store.waitFor { $0.alerts?.error?.message.contains("500") == true })
        #expect(failed.alerts?.items == nil)
        await running.stop()
    }

    /// A position no source covers: `uncovered`, and nothing is asked.
    @Test func anUncoveredCountryAsksNoOne() async throws {
        let source = ScriptedSource([.success([Self.alert("x")])])
        let running = start(source, country: "FR")
        let state = try #require(await running.store.waitFor { $0.alerts?.status == .uncovered })
        #expect(state.alerts?.source == nil && state.alerts?.items == nil)
        try await clock.waitForSleepers(0)
        #expect(source.requests.withLock { $0.isEmpty })
        await running.stop()
    }
}
