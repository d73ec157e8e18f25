import WundercastSupport
import WundercastAstronomy
import WundercastModel
import WundercastProviders
import WundercastConfiguration
import WundercastPipeline

import WundercastGPSD
import WundercastPOSIX

extension Daemon {
    /// What a configuration makes of `[Weather]`, `[Places]`, `MaxAge=` and `LookupsPerMinute=`:
    /// the city table, the provider behind its one door (``ProviderQueue``), the weather cache
    /// shared by the daemon's own fetches and precise readers' lookups, and the lookups (with
    /// the public readers' cache of their own). A reload that
    /// changes none of these keys keeps it (and its cache); one that does makes a new one.
    final class WeatherSide: Sendable {
        let places: PlaceFinder
        let queue: ProviderQueue
        let cache: WeatherCache
        let lookups: LookupService
        /// The Moon of the state's views, on the clock of the places' time zones.
        let moon: MoonCalendar
        /// The daemon's logger, redacting this provider's secrets (an API key).
        let logger: Logger

        /// - Parameter provider: from ``Daemon/makeProvider(_:loop:places:logger:environment:read:)``
        ///   for the same configuration and `places`; `logger` already redacts its secrets.
        init(_ configuration: Configuration, provider: any WeatherProvider, places: PlaceFinder, logger: Logger) {
            self.places = places
            self.logger = logger
            moon = Daemon.moonCalendar(places)
            queue = ProviderQueue(provider)
            cache = WeatherCache(
                provider: queue, precision: configuration.weather.precision, uptime: Uptime.now, logger: logger)
            // Precise readers' lookups share `cache`; public readers' have a cache of their own.
            lookups = LookupService(
                queue: queue, cache: cache, places: places,
                settings: .init(
                    precision: configuration.weather.precision, maxAge: configuration.throttle.maxAge,
                    lookupsPerMinute: configuration.socket.lookupsPerMinute),
                uptime: Uptime.now, logger: logger)
        }

        /// Whether `a` and `b` make the same weather side (its keys are equal).
        static func same(_ a: Configuration, _ b: Configuration) -> Bool {
            a.weather == b.weather && a.places == b.places && a.throttle.maxAge == b.throttle.maxAge
                && a.socket.lookupsPerMinute == b.socket.lookupsPerMinute
        }
    }

    /// What a configuration makes of `[Location]` and `[Throttle]` on top of a ``WeatherSide``:
    /// the gpsd source, the location manager and the weather service. A reload that changes any
    /// of their keys (or the weather side) replaces it: the old one ends (fetch cancelled and
    /// awaited, gpsd released) before the new one starts.
    final class Pipeline: Sendable {
        let gpsd: GPSDFixSource
        let locationManager: LocationManager
        let service: WeatherService<ContinuousClock>
        /// Official alerts for the position; `nil` with `[Alerts] Sources=none`
        /// (``Daemon/makeAlerts(_:places:store:loop:logger:)``).
        let alerts: AlertsService<ContinuousClock>?
        let store: StateStore

        /// - Parameters:
        ///   - configuration: with `Fallback=` already resolved
        ///     (``Daemon/resolvingFallback(_:places:logger:)``).
        ///   - loop: the daemon's reactor, which gpsd's reader runs on.
        init(
            _ configuration: Configuration, weather: WeatherSide, authorization: ObservableValue<AuthorizationStatus>,
            store: StateStore, health: Health, loop: EventLoop
        ) {
            let location = configuration.location
            gpsd = GPSDFixSource(
                host: location.gpsdHost, port: location.gpsdPort, logger: weather.logger, loop: loop)
            gpsd.onConnectionChange = { event in
                switch event {
                case .connected: health.gpsd(connected: true)
                case .connectFailed, .disconnected, .stopped: health.gpsd(connected: false)
                }
            }
            locationManager = LocationManager(
                source: gpsd, authorization: authorization, maxHorizontalError: location.maxHorizontalError)
            service = WeatherService(
                locationManager: locationManager, provider: weather.queue, cache: weather.cache, store: store,
                clock: ContinuousClock(),
                settings: .init(
                    throttle: ThrottlePolicy(configuration.throttle), maxFixAge: location.maxFixAge,
                    precision: configuration.weather.precision, fallback: location.fallback,
                    retry: TestHooks.retry, journalPrecision: configuration.journal.precision,
                    units: configuration.weather.unitPreferences),
                uptime: Uptime.now, logger: weather.logger)
            self.store = store
            alerts = Daemon.makeAlerts(
                configuration, places: weather.places, store: store, loop: loop, logger: weather.logger)
        }

        /// Runs the alerts service until cancelled; with alerts off, says so in the state once.
        func runAlerts() async {
            guard let alerts else { return store.publishAlerts(nil) }
            await alerts.run()
        }

        /// Whether `a` and `b` make the same pipeline over the same weather side (the
        /// authorization status is not one of its keys: it changes in place).
        static func same(_ a: Configuration, _ b: Configuration) -> Bool {
            var location = a.location
            location.authorization = b.location.authorization
            return location == b.location && a.throttle == b.throttle && a.weather.precision == b.weather.precision
                && a.journal == b.journal && a.alerts == b.alerts && a.weather.contact == b.weather.contact
                && a.weather.timeout == b.weather.timeout
        }
    }
}
