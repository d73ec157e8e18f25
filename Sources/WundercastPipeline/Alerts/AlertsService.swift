#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization
import WundercastSupport
import WundercastModel

/// Official alerts for the daemon's position (issue 17, README "Alerts"). A service: ``run()``
/// until cancelled. It reads the published state (the position and its nearest city's country),
/// asks the source that covers it (``AlertRouting``) through `fetch`, keeps what is in force in
/// an ``AlertBook``, journals each alert issued, updated and ended, and publishes
/// ``AlertsState`` into the ``StateStore`` (which owns the state).
///
/// Its own timer, apart from the weather's (a failing source never delays a weather fetch):
/// - a new position is asked for as soon as `[Throttle] MinInterval=` since the last request
///   allows;
/// - while the position is current, again every `[Alerts] Interval=`; and ``Settings/beforeExpiry``
///   before the first `expires` of the alerts in force (no sooner than MinInterval after the last
///   request), so that an alert extended by its authority does not drop out and come back;
/// - an alert drops out at its `expires`, asked again or not;
/// - a failed request is tried again after the back-off (doubling from ``Settings/retry``'s
///   initial delay up to `Interval=`), or the source's `Retry-After` when longer; meanwhile the
///   state says `unavailable`, with the alerts known before that are still in force.
///
/// One request at a time: each position's work ends (its request cancelled) before the next
/// position's starts (``forEachLatest(_:_:)``).
public final class AlertsService<C: Clock>: Sendable where C.Duration == Swift.Duration {
    public struct Settings: Sendable, Equatable {
        /// `[Alerts] Sources=` (not empty: with none the daemon runs no alerts service).
        public var sources: Set<AlertSourceID>
        /// `[Alerts] Interval=`.
        public var interval: Duration
        /// `[Throttle] MinInterval=`: the least time between two requests.
        public var minInterval: Duration
        /// How long before the first `expires` in force the source is asked again. 2 min.
        public var beforeExpiry: Duration
        /// The back-off after a failed request (its maximum is at most ``interval``).
        public var retry: Backoff

        public init(
            sources: Set<AlertSourceID>, interval: Duration, minInterval: Duration,
            beforeExpiry: Duration = .seconds(120), retry: Backoff? = nil
        ) {
            self.sources = sources
            self.interval = interval
            self.minInterval = minInterval
            self.beforeExpiry = beforeExpiry
            self.retry = retry ?? Backoff(initial: .seconds(60), maximum: interval)
        }
    }

    /// Asks `source` for the alerts in force at `coordinate` (already rounded to `[Weather]
    /// Precision=`): the decoded list, or the failure. Honours task cancellation
    /// (``WundercastModel/WeatherError/cancelled``).
    public typealias Fetch = @Sendable (AlertSourceID, Coordinate) async throws(WeatherError) -> [Alert]

    /// What the service works for: no position or no source for it, or a source and a
    /// position (current or only the last known one, which is not asked for again).
    enum Target: Sendable, Equatable {
        case uncovered
        case position(AlertSourceID, Coordinate, current: Bool)
    }

    /// What outlives one position's work (owned by the one running ``serve(_:)``).
    struct Memory {
        var source: AlertSourceID?
        /// The position asked for last.
        var coordinate: Coordinate?
        /// The position the alerts in force were answered for.
        var answeredFor: Coordinate?
        /// The position the state is for now.
        var position: Coordinate?
        var book = AlertBook()
        var lastRequest: C.Instant?
        var lastAnswer: Date?
        var failures = 0
        var retryAt: C.Instant?
        /// The failure last logged at warning level (each new one is logged once).
        var loggedFailure: String?
    }

    let store: StateStore
    let fetch: Fetch
    /// The country of a coordinate's nearest city (``PlaceFinder/nearest``), ISO 3166-1 alpha-2.
    let country: @Sendable (Coordinate) -> String?
    let clock: C
    let wallClock: @Sendable () -> Date
    let logger: Logger
    public let settings: Settings
    let memory = Mutex(Memory())

    public init(
        store: StateStore, settings: Settings, fetch: @escaping Fetch,
        country: @escaping @Sendable (Coordinate) -> String?, clock: C,
        wallClock: @escaping @Sendable () -> Date = { Date() }, logger: Logger
    ) {
        self.store = store
        self.country = country
        self.settings = settings
        self.fetch = fetch
        self.clock = clock
        self.wallClock = wallClock
        self.logger = logger
    }

    /// Takes over what `previous` (the service a reload replaces) knew — the alerts in force,
    /// the last request's time, a back-off or `Retry-After` under way — so that a reload neither
    /// asks the source again at once nor forgets a wait it was asked for. Call before ``run()``.
    public func continuing(_ previous: AlertsService<C>?) {
        guard let previous else { return }
        let known = previous.memory.withLock { $0 }
        memory.withLock { $0 = known }
    }

    /// Follows the published position until cancelled; then leaves the state's `alerts` as
    /// they are (a replacing service takes over from there).
    public func run() async {
        let (targets, continuation) = AsyncStream.makeStream(of: Target.self, bufferingPolicy: .bufferingNewest(1))
        await withDiscardingTaskGroup { group in
            group.addTask { [self] in
                var last: Target?
                for await state in store.states() {
                    let target = Self.target(of: state, among: settings.sources, country: country)
                    if target != last {
                        last = target
                        continuation.yield(target)
                    }
                }
                continuation.finish()
            }
            group.addTask { [self] in
                await forEachLatest(targets) { [self] target in await serve(target) }
            }
        }
    }

    /// The target of a published state: its position (current or last known) and the source
    /// that covers its nearest city's country.
    static func target(
        of state: WeatherState, among sources: Set<AlertSourceID>, country: (Coordinate) -> String?
    ) -> Target {
        guard let location = state.location else { return .uncovered }
        let coordinate = Coordinate(latitude: location.latitude, longitude: location.longitude)
        guard let source = AlertRouting.source(forCountry: country(coordinate), among: sources) else {
            return .uncovered
        }
        return .position(source, coordinate, current: location.status == .current)
    }

    // MARK: - One target's work

    func serve(_ target: Target) async {
        guard case .position(let source, let coordinate, let current) = target else {
            // What is known stays (a position jittering across a border must not make the
            // source be asked again at once when it comes back): only the state says uncovered.
            store.publishAlerts(.uncovered)
            return await waitUntilCancelled()
        }
        let first = memory.withLock { memory in
            defer { memory.position = coordinate }
            guard memory.source != source else { return false }
            // Another source: its alerts and back-off are its own; the last request's time
            // stays (MinInterval holds across sources).
            memory = Memory(source: source, lastRequest: memory.lastRequest)
            return true
        }
        if first {
            store.publishAlerts(
                AlertsState(
                    source: source, status: .unavailable,
                    error: .init(code: AlertsState.unavailableCode, message: "\(source.rawValue): not asked yet")))
        } else {
            // Back from uncovered (or a reload): what the source last said, until it is asked.
            store.publishAlerts(memory.withLock { Self.published($0, failure: $0.loggedFailure) })
        }
        while !Task.isCancelled {
            expire()
            let now = clock.now
            let due = current ? dueInstant(for: coordinate, now: now) : nil
            if let due, due <= now {
                await ask(source, at: coordinate)
                continue
            }
            var wake = due
            if let expiry = memory.withLock({ $0.book.nextExpiry }) {
                let at = now.advanced(by: .seconds(max(0, expiry.timeIntervalSince(wallClock()))))
                wake = wake.map { min($0, at) } ?? at
            }
            guard let wake else { return await waitUntilCancelled() }
            do { try await clock.sleep(until: wake, tolerance: nil) } catch { return }
        }
    }

    /// When the next request for `coordinate` is due (see the type's rules).
    func dueInstant(for coordinate: Coordinate, now: C.Instant) -> C.Instant {
        memory.withLock { m in
            guard let last = m.lastRequest else { return m.retryAt ?? now }
            // After a failure: the back-off decides (a new position does not cut it short).
            if let retryAt = m.retryAt { return retryAt }
            let earliest = last.advanced(by: settings.minInterval)
            var due: C.Instant
            if m.coordinate != coordinate {
                due = earliest
            } else {
                due = last.advanced(by: settings.interval)
                // Once before the first expiry (not again once asked after that moment).
                if let expiry = m.book.nextExpiry {
                    let before = now.advanced(
                        by: .seconds(expiry.timeIntervalSince(wallClock())) - settings.beforeExpiry)
                    if last < before { due = min(due, max(before, earliest)) }
                }
            }
            return due
        }
    }

    /// Drops the alerts whose `expires` passed, and publishes when any did.
    func expire() {
        let (events, state) = memory.withLock { m in
            let events = m.book.expire(at: wallClock())
            return (events, events.isEmpty ? nil : Self.published(m))
        }
        journal(events)
        if let state { store.publishAlerts(state) }
    }

    /// One request to `source`; its answer goes into the book, its failure into the back-off.
    func ask(_ source: AlertSourceID, at coordinate: Coordinate) async {
        memory.withLock {
            $0.lastRequest = clock.now
            $0.coordinate = coordinate
        }
        let result: Result<[Alert], WeatherError>
        do throws(WeatherError) {
            result = .success(try await fetch(source, coordinate))
        } catch {
            result = .failure(error)
        }
        if Task.isCancelled { return }
        switch result {
        case .success(let alerts):
            let (events, state, recovered) = memory.withLock { m in
                let events = m.book.answered(alerts, at: wallClock())
                let recovered = m.loggedFailure != nil
                m.failures = 0
                m.retryAt = nil
                m.loggedFailure = nil
                m.lastAnswer = wallClock()
                m.answeredFor = coordinate
                return (events, Self.published(m), recovered)
            }
            if recovered { logger.info("alerts: \(source.rawValue) answers again") }
            journal(events)
            store.publishAlerts(state)
        case .failure(.cancelled):
            return
        case .failure(let error):
            let message = "\(source.rawValue): \(error.message)"
            let (delay, state, log) = memory.withLock { m in
                m.failures += 1
                var delay = settings.retry.delay(attempt: m.failures)
                if let after = Self.retryAfter(error) { delay = max(delay, after) }
                // Never sooner than MinInterval after the request that failed.
                delay = max(delay, settings.minInterval)
                m.retryAt = clock.now.advanced(by: delay)
                let log = m.loggedFailure != message
                m.loggedFailure = message
                return (delay, Self.published(m, failure: message), log)
            }
            logger.log(
                log ? .warning : .debug,
                "alerts unavailable from \(message); asking again in \(TimeSpan.format(delay))",
                fields: [
                    ("MESSAGE_ID", MessageID.alertsUnavailable), ("WUNDERCAST_ALERT_SOURCE", source.rawValue),
                    ("WUNDERCAST_ERROR_CODE", error.code),
                ])
            store.publishAlerts(state)
        }
    }

    /// The longest `Retry-After` honoured: 24 h (a larger one, or one that is not a number of
    /// seconds at all, waits that long), as for the weather.
    static var longestRetryAfter: Duration { .seconds(86_400) }

    /// The `Retry-After` an answer asked for, when it did, at most ``longestRetryAfter``.
    static func retryAfter(_ error: WeatherError) -> Duration? {
        let seconds: Double
        switch error {
        case .http(_, _, let after?), .limited(_, _, _, let after?): seconds = after
        default: return nil
        }
        guard seconds.isFinite, seconds < 86_400 else { return longestRetryAfter }
        return .seconds(max(0, seconds))
    }

    /// How far the position may be from the one the alerts were answered for and still be
    /// shown their alerts (an authority's areas are counties and forecast zones): 5 km. Farther,
    /// the state says the new position is not answered yet, with no alert, until its answer.
    static var carryOver: Double { 5_000 }

    /// The state of `m`: `ok` with the book, or `unavailable` with `failure` and what is known —
    /// or, when the position is more than ``carryOver`` from the one the book was answered for,
    /// `unavailable` without its alerts (they are another place's).
    static func published(_ m: Memory, failure: String? = nil) -> AlertsState {
        if let answered = m.answeredFor, let position = m.position, answered.distance(to: position) > carryOver {
            let why = failure ?? "\(m.source?.rawValue ?? "?"): not answered for this position yet"
            return AlertsState(
                source: m.source, status: .unavailable,
                error: .init(code: AlertsState.unavailableCode, message: why), fetchedAt: m.lastAnswer)
        }
        let items = m.book.ordered
        guard let failure else {
            return AlertsState(source: m.source, status: .ok, items: items, fetchedAt: m.lastAnswer)
        }
        return AlertsState(
            source: m.source, status: .unavailable, items: items.isEmpty ? nil : items,
            error: .init(code: AlertsState.unavailableCode, message: failure), fetchedAt: m.lastAnswer)
    }
}
