#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WundercastConfiguration
import WundercastPOSIX
import WundercastSupport
import WundercastSystemd

extension Daemon.Instance {
    /// SIGHUP: reads the configuration again and applies every key that can change while the
    /// daemon runs, between `RELOADING=1` and `READY=1`, restarting only what depends on it:
    ///
    /// - `Authorization=`: at once (as `wundercastctl authorize`, not saved);
    /// - `[Weather]`, `[Places]`, `MaxAge=`, `LookupsPerMinute=`: a new provider, city table,
    ///   weather cache and lookups (the new provider's weather is fetched at once);
    /// - the rest of `[Location]` and `[Throttle]`, `Precision=`: a new pipeline (a new `GPSD=`
    ///   reconnects; the old pipeline's work ends before the new one starts);
    /// - `[Socket]` limits, `PreciseGroup=`, `PublicPrecision=`, `Mode=` (of a socket the daemon
    ///   bound): in place, for the requests and connections that follow.
    ///
    /// `[Socket] Path=` and `[Cache]` need a restart (said in the log). A file that does not load, or a
    /// provider that cannot be set up (a bad key file), is rejected with a logged error and
    /// the running configuration stays whole.
    ///
    /// The configuration source (``ConfigurationSource/reload(to:parts:)``) runs it, over the
    /// parts of ``configurationParts(server:ownedPath:)``.
    func reload(server: SocketServer, ownedPath: String?) async {
        _ = try? notifier.reloading()
        let (status, _) = await apply(server: server, ownedPath: ownedPath)
        // STATUS= stays the weather (the journal says what the reload did).
        _ = try? notifier.ready(status: statusLine().map { status + "; " + $0 } ?? status)
    }

    /// Reloads; returns the `STATUS=` text and whether the new configuration was taken.
    @discardableResult
    func apply(server: SocketServer, ownedPath: String?) async -> (status: String, applied: Bool) {
        let fresh: Configuration
        do {
            fresh = try Daemon.loadConfiguration(options)
        } catch {
            // One entry: every error, separated by "; ".
            return rejected(error.errors.map(\.description).joined(separator: "; "))
        }
        let summary: ConfigurationSource.Summary
        do {
            summary = try await source.reload(
                to: fresh, parts: configurationParts(server: server, ownedPath: ownedPath))
        } catch {
            return rejected(error.reason)
        }
        // The MQTT password (and TLS files) are read again on each SIGHUP, not only when a key
        // changed: a rotated password takes effect (a new setup restarts the publisher).
        refreshFleet()
        // What changed, key by key, as written in the files.
        logger.log(
            summary.applied.isEmpty ? .info : .notice, "configuration reloaded: \(summary.text)",
            fields: [
                ("MESSAGE_ID", MessageID.configurationReloaded),
                ("WUNDERCAST_RESTART_NEEDED", summary.restartNeeded ? "yes" : "no"),
            ])
        return ("configuration reloaded", true)
    }

    /// The parts a reload changes, in the order they prepare and commit (the one place that
    /// order lives): the authorization first, the weather side before the pipeline and the views
    /// over it, then the socket, the keys that need a restart and health's gpsd server.
    func configurationParts(server: SocketServer, ownedPath: String?) -> [any ConfigurationPart] {
        [
            Daemon.AuthorizationPart(decisions: decisions),
            Daemon.WeatherPart(reactor: reactor, unredacted: unredacted, store: store),
            Daemon.PipelinePart(
                reactor: reactor, authorization: authorization, store: store, health: health, pipelines: pipelines),
            Daemon.ViewersPart(),
            Daemon.SocketPart(
                server: server, ownedPath: ownedPath, pathFromCommandLine: options.socketPath != nil,
                settings: { [self] in socketSettings($0) }, logger: logger),
            Daemon.RestartPart(inForce: startupCache),
            Daemon.FleetPart(
                fleet: fleet,
                make: { [self] setup, configuration, weather in
                    fleetPublisher(setup, configuration: configuration, weather: weather)
                }),
            Daemon.HealthPart(health: health),
        ]
    }

    /// The `STATUS=` line of the state now, as the publisher sends it on a change (positions at
    /// `[Journal] Precision=`, the weather's clock time); `nil` while there is no weather.
    func statusLine() -> String? {
        let state = journalViewer.views(store.current).public
        guard state.weather != nil else { return nil }
        return Publisher.statusLine(state, now: Date())
    }

    private func rejected(_ reason: String) -> (status: String, applied: Bool) {
        logger.log(
            .error, "configuration rejected, keeping the running one: \(reason)",
            fields: [("MESSAGE_ID", MessageID.configurationRejected)])
        return ("configuration rejected (see the journal)", false)
    }

    /// `[MQTT]` as in force, resolved again (its password and TLS files read again): the
    /// publisher is replaced only when that changes what it does; a setup that fails now keeps
    /// the running publisher (and says why).
    func refreshFleet() {
        do throws(Daemon.FleetSetupError) {
            let setup = try Daemon.fleetSetup(configuration)
            if fleet.current?.setup != setup {
                fleet.apply(fleetPublisher(setup, configuration: configuration, weather: weather))
                logger.notice("MQTT: the password or TLS files changed; the publisher starts again")
            }
        } catch {
            logger.warning("MQTT: keeping the running publisher: \(error)")
        }
    }
}
