import WundercastConfiguration
import WundercastModel
import WundercastPOSIX
import WundercastPipeline
import WundercastSupport

extension Daemon {
    /// `Authorization=`: switched at once, as `wundercastctl authorize` does, but not saved (the
    /// file already holds it).
    struct AuthorizationPart: ConfigurationPart {
        let decisions: AuthorizationStore

        static func touches(_ old: Configuration, _ new: Configuration) -> Bool {
            old.location.authorization != new.location.authorization
        }

        func commit(
            _ change: ConfigurationSource.Change, into running: inout ConfigurationSource.Running
        ) async
            -> [ConfigurationSource.Applied]
        {
            _ = await decisions.decide(change.new.location.authorization, persist: false)
            return []
        }
    }

    /// `[Weather]`, `[Places]`, `MaxAge=`, `LookupsPerMinute=` (``WeatherSide/same(_:_:)``): a
    /// new provider, city table (only for new `[Places]` or `Timeout=`), weather cache and lookups.
    struct WeatherPart: ConfigurationPart {
        let reactor: EventLoop
        /// A new provider's logger is made from it (redacting that provider's secrets).
        let unredacted: Logger
        let store: StateStore

        static func touches(_ old: Configuration, _ new: Configuration) -> Bool { !WeatherSide.same(old, new) }

        /// Makes the new weather side.
        ///
        /// - Throws: the provider cannot be set up (a bad key file).
        func prepare(_ change: inout ConfigurationSource.Change) async throws(ConfigurationSource.Rejection) {
            let (old, next) = (change.old, change.new)
            let places =
                next.places == old.places && next.weather.timeout == old.weather.timeout
                ? change.weather.places : Daemon.placeFinder(next, loop: reactor, logger: unredacted)
            do {
                let provider = try Daemon.makeProvider(next, loop: reactor, places: places, logger: unredacted)
                change.weather = WeatherSide(
                    next, provider: provider, places: places, logger: unredacted.redacting(provider.secrets))
            } catch {
                throw ConfigurationSource.Rejection(reason: "\(error)")
            }
        }

        func commit(
            _ change: ConfigurationSource.Change, into running: inout ConfigurationSource.Running
        ) async
            -> [ConfigurationSource.Applied]
        {
            store.changeProvider(change.weather.queue.name)
            running.weather = change.weather
            return [.done("a new \(change.weather.queue.name) provider and weather cache")]
        }
    }

    /// The rest of `[Location]` and `[Throttle]`, `Precision=`, `[Journal]`, and a new weather
    /// side (``Pipeline/same(_:_:)``): a new pipeline; a new `GPSD=` reconnects; the old
    /// pipeline's work ends before the new one starts.
    struct PipelinePart: ConfigurationPart {
        let reactor: EventLoop
        let authorization: ObservableValue<AuthorizationStatus>
        let store: StateStore
        let health: Health
        let pipelines: PipelineRunner

        static func touches(_ old: Configuration, _ new: Configuration) -> Bool {
            WeatherPart.touches(old, new) || !Pipeline.same(old, new)
        }

        func commit(
            _ change: ConfigurationSource.Change, into running: inout ConfigurationSource.Running
        ) async
            -> [ConfigurationSource.Applied]
        {
            let (old, next) = (change.old, change.new)
            let sameSource = !HealthPart.touches(old, next)
            let pipeline = Daemon.Pipeline(
                next, weather: change.weather, authorization: authorization, store: store, health: health,
                loop: reactor)
            pipeline.service.continuing(pipelines.current.service, sameSource: sameSource)
            pipeline.alerts?.continuing(pipelines.current.alerts)
            pipelines.replace(with: pipeline)
            return [
                .done(
                    sameSource
                        ? "the location pipeline restarted"
                        : "reconnecting to gpsd at \(next.location.gpsdHost):\(next.location.gpsdPort)")
            ]
        }
    }

    /// `[Socket] PublicPrecision=`, `[Journal] Precision=` and a new city table: the views of
    /// the state for public readers and for the journal and `STATUS=`.
    struct ViewersPart: ConfigurationPart {
        static func touches(_ old: Configuration, _ new: Configuration) -> Bool {
            WeatherPart.touches(old, new) || old.socket.publicPrecision != new.socket.publicPrecision
                || old.journal != new.journal
        }

        func commit(
            _ change: ConfigurationSource.Change, into running: inout ConfigurationSource.Running
        ) async
            -> [ConfigurationSource.Applied]
        {
            let (old, next) = (change.old, change.new)
            let newPlaces = change.touches(WeatherPart.self)
            if newPlaces || next.journal != old.journal {
                running.journalViewer = StateViewer(
                    publicPrecision: next.journal.precision, places: change.weather.places)
            }
            if newPlaces || next.socket.publicPrecision != old.socket.publicPrecision {
                running.viewer = StateViewer(
                    publicPrecision: next.socket.publicPrecision, places: change.weather.places,
                    moon: change.weather.moon)
            }
            return []
        }
    }

    /// `[Socket]`: limits, `PreciseGroup=`, `PublicPrecision=` in place for the requests and
    /// connections that follow; `Mode=` of a socket the daemon bound; `Path=` of a socket the
    /// daemon bound by its configuration needs a restart.
    struct SocketPart: ConfigurationPart {
        let server: SocketServer
        /// The socket the daemon bound (`nil`: socket-activated).
        let ownedPath: String?
        /// `--socket PATH`: `Path=` does not name the socket.
        let pathFromCommandLine: Bool
        /// ``Daemon/Instance/socketSettings(_:)``.
        let settings: @Sendable (Configuration) -> SocketServer.Settings
        let logger: Logger

        static func touches(_ old: Configuration, _ new: Configuration) -> Bool { old.socket != new.socket }

        func commit(
            _ change: ConfigurationSource.Change, into running: inout ConfigurationSource.Running
        ) async
            -> [ConfigurationSource.Applied]
        {
            let (old, next) = (change.old, change.new)
            var applied: [ConfigurationSource.Applied] = []
            var inPlace = next.socket
            inPlace.path = old.socket.path
            if inPlace != old.socket { applied.append(.done("socket settings for the connections that follow")) }
            server.update(settings(next))
            if let ownedPath, next.socket.mode != old.socket.mode {
                do {
                    try FileStatus.setMode(next.socket.mode, of: ownedPath)
                } catch {
                    logger.warning(
                        "cannot change the mode of \(ownedPath) to \(String(next.socket.mode, radix: 8)): \(error)")
                }
            }
            // Compared with the socket actually bound, not with the last reload's `Path=`: after
            // a change and a change back, the daemon serves where the file says again.
            if let ownedPath, !pathFromCommandLine, next.socket.path != old.socket.path {
                applied.append(
                    next.socket.path == ownedPath
                        ? .done("[Socket] Path= names the socket served (\(ownedPath)) again")
                        : .needsRestart("[Socket] Path= takes effect after a restart (still serving on \(ownedPath))"))
            }
            return applied
        }
    }

    /// `[Cache]`: the kept file is read once, at start; a change takes effect after a restart.
    /// Compared with `[Cache]` as read at start (``inForce``), which stays in force whatever a
    /// reload reads: a change back to it needs no restart.
    struct RestartPart: ConfigurationPart {
        /// `[Cache]` as read at start.
        let inForce: Configuration.CacheSettings

        static func touches(_ old: Configuration, _ new: Configuration) -> Bool { old.cache != new.cache }

        func commit(
            _ change: ConfigurationSource.Change, into running: inout ConfigurationSource.Running
        ) async
            -> [ConfigurationSource.Applied]
        {
            change.new.cache == inForce
                ? [.done("[Cache] as in force since the start again")]
                : [.needsRestart("[Cache] takes effect after a restart")]
        }
    }

    /// `GPSD=` as `status` names it (the new gpsd is not connected yet). Its ``touches(_:_:)``
    /// is the one "another gpsd" rule: the pipeline reconnects (and says so) on the same test.
    struct HealthPart: ConfigurationPart {
        let health: Health

        static func touches(_ old: Configuration, _ new: Configuration) -> Bool {
            old.location.gpsdHost != new.location.gpsdHost || old.location.gpsdPort != new.location.gpsdPort
        }

        func commit(
            _ change: ConfigurationSource.Change, into running: inout ConfigurationSource.Running
        ) async
            -> [ConfigurationSource.Applied]
        {
            health.configure(gpsdServer: "\(change.new.location.gpsdHost):\(change.new.location.gpsdPort)")
            return []
        }
    }
}
