#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WundercastSupport
import WundercastModel
import WundercastProviders
import WundercastConfiguration
import WundercastPipeline
import WundercastHTTP
import WundercastPOSIX

extension Daemon {
    /// The alerts service `[Alerts]` describes, asking through libcurl on `loop` (the reactor)
    /// with `Expires` and `If-Modified-Since` honoured; `nil` when no source can be used.
    /// MetAlerts is left out without `[Weather] Contact=` (MET Norway's terms ask every client to
    /// identify itself), and that is logged.
    static func makeAlerts(
        _ configuration: Configuration, places: PlaceFinder, store: StateStore, loop: EventLoop, logger: Logger
    ) -> AlertsService<ContinuousClock>? {
        let settings = configuration.alerts
        var sources = settings.sources
        if sources.contains(.metAlerts), configuration.weather.contact == nil {
            sources.remove(.metAlerts)
            logger.notice(
                "[Alerts] metalerts is not asked without [Weather] Contact= (MET Norway's terms): no alerts in Norway")
        }
        guard !sources.isEmpty else { return nil }
        let contact = configuration.weather.contact
        let curl = CurlHTTPClient(
            userAgent: contact.map { MetNorwayProvider.userAgent(contact: $0) } ?? Wundercast.userAgent, loop: loop,
            connectTimeout: min(Duration.seconds(5), configuration.weather.timeout),
            timeout: configuration.weather.timeout)
        let fetcher = AlertFetcher(
            urls: settings.urls, http: ConditionalHTTPClient(http: curl, clock: ContinuousClock(), logger: logger))
        return AlertsService(
            store: store,
            settings: .init(
                sources: sources, interval: settings.interval, minInterval: configuration.throttle.minInterval,
                retry: TestHooks.alertsRetry(settings.interval)),
            fetch: { source, point throws(WeatherError) in try await fetcher.fetch(source, at: point) },
            country: { AlertRouting.country(of: places.nearest($0)) }, clock: ContinuousClock(), logger: logger)
    }
}
