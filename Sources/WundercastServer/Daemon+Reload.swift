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
        let before = running.withLock { $0 }
        let old = before.configuration
        var next = fresh
        if case .resolved(let name, _) = old.location.fallback, fresh.location.fallback == .name(name) {
            next.location.fallback = old.location.fallback  // resolved at start-up or at the last reload
        }
        // Everything that can fail comes first: a rejected reload changes nothing.
        var weather = before.weather
        let parts = Daemon.reloadParts(from: old, to: next)
        let newWeather = parts.contains(.weather)
        if newWeather {
            let places =
                next.places == old.places && next.weather.timeout == old.weather.timeout
                ? before.weather.places : Daemon.placeFinder(next, loop: reactor, logger: unredacted)
            do {
                let provider = try Daemon.makeProvider(next, loop: reactor, places: places, logger: unredacted)
                weather = Daemon.WeatherSide(
                    next, provider: provider, places: places, logger: unredacted.redacting(provider.secrets))
            } catch {
                return rejected("\(error)")
            }
        }
        if case .name = next.location.fallback {
            next = await Daemon.resolvingFallback(next, places: weather.places, logger: weather.logger)
        }

        var applied: [String] = []
        if fresh.location.authorization != before.loaded.location.authorization {
            _ = await decisions.decide(fresh.location.authorization, persist: false)
        }
        if newWeather {
            applied.append("a new \(weather.queue.name) provider and weather cache")
            store.changeProvider(weather.queue.name)
        }
        if parts.contains(.pipeline) {
            applied.append(
                next.location.gpsdHost != old.location.gpsdHost || next.location.gpsdPort != old.location.gpsdPort
                    ? "reconnecting to gpsd at \(next.location.gpsdHost):\(next.location.gpsdPort)"
                    : "the location pipeline restarted")
            let pipeline = Daemon.Pipeline(
                next, weather: weather, authorization: authorization, store: store, health: health, loop: reactor)
            pipeline.service.continuing(
                pipelines.current.service,
                sameSource: next.location.gpsdHost == old.location.gpsdHost
                    && next.location.gpsdPort == old.location.gpsdPort)
            pipelines.replace(with: pipeline)
        }
        var restartNeeded = false
        var viewer = before.viewer
        var journalViewer = before.journalViewer
        if newWeather || parts.contains(.journal) {
            journalViewer = StateViewer(publicPrecision: next.journal.precision, places: weather.places)
        }
        if parts.contains(.socket) || next.socket.path != old.socket.path {
            if parts.contains(.socket) { applied.append("socket settings for the connections that follow") }
            server.update(socketSettings(next))
            if let ownedPath, next.socket.mode != old.socket.mode {
                do {
                    try FileStatus.setMode(next.socket.mode, of: ownedPath)
                } catch {
                    logger.warning(
                        "cannot change the mode of \(ownedPath) to \(String(next.socket.mode, radix: 8)): \(error)")
                }
            }
            if next.socket.path != old.socket.path, ownedPath != nil, options.socketPath == nil {
                restartNeeded = true
                applied.append("[Socket] Path= takes effect after a restart (still serving on \(old.socket.path))")
            }
        }
        // Views with the new city table or the new public precision.
        if newWeather || next.socket.publicPrecision != old.socket.publicPrecision {
            viewer = StateViewer(publicPrecision: next.socket.publicPrecision, places: weather.places)
        }
        if next.cache != old.cache {
            restartNeeded = true
            applied.append("[Cache] takes effect after a restart")
        }
        health.configure(gpsdServer: "\(next.location.gpsdHost):\(next.location.gpsdPort)")
        running.withLock {
            $0 = Running(
                configuration: next, loaded: fresh, weather: weather, viewer: viewer, journalViewer: journalViewer)
        }
        // What changed, key by key, as written in the files.
        let changed = fresh.changedKeys(from: before.loaded)
        let summary =
            changed.isEmpty
            ? "nothing changed"
            : "changed " + changed.joined(separator: ", ")
                + (applied.isEmpty ? "" : "; " + applied.joined(separator: "; "))
        logger.log(
            applied.isEmpty ? .info : .notice, "configuration reloaded: \(summary)",
            fields: [
                ("MESSAGE_ID", MessageID.configurationReloaded),
                ("WUNDERCAST_RESTART_NEEDED", restartNeeded ? "yes" : "no"),
            ])
        return ("configuration reloaded", true)
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
}
