import Synchronization

/// Wires the location stream to the weather pipeline according to the authorization
/// status (DESIGN "The location stream"):
///
/// - `authorizedAlways`: the location stream is read for as long as the service runs.
/// - `authorizedWhenInUse`: it is read only while ``demand`` is above zero (watch readers);
///   ``requestRefresh()`` (a `now` request) takes one current location (`take(1)`) instead.
/// - `denied`: the GPS is never opened; the fallback place is fetched, or the state says
///   there is no location.
/// - `notDetermined`: nothing is fetched until the status changes.
///
/// Every fix passes the ``Throttle`` before it reaches the pipeline. A status change stops
/// whatever the previous status started (`flatMapLatest`).
public final class WeatherService<C: Clock>: Sendable where C.Duration == Swift.Duration {
    public let locationManager: LocationManager
    public let pipeline: WeatherPipeline<C>
    public let throttle: Throttle<C>
    /// Number of readers that use the location now (connected `watch` clients).
    public let demand = ObservableValue<Int>(0)
    let clock: C
    let fallback: FallbackPlace?
    let currentLocationTimeout: Duration
    let logger: Logger
    private let refreshing = Mutex<Task<Void, Never>?>(nil)

    public init(
        locationManager: LocationManager, pipeline: WeatherPipeline<C>, throttle: Throttle<C>, clock: C,
        fallback: FallbackPlace?, currentLocationTimeout: Duration = .seconds(30), logger: Logger = .discard
    ) {
        self.locationManager = locationManager
        self.pipeline = pipeline
        self.throttle = throttle
        self.clock = clock
        self.fallback = fallback
        self.currentLocationTimeout = currentLocationTimeout
        self.logger = logger
    }

    var store: StateStore { pipeline.store }

    /// Runs until the calling task is cancelled.
    public func run() async {
        var current: Task<Void, Never>?
        for await status in locationManager.authorization.values() {
            current?.cancel()
            refreshing.withLock { $0?.cancel() }
            store.publishAuthorization(status)
            current = Task { await self.serve(status) }
        }
        current?.cancel()
        await pipeline.stop()
    }

    /// Asks for fresh weather for the current location when nobody keeps the location
    /// stream open (when-in-use with no watchers). Returns at once; does nothing when a
    /// refresh is already under way or the status is not when-in-use.
    public func requestRefresh() {
        guard locationManager.authorization.value == .authorizedWhenInUse, demand.value == 0 else { return }
        refreshing.withLock { task in
            guard task == nil else { return }
            task = Task {
                defer { self.refreshing.withLock { $0 = nil } }
                do throws(LocationManager.LocationError) {
                    let fix = try await self.locationManager.currentLocation(
                        timeout: self.currentLocationTimeout, clock: self.clock)
                    await self.offer(fix)
                } catch .timedOut(let after) {
                    self.store.publishNoLocation(
                        reason: .init(code: "no-fix", message: "no GPS fix good enough within \(after)"))
                } catch {
                    self.logger.debug("current location: \(error)")
                }
            }
        }
    }

    private func serve(_ status: AuthorizationStatus) async {
        switch status {
        case .authorizedAlways:
            await follow()
        case .authorizedWhenInUse:
            var following: Task<Void, Never>?
            for await readers in demand.values() {
                if readers > 0, following == nil {
                    following = Task { await self.follow() }
                } else if readers == 0, let task = following {
                    task.cancel()
                    following = nil
                }
            }
            following?.cancel()
        case .denied:
            switch fallback {
            case .coordinate(let coordinate):
                await pipeline.submit(Position(coordinate: coordinate, source: .fallback(name: nil)))
            case .name(let name):
                await pipeline.stop()
                store.publishStopped(
                    reason: .init(
                        code: "fallback-name",
                        message: "Fallback=\(name): place names need geocoding, which this version lacks; give LAT,LON")
                )
            case nil:
                await pipeline.stop()
                store.publishStopped(
                    reason: .init(
                        code: "denied", message: "GPS use is denied and no Fallback= place is configured"))
            }
        case .notDetermined:
            await pipeline.stop()
            store.publishStopped(
                reason: .init(
                    code: "not-determined",
                    message: "GPS use not decided yet: run 'wundercastctl authorize always|when-in-use|denied'"))
        }
    }

    /// Reads the shared location stream until cancelled, feeding throttled fixes onward.
    private func follow() async {
        for await fix in locationManager.locations() {
            await offer(fix)
        }
    }

    private func offer(_ fix: Fix) async {
        // The status may have changed while this fix was on its way.
        guard locationManager.authorization.value.isAuthorized, let reason = throttle.admit(fix) else { return }
        logger.debug("fix passed the throttle (\(reason)): \(fix.coordinate.latitude),\(fix.coordinate.longitude)")
        await pipeline.submit(Position(fix))
    }
}
