import Foundation
import Synchronization
import Testing
import WundercastSupport
import WundercastModel
import WundercastConfiguration
import WundercastProviders
import WundercastPipeline
import WundercastTestSupport

/// The service end to end on fakes: a scripted fix source, a scripted provider that the test
/// answers, a manual clock. Every wait is on an event (a request, a state, a sleeper).
@Suite(.timeLimit(.minutes(1))) struct WeatherServiceTests {
    let clock = ManualClock()
    let source = ScriptedFixSource()
    let provider = ScriptedWeatherProvider()

    /// A running service; `stop()` cancels it and waits until it has ended.
    struct Running {
        let service: WeatherService<ManualClock>
        let status: ObservableValue<AuthorizationStatus>
        let task: Task<Void, Never>
        var store: StateStore { service.store }

        func stop() async {
            task.cancel()
            await task.value
            service.locationManager.close()
        }

        /// Waits for a state that satisfies `predicate`; records a failure naming `what` if none comes.
        @discardableResult
        func state(
            _ what: String, sourceLocation: SourceLocation = #_sourceLocation,
            _ predicate: @escaping @Sendable (WeatherState) -> Bool
        ) async -> WeatherState? {
            let state = await store.waitFor(predicate)
            if state == nil {
                Issue.record("no state \(what); last: \(store.current)", sourceLocation: sourceLocation)
            }
            return state
        }
    }

    func start(
        _ initial: AuthorizationStatus, minInterval: Duration = .seconds(120), maxAge: Duration = .seconds(900),
        maxFixAge: Duration = .seconds(120), fallback: FallbackPlace? = nil, retry: RetryPolicy = RetryPolicy(),
        wallClock: @escaping @Sendable () -> Date = { Self.epoch }, logger: Logger = .discard
    ) -> Running {
        let status = ObservableValue(initial)
        let manager = LocationManager(source: source, authorization: status, maxHorizontalError: 50)
        let service = WeatherService(
            locationManager: manager, provider: provider,
            store: StateStore(provider: "scripted", authorization: initial), clock: clock,
            settings: .init(
                throttle: ThrottlePolicy(minInterval: minInterval, minDistance: 1000, maxAge: maxAge),
                maxFixAge: maxFixAge, precision: 2, fallback: fallback, retry: retry),
            wallClock: wallClock, logger: logger)
        return Running(service: service, status: status, task: Task { await service.run() })
    }

    static let epoch = Date(timeIntervalSince1970: 1_764_583_200)

    /// A wall clock that goes with the manual clock (``epoch`` at its start).
    var followingWallClock: @Sendable () -> Date {
        { [clock] in Self.epoch + Double(clock.now.offset.components.seconds) }
    }

    /// Sends `fix`, waits for its request and answers it with `temperature`; returns when fresh.
    func fetched(_ fix: Fix, _ temperature: Double, by running: Running, requests: Int) async throws {
        source.send(fix)
        try await provider.waitForRequests(requests)
        provider.answerNext(with: .success(makeWeather(temperature)))
        await running.state("fresh at \(temperature)") { $0.weather?.temperature == temperature && $0.status == .fresh }
    }

    @Test func aFixBecomesFreshWeatherForTheRoundedPosition() async throws {
        let running = start(.authorizedAlways)
        try await source.waitForOpen()
        source.send(makeFix(44.437512, 26.125049))
        try await provider.waitForRequests(1)
        #expect(provider.requested == [Coordinate(latitude: 44.44, longitude: 26.13)])
        await running.state("fetching") { $0.status == .fetching && $0.location?.latitude == 44.44 }
        provider.answerNext(with: .success(makeWeather(-5.3)))
        let fresh = await running.state("fresh") { $0.status == .fresh }
        #expect(fresh?.location?.status == .current)
        #expect(fresh?.error == nil)
        await running.stop()
    }

    /// On the way from no position to the first, no state shows the new place as "last
    /// known", nor "no location" without a reason.
    @Test func theFirstFixGoesStraightToFetching() async throws {
        let running = start(.authorizedAlways)
        try await source.waitForOpen()
        await running.state("no fix yet") { $0.error?.code == "no-fix" }
        let states = running.store.states()
        let seen = Task {
            var all: [WeatherState] = []
            for await state in states {
                all.append(state)
                if state.status == .fetching { break }
            }
            return all
        }
        source.send(makeFix(10, 10))
        let all = await seen.value
        #expect(!all.contains { $0.location?.status == .lastKnown }, "\(all)")
        #expect(!all.contains { $0.status == .noLocation && $0.error == nil }, "\(all)")
        await running.stop()
    }

    /// Issue 5, point 2: after `MaxFixAge` without a fix the position is only the last known
    /// one: `stale` with `no-fix`, never `fresh` — also after a `MaxAge` refresh — until a fix comes.
    @Test func aPositionAgesAndAMaxAgeRefreshDoesNotMakeItFresh() async throws {
        let running = start(.authorizedAlways, minInterval: .seconds(60), maxAge: .seconds(300))
        try await source.waitForOpen()
        try await fetched(makeFix(10, 10), 1, by: running, requests: 1)
        try await clock.waitForSleeper(until: clock.at(.seconds(120)))
        clock.advance(by: .seconds(120))
        let aged = await running.state("aged") { $0.status == .stale }
        #expect(aged?.error?.code == "no-fix")
        #expect(aged?.location?.status == .lastKnown)
        #expect(aged?.weather?.temperature == 1)
        // MaxAge still refreshes the weather of the last known position, which stays stale.
        try await clock.waitForSleeper(until: clock.at(.seconds(300)))
        clock.advance(by: .seconds(180))
        try await provider.waitForRequests(2)
        provider.answerNext(with: .success(makeWeather(2)))
        let refreshed = await running.state("refreshed") { $0.weather?.temperature == 2 }
        #expect(refreshed?.status == .stale)
        #expect(refreshed?.error?.code == "no-fix")
        // A fix makes it current again.
        source.send(makeFix(10, 10))
        let current = await running.state("current again") { $0.status == .fresh }
        #expect(current?.location?.status == .current)
        await running.stop()
    }

    /// Issue 14, F1: a `MaxAge` refresh that shows the newest fix's cell (a fix within
    /// `MinDistance`, not fetched until then) publishes that fix's age, not 0: no fix came.
    @Test func aRefreshShowsTheNewestFixAsOldAsItIs() async throws {
        let running = start(
            .authorizedAlways, minInterval: .seconds(60), maxAge: .seconds(300), wallClock: followingWallClock)
        try await source.waitForOpen()
        try await fetched(makeFix(10, 10), 1, by: running, requests: 1)
        clock.advance(by: .seconds(10))
        source.send(makeFix(10.006, 10))  // 670 m north, another cell at 2 decimals
        try await clock.waitForSleeper(until: clock.at(.seconds(130)))  // its MaxFixAge deadline
        clock.advance(by: .seconds(120))
        await running.state("no fix for MaxFixAge") { $0.error?.code == "no-fix" }
        try await clock.waitForSleeper(until: clock.at(.seconds(300)))
        clock.advance(by: .seconds(170))
        let shown = await running.state("the newest fix's cell") { $0.location?.latitude == 10.01 }
        #expect(shown?.location?.receivedAt == Self.epoch + 10)
        #expect(shown?.stamped(now: Self.epoch + 300).location?.ageSeconds == 290)
        #expect(shown?.location?.status == .lastKnown)
        await running.stop()
    }

    @Test(arguments: [
        (SourceCondition.unreachable(reason: "lost gpsd at 127.0.0.1:2947: closed"), "gpsd-unreachable"),
        (.deviceGone(path: "/dev/ttyUSB0"), "device-gone"),
    ])
    func gpsdProblemsMakeThePositionLastKnown(condition: SourceCondition, code: String) async throws {
        let running = start(.authorizedAlways)
        try await source.waitForOpen()
        try await fetched(makeFix(10, 10), 1, by: running, requests: 1)
        source.send(condition)
        let stale = await running.state(code) { $0.error?.code == code }
        #expect(stale?.status == .stale)
        #expect(stale?.location?.status == .lastKnown)
        await running.stop()
    }

    /// Issue 5, point 6: latest wins, but the cancelled request has ended before the next starts.
    @Test func oneProviderRequestAtATime() async throws {
        let running = start(.authorizedAlways, minInterval: .seconds(1), maxAge: .seconds(900))
        try await source.waitForOpen()
        source.send(makeFix(10, 10))
        try await provider.waitForRequests(1)
        try await clock.waitForSleeper(until: clock.at(.seconds(120)))  // MaxFixAge armed: the fix is handled
        clock.advance(by: .seconds(2))
        source.send(makeFix(20, 20))
        try await provider.waitForRequests(2)
        let a = Coordinate(latitude: 10, longitude: 10)
        let b = Coordinate(latitude: 20, longitude: 20)
        #expect(provider.log == [.started(a), .ended(a), .started(b)])
        #expect(provider.maxInFlight == 1)
        provider.answerNext(with: .success(makeWeather(20)))
        let fresh = await running.state("fresh for the newer position") { $0.status == .fresh }
        #expect(fresh?.location?.latitude == 20)
        await running.stop()
    }

    /// The one wait the session keeps (not "one at a time", the queue's rule): when the service
    /// ends, the request of its fetch in flight has ended too — nothing of a session outlives it
    /// (a reload's new provider queue never overlaps the old one's request). The request here
    /// ends only when the test lets it, after its cancellation was asked (as libcurl's does).
    @Test func aStoppedServiceLeavesNoRequestBehind() async throws {
        let events = EventRecorder<String>()
        let held = HeldCancellationProvider(events)
        let status = ObservableValue(AuthorizationStatus.authorizedAlways)
        let service = WeatherService(
            locationManager: LocationManager(source: source, authorization: status, maxHorizontalError: 50),
            provider: held, store: StateStore(provider: "held", authorization: .authorizedAlways), clock: clock,
            settings: .init(
                throttle: ThrottlePolicy(minInterval: .seconds(120), minDistance: 1000, maxAge: .seconds(900)),
                maxFixAge: .seconds(120), precision: 2))
        let running = Running(service: service, status: status, task: Task { await service.run() })
        try await source.waitForOpen()
        source.send(makeFix(10, 10))
        #expect(await events.wait { $0.contains("started") })
        let stopping = Task {
            await running.stop()
            events.append("stopped")
        }
        #expect(await events.wait { $0.contains("cancel asked") })
        held.end()
        await stopping.value
        #expect(events.values == ["started", "cancel asked", "ended", "stopped"])
    }

    /// A place held back by `MinInterval` is shown as `fetching` there, not as `fresh` weather
    /// at the old place; its fetch starts when the interval ends (trailing edge).
    @Test func aHeldBackPlaceIsShownAsFetching() async throws {
        let running = start(.authorizedAlways, minInterval: .seconds(30))
        try await source.waitForOpen()
        try await fetched(makeFix(48, 11), 1, by: running, requests: 1)
        source.send(makeFix(48.5, 11))
        let held = await running.state("fetching for the new place") { $0.location?.latitude == 48.5 }
        #expect(held?.status == .fetching)
        #expect(provider.requested.count == 1)
        try await clock.waitForSleeper(until: clock.at(.seconds(30)))
        clock.advance(by: .seconds(30))
        try await provider.waitForRequests(2)
        #expect(provider.requested.last == Coordinate(latitude: 48.5, longitude: 11))
        await running.stop()
    }

    /// After `denied` → `always`, the first fix at the place already fetched shows it again
    /// with its weather, fresh, without waiting for a fetch (issue 5, point 5).
    @Test func aReopenedGateShowsTheFixAtOnce() async throws {
        let running = start(.authorizedAlways, minInterval: .seconds(10), maxAge: .seconds(600))
        try await source.waitForOpen()
        try await fetched(makeFix(48, 11), 1, by: running, requests: 1)
        running.status.send(.denied)
        await running.state("denied") { $0.error?.code == "denied" }
        running.status.send(.authorizedAlways)
        try await source.waitForOpen(count: 2)
        source.send(makeFix(48, 11))
        let back = await running.state("the place again") { $0.location?.latitude == 48 && $0.status == .fresh }
        #expect(back?.error == nil)
        #expect(back?.location?.status == .current)
        #expect(provider.requested.count == 1)
        await running.stop()
    }

    /// The retry policy's wait is what the session sleeps for: 5 s, then 10 s; `Retry-After` 60 s.
    @Test func retriesWaitForTheRetryPolicy() async throws {
        let running = start(.authorizedAlways, minInterval: .seconds(60))
        try await source.waitForOpen()
        source.send(makeFix(1, 1))
        try await provider.waitForRequests(1)
        provider.answerNext(with: .failure(.http(status: 500, reason: nil, retryAfter: nil)))
        await running.state("error") { $0.status == .error }
        try await clock.waitForSleeper(until: clock.at(.seconds(5)))
        clock.advance(by: .seconds(5))
        try await provider.waitForRequests(2)
        provider.answerNext(with: .failure(.http(status: 429, reason: nil, retryAfter: 60)))
        try await clock.waitForSleeper(until: clock.at(.seconds(65)))
        #expect(clock.deadlines.first == clock.at(.seconds(65)))
        clock.advance(by: .seconds(60))
        try await provider.waitForRequests(3)
        provider.answerNext(with: .success(makeWeather(3)))
        await running.state("fresh after retries") { $0.status == .fresh && $0.error == nil }
        await running.stop()
    }

    /// A status change cancels the fetch in flight and waits for it before the new status's
    /// state is published: nothing of the old status arrives after.
    @Test func aStatusChangeEndsTheFetchInFlightFirst() async throws {
        let running = start(.authorizedAlways)
        try await source.waitForOpen()
        source.send(makeFix(10, 10))
        try await provider.waitForRequests(1)
        running.status.send(.denied)
        let denied = await running.state("denied") { $0.authorization == .denied && $0.error?.code == "denied" }
        #expect(denied?.location == nil)
        #expect(
            provider.log == [
                .started(Coordinate(latitude: 10, longitude: 10)), .ended(Coordinate(latitude: 10, longitude: 10)),
            ])
        try await source.waitForRelease()
        await running.stop()
    }

    @Test func deniedWithAFallbackFetchesTheFallbackPlace() async throws {
        let place = Coordinate(latitude: 48.8566, longitude: 2.3522)
        let running = start(.denied, fallback: .coordinate(place))
        try await provider.waitForRequests(1)
        #expect(provider.requested == [Coordinate(latitude: 48.86, longitude: 2.35)])
        provider.answerNext(with: .success(makeWeather(12)))
        let fresh = await running.state("fresh for the fallback") { $0.status == .fresh }
        #expect(fresh?.location?.source == .fallback)
        #expect(fresh?.location?.status == .current)
        #expect(source.openCount == 0)
        await running.stop()
    }

    /// Issue 18, item 7: `denied` shows the fallback place at once, in the same change as the
    /// status — never "waiting for a GPS fix" — when its weather stands (it was fetched before
    /// `ask` → `denied`, or the last GPS fetch is within `MinDistance` of it): no request, fresh;
    /// and as `fetching` when it needs a fetch (a GPS fetch far from it).
    @Test(arguments: [
        (AuthorizationStatus.notDetermined, 48.8566, "fresh"), (.authorizedAlways, 48.857, "fresh"),
        (.authorizedAlways, 40.0, "fetching"),
    ])
    func deniedShowsTheFallbackAtOnce(
        _ between: AuthorizationStatus, _ fixLatitude: Double, _ shown: String
    )
        async throws
    {
        let place = Coordinate(latitude: 48.8566, longitude: 2.3522)
        let running = start(.denied, minInterval: .seconds(10), maxAge: .seconds(600), fallback: .coordinate(place))
        try await provider.waitForRequests(1)
        provider.answerNext(with: .success(makeWeather(12)))
        await running.state("fresh for the fallback") { $0.status == .fresh }
        running.status.send(between)
        if between == .authorizedAlways {
            try await source.waitForOpen()
            source.send(makeFix(fixLatitude, 2.3522))
            if shown == "fetching" {
                try await clock.waitForSleeper(until: clock.at(.seconds(10)))
                clock.advance(by: .seconds(10))
                try await provider.waitForRequests(2)
                provider.answerNext(with: .success(makeWeather(13)))
            }
            await running.state("fresh at the fix") { $0.status == .fresh && $0.location?.source == .gpsd }
        } else {
            await running.state("not decided") { $0.error?.code == "not-determined" }
        }
        let requests = provider.requested.count
        let states = running.store.states()
        let first = Task { () -> WeatherState? in
            for await state in states where state.authorization == .denied { return state }
            return nil
        }
        running.status.send(.denied)
        let denied = await first.value
        #expect(denied?.location?.source == .fallback, "\(String(describing: denied))")
        #expect(denied?.location?.status == .current)
        #expect(denied?.status.rawValue == shown)
        #expect(denied?.error == nil, "\(String(describing: denied))")
        if shown == "fresh" {
            #expect(denied?.weather?.temperature == 12)
            #expect(provider.requested.count == requests, "its weather stands: no request")
        }
        await running.stop()
    }

    /// A resolved `Fallback=PLACE` is fetched at its coordinate and shown with its name; `refresh`
    /// fetches it again once MinInterval allows (and not before).
    @Test func aNamedFallbackIsShownByNameAndRefreshFetchesAgainAfterMinInterval() async throws {
        let place = Coordinate(latitude: 69.6496, longitude: 18.9553)
        let running = start(.denied, fallback: .resolved(name: "Tromsø", place))
        try await provider.waitForRequests(1)
        provider.answerNext(with: .success(makeWeather(-3)))
        let fresh = await running.state("fresh for the fallback") { $0.status == .fresh }
        #expect(fresh?.location?.name == "Tromsø")
        running.service.refresh()
        try await clock.waitForSleeper(until: clock.at(.seconds(120)))
        #expect(provider.requested.count == 1, "refresh waits for MinInterval")
        clock.advance(by: .seconds(120))
        try await provider.waitForRequests(2)
        #expect(provider.requested.count == 2)
        provider.answerNext(with: .success(makeWeather(-2)))
        await running.state("refreshed") { $0.weather?.temperature == -2 }
        await running.stop()
    }

    /// Under when-in-use with nobody watching, a `now` takes one current fix (take-first) and
    /// releases the GPS again.
    @Test func whenInUseWithoutWatchersTakesOneFixPerRequest() async throws {
        let running = start(.authorizedWhenInUse)
        await running.state("when-in-use") { $0.authorization == .authorizedWhenInUse }
        #expect(source.openCount == 0)
        running.service.requestRefresh(from: 0)
        try await source.waitForOpen()
        source.send(makeFix(5, 5, eph: 500))  // too coarse for take-first
        source.send(makeFix(6, 6, eph: 10))
        try await provider.waitForRequests(1)
        #expect(provider.requested == [Coordinate(latitude: 6, longitude: 6)])
        try await source.waitForRelease()
        provider.answerNext(with: .success(makeWeather(6)))
        await running.state("fresh") { $0.status == .fresh }
        await running.stop()
    }

    /// Issue 5, point 5: every transition between the four statuses (when-in-use with and
    /// without a watcher) ends, within one fix, in a state that describes the new status only.
    @Test(arguments: Self.transitions)
    func theGateReopens(_ transition: Transition) async throws {
        let running = start(transition.from.status)
        if transition.from.watching || transition.to.watching { running.service.setWatchers(1) }
        await running.state("the first status") { $0.authorization == transition.from.status }
        if transition.from.readsGPS {
            try await source.waitForOpen()
            try await fetched(makeFix(10, 10), 10, by: running, requests: 1)
        }
        let opened = source.openCount
        running.status.send(transition.to.status)
        await running.state("the new status") { $0.authorization == transition.to.status }
        switch transition.to.status {
        case .authorizedAlways, .authorizedWhenInUse:
            if !transition.to.watching { running.service.requestRefresh(from: 0) }
            try await source.waitForOpen(count: opened + 1)
            source.send(makeFix(30, 30))
            // Unless MinInterval still holds a fetch back, the state shows the new fix.
            let newPosition = !transition.from.readsGPS
            let state = await running.state("a GPS position under \(transition.to)") {
                $0.location?.source == .gpsd && (!newPosition || $0.location?.latitude == 30)
                    && $0.location?.status == .current && $0.error == nil
            }
            #expect(state?.error == nil)
            #expect(state?.status == .fetching || state?.status == .fresh)
            #expect(state?.location?.status == .current)
        case .denied:
            let state = await running.state("denied") { $0.error?.code == "denied" }
            #expect(state?.location == nil)
        case .notDetermined:
            let state = await running.state("not decided") { $0.error?.code == "not-determined" }
            #expect(state?.location == nil)
        }
        await running.stop()
    }

    struct Mode: Sendable, CustomStringConvertible {
        var status: AuthorizationStatus
        var watching = false
        var readsGPS: Bool { status == .authorizedAlways || (status == .authorizedWhenInUse && watching) }
        var description: String { status.configName + (watching ? "+watch" : "") }
    }

    struct Transition: Sendable, CustomStringConvertible {
        var from: Mode
        var to: Mode
        var description: String { "\(from) → \(to)" }
    }

    static let transitions: [Transition] = {
        let modes = [
            Mode(status: .authorizedAlways), Mode(status: .authorizedWhenInUse),
            Mode(status: .authorizedWhenInUse, watching: true), Mode(status: .denied), Mode(status: .notDetermined),
        ]
        return modes.flatMap { from in
            modes.filter { $0.status != from.status }.map { Transition(from: from, to: $0) }
        }.filter { !($0.from.watching && $0.to.status == .authorizedWhenInUse && !$0.to.watching) }
    }()
}

/// A provider whose one request ends only when ``end()`` is called (after its cancellation was
/// asked, it still runs until then), recording `started`, `cancel asked`, `ended`.
final class HeldCancellationProvider: WeatherProvider, Sendable {
    let name = "held"
    let secrets = Secrets([])
    private let events: EventRecorder<String>
    /// The waiting request, and whether ``end()`` was called.
    private let held = Mutex<(waiting: CheckedContinuation<Void, Never>?, ended: Bool)>((nil, false))

    init(_ events: EventRecorder<String>) { self.events = events }

    func currentWeather(at coordinate: Coordinate) async throws(WeatherError) -> Weather {
        events.append("started")
        await withTaskCancellationHandler {
            await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
                let ended = held.withLock { h in
                    if !h.ended { h.waiting = c }
                    return h.ended
                }
                if ended { c.resume() }
            }
        } onCancel: {
            events.append("cancel asked")
        }
        events.append("ended")
        throw .cancelled
    }

    /// Lets the request end.
    func end() {
        let waiting = held.withLock { h in
            h.ended = true
            defer { h.waiting = nil }
            return h.waiting
        }
        waiting?.resume()
    }
}
