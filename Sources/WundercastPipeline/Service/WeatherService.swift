#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization
import WundercastSupport
import WundercastModel
import WundercastProviders
import WundercastConfiguration

/// Weather for the daemon's own position, according to the authorization status (DESIGN
/// "The location stream"). A service: ``run()`` until cancelled.
///
/// - `authorizedAlways`: the location updates are read for as long as the status holds.
/// - `authorizedWhenInUse`: they are read only while a `watch` reader is connected
///   (``setWatchers(_:)``); with none, a `now` (``requestRefresh(from:)``) takes one current
///   fix (`take(1)`), as often as ``ReaderSessionLimit`` allows.
/// - `denied`: the GPS is never opened; the fallback place is used — shown with the status, in
///   one change, with the weather shown when that stands for it — or the state says why there
///   is no location.
/// - `notDetermined`: nothing is fetched until the status changes.
///
/// Switching is structural (``forEachLatest(_:_:)``): a new status cancels the work of the
/// previous one and waits for it to end — its fetch included — before the new one starts,
/// so no work of an old status publishes under a new one. Within a status, a
/// ``RefreshSession`` turns positions into fetches; the ``RefreshStateMachine`` behind it
/// (throttle, `MaxAge`, retry policy) lives as long as this service.
public final class WeatherService<C: Clock>: Sendable where C.Duration == Swift.Duration {
    /// The settings of the configuration that concern the service.
    public struct Settings: Sendable {
        /// `[Throttle]` MinInterval, MinDistance, MaxAge.
        public var throttle: ThrottlePolicy
        /// `[Location] MaxFixAge=`: a newer fix keeps the position current.
        public var maxFixAge: Duration
        /// `[Weather] Precision=`: decimals of the coordinates sent and published.
        public var precision: Int
        /// `[Location] Fallback=`, used while `denied`.
        public var fallback: FallbackPlace?
        /// The retry policy of the provider.
        public var retry: RetryPolicy
        /// Longest wait for a current fix on a `now` under when-in-use.
        public var currentLocationTimeout: Duration
        /// `[Journal] Precision=`: decimals of positions in log messages.
        public var journalPrecision: Int
        /// How often readers' `now` may open a GPS session under when-in-use.
        public var readerSessions: ReaderSessionLimit<C.Instant>.Limits
        /// The units published (`[Weather] Units=` and its overrides): the machine's speed is in
        /// ``UnitPreferences/otherSpeeds``.
        public var units: UnitPreferences

        public init(
            throttle: ThrottlePolicy, maxFixAge: Duration, precision: Int, fallback: FallbackPlace? = nil,
            retry: RetryPolicy = RetryPolicy(), currentLocationTimeout: Duration = .seconds(30),
            journalPrecision: Int = Configuration.Journal().precision,
            readerSessions: ReaderSessionLimit<C.Instant>.Limits = .init(), units: UnitPreferences = .metric
        ) {
            self.units = units
            self.journalPrecision = journalPrecision
            self.readerSessions = readerSessions
            self.throttle = throttle
            self.maxFixAge = maxFixAge
            self.precision = precision
            self.fallback = fallback
            self.retry = retry
            self.currentLocationTimeout = currentLocationTimeout
        }
    }

    public let locationManager: LocationManager
    public let store: StateStore
    /// Where fetches go: the weather cache shared with the lookups, in front of the provider.
    let cache: WeatherCache
    let clock: C
    let settings: Settings
    let wallClock: @Sendable () -> Date
    /// The daemon's monotonic clock for ages (``Uptime/now()``); `nil`: ages count by `wallClock`.
    let uptime: (@Sendable () -> Duration)?
    let logger: Logger
    let machine: Mutex<RefreshStateMachine<C.Instant>>
    /// How old the newest fix is, parked between sessions: the running session owns it (a
    /// value in its event loop, taken from here when it starts and put back when it ends), so
    /// it has one owner at any moment; like the machine, it outlives a session (a switch
    /// between two statuses that read the GPS does not make the position less current).
    /// Read here only while no session runs: by ``serve(_:)`` before it starts one, and by the
    /// service that continues this one (``continuing(_:sameSource:)``) once this one ended.
    let fixAge: Mutex<FixAge<C.Instant>>
    /// The service this one replaced (a reload), whose fix age it takes over when it starts.
    private let predecessor = Mutex<(service: WeatherService, sameSource: Bool)?>(nil)
    private let inUse = ObservableValue(false)
    /// Where `now` requests go while when-in-use has no watcher; `pending` keeps one that
    /// came under when-in-use before that session was ready for it; `limit` decides which
    /// requests open a GPS session (it outlives the sessions of one status).
    private let requests:
        Mutex<
            (sink: AsyncStream<Void>.Continuation?, pending: Bool, limit: ReaderSessionLimit<C.Instant>)
        >
    /// The inbox of the running location session, for ``refresh()``, ``wake(_:asleepFor:)`` and
    /// the probe; `refreshRequested`: a ``refresh()`` sent to it and not handled yet (the
    /// session takes it when it handles the event, or hands it to the machine when it ends);
    /// `wakes`: the wakes sent to it, oldest first, not handled yet (likewise: one per `.wake`
    /// event; those left when it ends go to the machine then).
    let sessionInbox = Mutex<
        (inbox: AsyncStream<RefreshSession<C>.Event>.Continuation?, refreshRequested: Bool, wakes: [PendingWake])
    >((nil, false, []))
    /// The watchdog's liveness probe, answered by the running session (``probeLiveness()``).
    let heartbeat = Heartbeat()
    /// Test hook (``wedgeOnRefreshForTesting()``): a `refresh` stops the session's event loop.
    let wedgeOnRefresh = Atomic<Bool>(false)

    /// - Parameters:
    ///   - cache: the daemon's ``WeatherCache`` (shared with the lookups; its provider is the
    ///     ``ProviderQueue``). Without one, the service makes its own in front of a
    ///     ``ProviderQueue`` of `provider` (`settings.precision`, ages on `clock`): one provider
    ///     request at a time is the queue's rule, never the service's; with one, `provider` is
    ///     not used.
    ///   - wallClock: the source of `fetchedAt`/`receivedAt` (UTC) and of the time used for a
    ///     provider's daily/hourly limit windows.
    ///   - uptime: the monotonic moments stamped beside `fetchedAt`/`receivedAt`, from which the
    ///     published ages count (the daemon's ``Uptime/now()``; the socket server reads the same);
    ///     `nil`: ages count by `wallClock` (tests that move it).
    public init(
        locationManager: LocationManager, provider: any WeatherProvider, cache: WeatherCache? = nil,
        store: StateStore, clock: C, settings: Settings, wallClock: @escaping @Sendable () -> Date = { Date() },
        uptime: (@Sendable () -> Duration)? = nil, logger: Logger = .discard
    ) {
        self.locationManager = locationManager
        self.cache =
            cache
            ?? WeatherCache(
                provider: ProviderQueue(provider, wallClock: wallClock), precision: settings.precision, clock: clock,
                wallClock: wallClock)
        self.store = store
        self.clock = clock
        self.settings = settings
        self.wallClock = wallClock
        self.uptime = uptime
        self.logger = logger
        self.machine = Mutex(RefreshStateMachine(policy: settings.throttle, retry: settings.retry))
        self.fixAge = Mutex(FixAge(maxFixAge: settings.maxFixAge))
        self.requests = Mutex((nil, false, ReaderSessionLimit(limits: settings.readerSessions)))
    }

    /// Runs until the calling task is cancelled; returns after the work of the current
    /// status has ended (fetch in flight cancelled and awaited, gpsd released).
    public func run() async {
        // The predecessor has ended (the pipeline runner awaits it): its fix age is final.
        let taken = predecessor.withLock { p in
            defer { p = nil }
            return p
        }
        if let (previous, sameSource) = taken {
            let old = previous.fixAge.withLock { $0 }
            fixAge.withLock { $0.continuing(old, sameSource: sameSource) }
        }
        await forEachLatest(locationManager.authorization.values()) { status in
            await self.serve(status)
        }
    }

    /// A reload replaces `previous` with this service (not running yet): the newest fix it saw
    /// stays the newest (``FixAge/continuing(_:sameSource:)``), so a reload does not make the
    /// position look lost for an instant. Taken over when ``run()`` starts, which must be after
    /// `previous`'s ``run()`` returned (its session owns the fix age until then).
    public func continuing(_ previous: WeatherService, sameSource: Bool) {
        predecessor.withLock { $0 = (previous, sameSource) }
    }

    /// The number of `watch` readers changed (when-in-use follows the GPS while there are any).
    public func setWatchers(_ count: Int) {
        inUse.updateIfChanged { $0 = count > 0 }
    }

    /// `refresh`: fetch the weather for the current position again as soon as `MinInterval`
    /// (and, after a failure, the retry policy) allows. With no position yet, the first fix is
    /// fetched at once anyway. Returns at once.
    ///
    /// While a session runs, the request is an event of its inbox, handled in order with the
    /// fixes before it: the session alone touches its machine. With none, the machine (which
    /// outlives the sessions) keeps the request for the next one.
    public func refresh() {
        sessionInbox.withLock { s in
            guard let inbox = s.inbox else {
                machine.withLock { $0.requestRefresh() }
                return
            }
            s.refreshRequested = true
            inbox.yield(.refresh)
        }
    }

    /// A `now` from `user` (a uid) arrived: under when-in-use with no watcher, take one current
    /// fix if ``ReaderSessionLimit`` lets this request open a GPS session (at most one at a
    /// time; one just ended, or the user's or the total limit reached: none). Returns at once
    /// with the decision; `nil` (and nothing done) under any other status or with a watcher.
    @discardableResult
    public func requestRefresh(from user: UInt32) -> ReaderSessionLimit<C.Instant>.Decision? {
        let wanted = locationManager.authorization.value == .authorizedWhenInUse && !inUse.value
        let now = clock.now
        let decision = requests.withLock { r -> ReaderSessionLimit<C.Instant>.Decision? in
            guard wanted || r.sink != nil else { return nil }
            let decision = r.limit.request(user: user, at: now)
            guard decision == .open else { return decision }
            if let sink = r.sink {
                sink.yield()
            } else {
                r.pending = true
            }
            return decision
        }
        if let decision, decision != .open {
            logger.debug("now from uid \(user): no GPS session opened (\(decision))")
        }
        return decision
    }

    private func serve(_ status: AuthorizationStatus) async {
        let fallback: Position? = status == .denied ? fallbackPosition : nil
        // No session runs now (the previous status's has ended): the parked fix age is current,
        // and the machine says whether the fallback place needs a fetch or its weather stands.
        let parked = fixAge.withLock { $0 }
        store.beginStatus(
            status, gate: fallback == nil ? Self.closedGate(status, settings.fallback) : nil,
            locationProblem: status.allows(source: .gpsd) ? locationProblem(parked, at: clock.now) : nil,
            position: fallback.map { place in shown(place, fetching: machine.withLock { $0.wouldFetch(place) }) })
        switch status {
        case .authorizedAlways:
            await session(tracksFixAge: true) { inbox in await self.follow(into: inbox) }
        case .authorizedWhenInUse:
            await session(tracksFixAge: true) { inbox in
                await forEachLatest(self.inUse.values()) { using in
                    if using {
                        await self.follow(into: inbox)
                    } else {
                        await self.takeFirstOnRequest(into: inbox)
                    }
                }
            }
        case .denied:
            guard let fallback else { return }
            await session(tracksFixAge: false) { inbox in
                inbox.yield(.position(fallback))
                await waitUntilCancelled()
            }
        case .notDetermined:
            return
        }
    }

    /// The `Fallback=` place as a position (with its name when given as one), or `nil` when it
    /// has no coordinate (none configured, or a name not resolved).
    var fallbackPosition: Position? {
        guard let coordinate = settings.fallback?.coordinate else { return nil }
        let name: String? = if case .resolved(let name, _) = settings.fallback { name } else { nil }
        return Position(coordinate: coordinate, source: .fallback(name: name))
    }

    /// `position` as the state shows it: rounded to `Precision=`, received when it says (a fix)
    /// or now (the fallback place, taken into use).
    func shown(_ position: Position, fetching: Bool) -> StateStore.Shown {
        let taken = position.receivedAt == nil
        return StateStore.Shown(
            position, rounded: position.coordinate.rounded(toDecimals: settings.precision),
            receivedAt: position.receivedAt ?? wallClock(),
            receivedUptime: taken ? uptime?() : position.receivedUptime, fetching: fetching)
    }

    /// Why no position can be had under `status`, or `nil` when one can.
    static func closedGate(_ status: AuthorizationStatus, _ fallback: FallbackPlace?) -> WeatherState.ErrorInfo? {
        switch status {
        case .authorizedAlways, .authorizedWhenInUse:
            return nil
        case .denied:
            if case .name(let name) = fallback {
                return .init(
                    .fallbackName,
                    message:
                        "Fallback=\(UntrustedText.sanitized(name, limit: 60)) could not be resolved to a place at start-up (see the log); give LAT,LON or check [Places]"
                )
            }
            return .init(.denied, message: "GPS use is denied and no Fallback= place is configured")
        case .notDetermined:
            return .init(
                .notDetermined,
                message: "GPS use not decided yet: run 'wundercastctl authorize always|when-in-use|denied'")
        }
    }

    /// Reads the shared location updates into the session until cancelled.
    private func follow(into inbox: AsyncStream<RefreshSession<C>.Event>.Continuation) async {
        await locationManager.reading { updates in
            for await update in updates {
                inbox.yield(.update(update))
            }
        }
    }

    /// Waits for `now` requests and takes one current fix for each (when-in-use, nobody watching).
    private func takeFirstOnRequest(into inbox: AsyncStream<RefreshSession<C>.Event>.Continuation) async {
        let (asked, sink) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        requests.withLock { r in
            r.sink = sink
            if r.pending { sink.yield() }
            r.pending = false
        }
        defer {
            let now = clock.now
            requests.withLock { r in
                r.sink = nil
                r.pending = false
                r.limit.ended(at: now)
            }
        }
        for await _ in asked {
            let taken: Result<Fix, LocationManager.LocationError>
            do throws(LocationManager.LocationError) {
                taken = .success(
                    try await locationManager.currentLocation(timeout: settings.currentLocationTimeout, clock: clock))
            } catch {
                taken = .failure(error)
            }
            // The session has ended (the GPS is released) before its fix is handled.
            let now = clock.now
            requests.withLock { $0.limit.ended(at: now) }
            switch taken {
            case .success(let fix): inbox.yield(.update(.fix(fix)))
            case .failure(let error): logger.debug("current location: \(error)")
            }
        }
    }

    private func session(
        tracksFixAge: Bool,
        _ feed: @escaping @Sendable (AsyncStream<RefreshSession<C>.Event>.Continuation) async -> Void
    ) async {
        let session = RefreshSession(service: self, tracksFixAge: tracksFixAge)
        await session.run(feed)
    }

    /// The state's `error` for why the GPS position is not current at `now` by `fixAge`, or `nil`.
    func locationProblem(_ fixAge: FixAge<C.Instant>, at now: C.Instant) -> WeatherState.ErrorInfo? {
        switch fixAge.problem(at: now) {
        case nil:
            return nil
        case .unreachable(let reason):
            return .init(.gpsdUnreachable, message: reason)
        case .deviceGone(let path):
            return .init(.deviceGone, message: "gpsd reports the GPS receiver \(path) gone")
        case .noFix(never: true):
            return .init(.noFix, message: "no GPS fix yet")
        case .noFix(never: false):
            return .init(
                .noFix, message: "no GPS fix for more than \(TimeSpan.format(settings.maxFixAge))")
        }
    }
}
