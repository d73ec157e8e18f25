#if canImport(Glibc)
import Glibc
#endif
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
import WundercastPOSIX
import WundercastSystemd

/// `wundercastd`: reads the configuration, wires gpsd → location stream → throttle →
/// weather pipeline → state store → socket, journal and sd_notify, and runs until SIGTERM.
public enum Daemon {
    /// Default configuration file; a missing default file means "all defaults".
    public static let defaultConfigPath = "/etc/wundercast/wundercast.conf"

    static let usage = """
        usage: wundercastd [--config PATH | --config-if-exists PATH] [--socket PATH] [--check-config] [--version]

          --config PATH    configuration file (default \(defaultConfigPath); all defaults if that is absent)
          --config-if-exists PATH
                           the same, but all defaults when PATH does not exist (user units)
          --socket PATH    serve on PATH instead of [Socket] Path= (ignored under socket activation)
          --check-config   print the effective configuration (main file and drop-ins) with the
                           file:line of each value, or every error as file:line: message (exit 1)
          --version        print the version and exit
        """

    struct Options {
        var configPath: String?
        /// `--config-if-exists`: a missing file means all defaults, not the default file.
        var configOptional = false
        var socketPath: String?
        var checkOnly = false
    }

    /// Runs the daemon with command-line `arguments` (without the program name).
    /// Returns the process exit status: 0 after a clean stop, 1 on a configuration or
    /// start-up error, 2 on a usage error.
    ///
    /// The caller must have called `Signals.blockBeforeThreads()` first thing in `main`
    /// (SIGTERM, SIGINT, SIGHUP blocked and read from a signalfd; SIGPIPE ignored).
    public static func main(_ arguments: [String]) async -> Int32 {
        var options = Options()
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--config", "-c":
                guard let value = rest.popFirst() else { return usageError("--config needs a PATH") }
                options.configPath = value
            case "--config-if-exists":
                guard let value = rest.popFirst() else { return usageError("--config-if-exists needs a PATH") }
                options.configPath = value
                options.configOptional = true
            case "--socket":
                guard let value = rest.popFirst() else { return usageError("--socket needs a PATH") }
                options.socketPath = value
            case "--check-config":
                options.checkOnly = true
            case "--version":
                print("wundercastd \(Wundercast.version)")
                return 0
            case "--help", "-h":
                print(usage)
                return 0
            default:
                return usageError("unknown argument '\(argument)'")
            }
        }

        if options.checkOnly { return checkConfiguration(options) }
        let configuration: Configuration
        do {
            configuration = try loadConfiguration(options)
        } catch {
            writeError(error.errors.map { "wundercastd: \($0)\n" }.joined())
            return 1
        }
        // The city table comes first: MET Norway takes its place's time zone from it. Neither it
        // nor MET Norway knows the provider's secrets (only OpenWeatherMap has a key).
        // Repeated events (a flapping device, cell churn) are logged once a minute, then summarised.
        let unredacted = LogDestination.automatic(identifier: "wundercastd", threshold: logThreshold())
            .limitingRepeats()
        // The one reactor: the socket and its clients, signals, the wake-up monitors, the HTTP
        // transfers (the providers' and the geocoder's clients are made on it).
        let reactor: EventLoop
        do {
            reactor = try EventLoop(name: "wundercast-io")
        } catch {
            unredacted.error("cannot start the event loop: \(error)")
            writeError("wundercastd: cannot start the event loop: \(error)\n")
            return 1
        }
        let status = await serve(configuration, options: options, reactor: reactor, unredacted: unredacted)
        await reactor.shutDown()  // awaited: no thread of the pool waits for the loop's end
        return status
    }

    /// The daemon on `reactor` once the configuration is loaded: its exit status.
    private static func serve(
        _ configuration: Configuration, options: Options, reactor: EventLoop, unredacted: Logger
    ) async -> Int32 {
        let places = placeFinder(configuration, loop: reactor, logger: unredacted)
        let provider: any WeatherProvider
        do {
            provider = try makeProvider(configuration, loop: reactor, places: places, logger: unredacted)
        } catch {
            writeError("wundercastd: \(error)\n")
            return 1
        }
        // Every other log line of the daemon passes the provider's secrets (an API key) through redaction.
        let logger = unredacted.redacting(provider.secrets)
        let fleet: FleetSetup?
        do throws(FleetSetupError) {
            fleet = try fleetSetup(configuration)
        } catch {
            writeError("wundercastd: \(error)\n")
            return 1
        }
        let ready = await resolvingFallback(configuration, places: places, logger: logger)
        let daemon = Instance(
            configuration: ready, loaded: configuration, options: options, logger: logger, unredacted: unredacted,
            reactor: reactor, weather: WeatherSide(ready, provider: provider, places: places, logger: logger),
            fleet: fleet)
        return await daemon.run()
    }

    /// The main file and its drop-ins (``ConfigurationSources/forCommandLine(path:optional:)``).
    static func loadConfiguration(_ options: Options) throws(ConfigurationErrors) -> Configuration {
        try Configuration.load(options.configurationSources).configuration
    }

    static func logThreshold() -> LogPriority {
        Environment.value("WUNDERCAST_DEBUG").map { $0.isEmpty || $0 == "0" } == false
            ? .debug : .info
    }

    static func usageError(_ message: String) -> Int32 {
        writeError("wundercastd: \(message)\n\(usage)\n")
        return 2
    }

    static func writeError(_ text: String) {
        StandardError.write(text)
    }

    /// One running daemon, as wiring: the parts that live as long as the process (the published
    /// state, the authorization store, the socket's view of health), the configuration source that
    /// owns what a reload may replace (the weather side, the viewers; the pipeline in
    /// ``pipelines``), and the one list of the parts a reload changes
    /// (``configurationParts(server:ownedPath:)``).
    final class Instance: Sendable {
        let options: Options
        /// The one event loop: socket, signals, monitors, HTTP transfers. Stopped by ``Daemon/main(_:)``
        /// after ``run()``.
        let reactor: EventLoop
        /// The daemon's logger, redacting the start-up provider's secrets; each
        /// ``WeatherSide`` logs through one that redacts its own.
        let logger: Logger
        /// Without redaction: a new provider's logger is made from it.
        let unredacted: Logger
        let notifier = ServiceNotifier()
        /// The status in force, its decisions and where they are kept.
        let decisions: AuthorizationStore
        var authorization: ObservableValue<AuthorizationStatus> { decisions.status }
        let store: StateStore
        let health: Health
        /// The configuration in force and what it made; reloads go through it.
        let source: ConfigurationSource
        let pipelines: PipelineRunner
        /// The MQTT publisher (none without `[MQTT] Broker=`); a reload replaces it.
        let fleet: FleetRunner
        /// `[Cache]` as read at start: the kept file is read once, so this stays in force until a
        /// restart, whatever a reload reads (``RestartPart`` compares with it).
        let startupCache: Configuration.CacheSettings

        /// - Parameters:
        ///   - configuration: as loaded, `Fallback=` resolved.
        ///   - loaded: as read from the files (`Fallback=` as written).
        ///   - weather: made from `configuration`; its logger already redacts its secrets.
        ///   - reactor: the daemon's one event loop (gpsd's readers run on it).
        init(
            configuration: Configuration, loaded: Configuration, options: Options, logger: Logger,
            unredacted: Logger, reactor: EventLoop, weather: Daemon.WeatherSide, fleet: FleetSetup? = nil
        ) {
            self.options = options
            self.reactor = reactor
            self.logger = logger
            self.unredacted = unredacted
            startupCache = configuration.cache
            health = Health(gpsdServer: "\(configuration.location.gpsdHost):\(configuration.location.gpsdPort)")
            decisions = AuthorizationStore.load(
                configured: configuration.location.authorization,
                stateDirectory: Environment.value("STATE_DIRECTORY")
                    .flatMap { $0.split(separator: ":").first.map(String.init) },
                health: health, logger: logger)
            store = StateStore(provider: weather.queue.name, authorization: decisions.status.value)
            source = ConfigurationSource(
                .init(
                    configuration: configuration, loaded: loaded, weather: weather,
                    viewer: StateViewer(
                        publicPrecision: configuration.socket.publicPrecision, places: weather.places,
                        moon: weather.moon),
                    // The journal and STATUS= tell no Moon.
                    journalViewer: StateViewer(publicPrecision: configuration.journal.precision, places: weather.places)
                ))
            pipelines = PipelineRunner(
                Daemon.Pipeline(
                    configuration, weather: weather, authorization: decisions.status, store: store, health: health,
                    loop: reactor))
            self.fleet = FleetRunner()
            if let publisher = fleetPublisher(fleet, configuration: configuration, weather: weather) {
                self.fleet.replace(with: publisher)
            }
        }

        /// The publisher of `setup` (`nil`: MQTT off), its positions at `[MQTT] Precision=`, its
        /// places and Moon those of `weather`.
        func fleetPublisher(
            _ setup: FleetSetup?, configuration: Configuration, weather: Daemon.WeatherSide
        ) -> FleetPublisher? {
            guard let setup else { return nil }
            let viewer = StateViewer(
                publicPrecision: configuration.mqttPrecision, places: weather.places, moon: weather.moon)
            let stateDirectory = Environment.value("STATE_DIRECTORY").flatMap { $0.split(separator: ":").first }
            return FleetPublisher(
                setup: setup, store: store, view: { viewer.views($0).public },
                recordPath: stateDirectory.map { "\($0)/mqtt-discovery" }, clock: ContinuousLoopClock(loop: reactor),
                logger: logger)
        }

        /// The configuration in force.
        var configuration: Configuration { source.current.configuration }
        var viewer: StateViewer { source.current.viewer }
        var journalViewer: StateViewer { source.current.journalViewer }
        var weather: Daemon.WeatherSide { source.current.weather }
    }
}
