#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WundercastModel

/// The work of one authorization status: turns the positions its feed delivers into weather
/// fetches, one at a time, as the ``RefreshStateMachine`` decides, and publishes what
/// happens into the ``StateStore``.
///
/// All events — updates from the feed, the end of a fetch, the timer — go through one inbox
/// and are handled in order by ``run(_:)``, so no two handlers race. A fetch that the
/// machine supersedes is cancelled and the next one starts at once; a superseded result is
/// never published (the machine knows the fetch that is current). One provider request at a
/// time is the ``ProviderQueue``'s rule alone: the new fetch waits there for the cancelled one.
///
/// Cancellation: cancelling the task of ``run(_:)`` ends the feed, cancels the fetch in
/// flight and the timer, waits for the fetch to end, and tells the machine the session ended.
/// That wait is not the one-at-a-time rule but "nothing of a session outlives it": a reload
/// that makes a new provider queue starts its first request only after the old session's has
/// ended (the cache answers a cancelled last waiter once its request has ended), and shutdown
/// leaves no request behind.
struct RefreshSession<C: Clock>: Sendable where C.Duration == Swift.Duration {
    enum Event: Sendable {
        /// A fix or a condition from the location updates.
        case update(FixSourceEvent)
        /// A position that is not a GPS fix (the fallback place).
        case position(Position)
        /// Fetch `id` ended.
        case fetched(id: Int, Result<CachedWeather, WeatherError>)
        /// The timer reached the deadline it was set for.
        case tick
        /// A reader asked for fresh weather (``WeatherService/refresh()``): the session tells the
        /// machine; the machine is ticked and the position's age checked at this instant.
        case refresh
        /// The world came back (``WeatherService/wake(_:asleepFor:)``, the oldest of the
        /// service's pending wakes): the session tells the machine and answers the caller; when
        /// that leads to something, as ``refresh``.
        case wake
        /// The watchdog's liveness probe (``WeatherService/probeLiveness()``).
        /// Answered with its number (``Heartbeat/answer(_:)``).
        case probe(UInt64)
    }

    let service: WeatherService<C>
    /// Whether the position can age (GPS) or not (the fallback place).
    let tracksFixAge: Bool

    private var store: StateStore { service.store }
    private var clock: C { service.clock }

    /// Runs `feed` (which yields into the inbox) and handles events until cancelled.
    func run(_ feed: @escaping @Sendable (AsyncStream<Event>.Continuation) async -> Void) async {
        let (inbox, sink) = AsyncStream<Event>.makeStream()
        service.sessionInbox.withLock { $0.inbox = sink }
        defer {
            let wakes = service.sessionInbox.withLock { s in
                s.inbox = nil
                // A `refresh` the session did not get to: the machine keeps it for the next one.
                if s.refreshRequested { service.machine.withLock { $0.requestRefresh() } }
                s.refreshRequested = false
                defer { s.wakes = [] }
                return s.wakes
            }
            // Wakes the session did not get to: the machine takes them, as with no session.
            for wake in wakes { service.wokenWithoutSession(wake) }
            // A probe left in the inbox: the session ended, it did not hang.
            service.heartbeat.answerAll()
        }
        // The feed, the fetch and the timer are child tasks of this group: when it returns, the
        // fetch in flight has ended (nothing of the session outlives it).
        await withDiscardingTaskGroup { group in
            group.addTask { await feed(sink) }
            await handle(inbox, sink, &group)
            group.cancelAll()
        }
        service.machine.withLock { $0.endSession() }
    }

    private func handle(
        _ inbox: AsyncStream<Event>, _ sink: AsyncStream<Event>.Continuation, _ group: inout DiscardingTaskGroup
    ) async {
        var fetch: (id: Int, task: CancellableChild)?
        var timer: (deadline: C.Instant, task: CancellableChild)?
        // The fix age is the session's while it runs (parked in the service between sessions).
        var fixAge = service.fixAge.withLock { $0 }
        defer { service.fixAge.withLock { [fixAge] in $0 = fixAge } }
        var currency = FixCurrency(current: tracksFixAge && service.locationProblem(fixAge, at: clock.now) == nil)
        // Whether the machine moves: the session's alone, like the fix age (a new status starts anew).
        var motion = MotionTracker<C.Instant>()
        for await event in inbox {
            if case .probe(let number) = event {
                service.heartbeat.answer(number)
                continue
            }
            if case .refresh = event, service.wedgeOnRefresh.load(ordering: .relaxed) {
                await waitUntilCancelled()  // test hook: a loop that handles nothing more
                break
            }
            let now = clock.now
            // A fix is as old as its receipt, whenever it is shown.
            let received: Position? =
                if case .update(.fix(let fix)) = event {
                    Position(fix, receivedAt: service.wallClock(), receivedUptime: service.uptime?())
                } else { nil }
            var action: RefreshStateMachine<C.Instant>.Action?
            switch event {
            case .update(.fix):
                guard let received, let at = received.receivedAt else { break }
                fixAge.fix(at: now)
                store.noteFix(at: at, uptime: received.receivedUptime)
                if case .gps(let fix) = received.source {
                    motion.fix(speed: fix.speed, track: fix.track, at: now)
                    store.publishMotion(motion.reading?.published(in: service.settings.units))
                }
                action = service.machine.withLock { $0.offer(received, at: now) }
            case .update(.condition(let condition)):
                fixAge.condition(condition)
            case .position(let position):
                action = service.machine.withLock { $0.offer(position, at: now) }
            case .fetched(let id, let result):
                if fetch?.id == id { fetch = nil }
                action = finish(id, result, at: now)
            case .tick:
                timer = nil
                action = service.machine.withLock { $0.tick(at: now) }
            case .refresh:
                let requested = service.sessionInbox.withLock { s in
                    defer { s.refreshRequested = false }
                    return s.refreshRequested
                }
                action = service.machine.withLock { m in
                    if requested { m.requestRefresh() }
                    return m.tick(at: now)
                }
            case .wake:
                let oldest: PendingWake? = service.sessionInbox.withLock { s in
                    s.wakes.isEmpty ? nil : s.wakes.removeFirst()
                }
                guard let pending = oldest else { continue }
                let outcome = service.machine.withLock { $0.wake(pending.reason, at: now) }
                service.answer(pending, outcome)
                // Nothing changed for the machine: nothing to tick or check.
                guard outcome != .nothing || pending.reason.isResume else { continue }
                action = service.machine.withLock { $0.tick(at: now) }
            case .probe:
                break
            }
            if case .fetch(let id, let position, let reason, let cancelling) = action {
                // Not awaited: its end arrives in the inbox as a superseded `.fetched`, and the
                // provider queue holds the new request until the cancelled one has ended.
                if let running = fetch, running.id == cancelling { running.task.cancel() }
                fetch = (id, start(id, position, reason, fixAge, sink, &group))
            }
            if let scheduled = service.machine.withLock({ $0.scheduledPosition }) {
                // A fetch for a new place is scheduled (MinInterval, or the fetch in flight).
                show(scheduled, fetching: true, fixAge)
            } else if let received, store.ownPosition == nil {
                // A place near the last fetched one (after a gate reopened): its weather stands.
                show(received, fetching: false, fixAge)
            }
            // After the position: a first fix must not show "no location" without a reason.
            if tracksFixAge {
                let problem = service.locationProblem(fixAge, at: now)
                store.publishLocationProblem(problem)
                // The fix that made the position current names it (after a reload to another
                // gpsd, the store still shows the old one's place for a moment).
                let fix: Fix? = if case .update(.fix(let fix)) = event { fix } else { nil }
                currency.update(problem).map { service.logFixChange($0, fix: fix) }
            }
            // Only future instants: a deadline that has passed is handled by now, and a timer
            // for it would fire at once, again and again.
            let deadline = [
                service.machine.withLock { $0.deadline },
                tracksFixAge ? fixAge.deadline(after: now) : nil,
            ].compactMap { $0 }.filter { $0 > now }.min()
            if timer?.deadline != deadline {
                timer?.task.cancel()
                timer = deadline.map { ($0, wake(at: $0, sink, &group)) }
            }
        }
        // Nothing of the session outlives it (see the type's documentation): the group of
        // ``run(_:)`` awaits the fetch's end before the machine hears the session ended.
        timer?.task.cancel()
        fetch?.task.cancel()
    }

    /// Starts fetch `id` for `position`; its end arrives in the inbox.
    private func start(
        _ id: Int, _ position: Position, _ reason: RefreshStateMachine<C.Instant>.Reason, _ fixAge: FixAge<C.Instant>,
        _ sink: AsyncStream<Event>.Continuation, _ group: inout DiscardingTaskGroup
    ) -> CancellableChild {
        let rounded = show(position, fetching: true, fixAge)
        let shown = rounded.rounded(toDecimals: service.settings.journalPrecision)
        service.logger.debug("fetching weather for \(shown.latitude),\(shown.longitude) (\(reason))")
        let cache = service.cache
        // The stored answer may be as old as the machine's MaxAge (``ThrottlePolicy`` owns it).
        let maxAge = service.settings.throttle.maxAge
        // The machine decides when; the cache whether that needs the network. A reader's
        // `refresh` asks for new weather, not a stored answer, and so does the retry after a
        // failure: a stored answer would hide that the provider still fails.
        let freshness: WeatherCache.Freshness = reason == .requested || reason == .retry ? .reload : .cached
        return group.addCancellableTask {
            let result: Result<CachedWeather, WeatherError>
            do throws(WeatherError) {
                result = .success(try await cache.weather(at: rounded, maxAge: maxAge, freshness: freshness))
            } catch {
                result = .failure(error)
            }
            sink.yield(.fetched(id: id, result))
        }
    }

    /// Shows `position` unless the same place (rounded) from the same kind of source is shown
    /// already (a state per fix would flood watchers). Returns the rounded coordinate.
    @discardableResult
    private func show(_ position: Position, fetching: Bool, _ fixAge: FixAge<C.Instant>) -> Coordinate {
        let shown = service.shown(position, fetching: fetching)
        let source = WeatherState.Location.Source(position.source)
        // The daemon's own position: a place restored from before the restart is shown anew.
        if let own = store.ownPosition, own.source == source,
            Coordinate(latitude: own.latitude, longitude: own.longitude) == shown.rounded
        {
            return shown.rounded
        }
        // One change with the position's currency: a reader never sees a new place as "last
        // known" for the instant between the two.
        store.publishPosition(
            shown, locationProblem: tracksFixAge ? service.locationProblem(fixAge, at: clock.now) : nil)
        return shown.rounded
    }

    /// Fetch `id` ended: tells the machine and publishes the result unless it was superseded.
    private func finish(
        _ id: Int, _ result: Result<CachedWeather, WeatherError>, at now: C.Instant
    )
        -> RefreshStateMachine<C.Instant>.Action?
    {
        let outcome: RefreshStateMachine<C.Instant>.Outcome =
            switch result {
            case .success: .success
            case .failure(let error): .failure(error)
            }
        let wall = service.wallClock()
        // A stored or joined answer is as old as its request: MaxAge counts from there.
        let requestedAt = (try? result.get()).map { now.advanced(by: .zero - $0.age) }
        let (current, action, deadline) = service.machine.withLock { m in
            let current = m.fetchEnded(id: id, outcome, at: now, wallNow: wall, requestedAt: requestedAt)
            return (current, m.tick(at: now), m.deadline)
        }
        guard current else { return action }
        switch result {
        case .success(let answer):
            // A stored answer keeps the time it was fetched: ages and staleness stay true.
            store.publishWeather(
                answer.weather, fetchedAt: answer.fetchedAt,
                fetchedUptime: service.uptime.map { $0() - answer.sinceArrival })
            if answer.fromCache { service.logger.debug("weather served from the cache: no request") }
        case .failure(.cancelled):
            break
        case .failure(let error):
            store.publishFailure(error)
            service.logFailure(error, retryIn: deadline.map { now.duration(to: $0) })
        }
        return action
    }

    /// A child task that yields `.tick` at `deadline` unless cancelled first.
    private func wake(
        at deadline: C.Instant, _ sink: AsyncStream<Event>.Continuation, _ group: inout DiscardingTaskGroup
    ) -> CancellableChild {
        let clock = self.clock
        return group.addCancellableTask {
            do {
                try await clock.sleep(until: deadline, tolerance: nil)
                sink.yield(.tick)
            } catch {}
        }
    }
}
