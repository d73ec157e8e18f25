#if canImport(Glibc)
import Glibc
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization
import WundercastCore
import WundercastGPSD
import WundercastHTTP
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
          --check-config   read the configuration, report the first error as file:line, and exit
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

        let configuration: Configuration
        do {
            configuration = try loadConfiguration(options)
        } catch {
            writeError("wundercastd: \(error)\n")
            return 1
        }
        if options.checkOnly {
            // The provider too: a key file that is missing, empty or not a key stops the start
            // as surely as a bad line. A key from systemd's credentials exists only under the unit.
            let weather = configuration.weather
            let keyFromUnit =
                weather.provider == .openWeatherMap && weather.apiKeyFile == nil
                && (Environment.value("CREDENTIALS_DIRECTORY") ?? "").isEmpty
            if !keyFromUnit {
                do {
                    _ = try makeProvider(configuration)
                } catch {
                    writeError("wundercastd: \(error)\n")
                    return 1
                }
            }
            print(
                "wundercastd: configuration OK"
                    + (keyFromUnit
                        ? " (the API key comes from $CREDENTIALS_DIRECTORY/\(credentialName) when the service runs: not checked here)"
                        : ""))
            return 0
        }
        // The city table comes first: MET Norway takes its place's time zone from it. Neither it
        // nor MET Norway knows the provider's secrets (only OpenWeatherMap has a key).
        let unredacted = LogDestination.automatic(identifier: "wundercastd", threshold: logThreshold())
        let places = placeFinder(configuration, logger: unredacted)
        let provider: any WeatherProvider
        do {
            provider = try makeProvider(configuration, places: places, logger: unredacted)
        } catch {
            writeError("wundercastd: \(error)\n")
            return 1
        }
        // Every other log line of the daemon passes the provider's secrets (an API key) through redaction.
        let logger = unredacted.redacting(provider.secrets)
        let ready = await resolvingFallback(configuration, places: places, logger: logger)
        let daemon = Instance(
            configuration: ready, options: options, logger: logger, provider: provider, places: places)
        return await daemon.run()
    }

    static func loadConfiguration(_ options: Options) throws(ConfigurationError) -> Configuration {
        if let path = options.configPath {
            if options.configOptional && access(path, F_OK) != 0 { return Configuration() }
            return try Configuration.load(path: path)
        }
        if access(defaultConfigPath, F_OK) == 0 { return try Configuration.load(path: defaultConfigPath) }
        return Configuration()
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

    /// One running daemon.
    final class Instance: Sendable {
        let configuration: Configuration
        let options: Options
        let logger: Logger
        let notifier = ServiceNotifier()
        let authorization: ObservableValue<AuthorizationStatus>
        let store: StateStore
        let service: WeatherService<ContinuousClock>
        let locationManager: LocationManager
        let gpsd: GPSDFixSource
        let decisionFile: String?
        /// The one door to the provider (own fetches and lookups), and the lookups.
        let queue: ProviderQueue
        let lookups: LookupService
        let viewer: StateViewer
        let health: Health
        /// The configuration file as last read (start-up or SIGHUP).
        let lastLoaded: Mutex<Configuration>

        /// - Parameter provider: from ``Daemon/makeProvider(_:places:logger:environment:read:)``; `logger`
        ///   already redacts its secrets.
        init(
            configuration: Configuration, options: Options, logger: Logger, provider: any WeatherProvider,
            places: PlaceFinder = .none
        ) {
            self.configuration = configuration
            self.lastLoaded = Mutex(configuration)
            self.options = options
            self.logger = logger
            decisionFile = Environment.value("STATE_DIRECTORY")
                .flatMap { $0.split(separator: ":").first.map(String.init) }
                .map { $0 + "/authorization" }
            var initial = configuration.location.authorization
            if initial == .notDetermined, let saved = Self.savedDecision(decisionFile) {
                initial = saved
            }
            authorization = ObservableValue(initial)
            gpsd = GPSDFixSource(
                host: configuration.location.gpsdHost, port: configuration.location.gpsdPort, logger: logger)
            locationManager = LocationManager(
                source: gpsd, authorization: authorization,
                maxHorizontalError: configuration.location.maxHorizontalError)
            queue = ProviderQueue(provider)
            let clock = ContinuousClock()
            // One cache for the daemon's own fetches and the lookups (issue 7, point 6).
            let cache = WeatherCache(
                provider: queue, precision: configuration.weather.precision, ttl: configuration.throttle.maxAge,
                clock: clock, logger: logger)
            lookups = LookupService(
                queue: queue, cache: cache, places: places,
                settings: .init(
                    precision: configuration.weather.precision, maxAge: configuration.throttle.maxAge,
                    lookupsPerMinute: configuration.socket.lookupsPerMinute))
            viewer = StateViewer(publicPrecision: configuration.socket.publicPrecision, places: places)
            let health = Health(
                gpsdServer: "\(configuration.location.gpsdHost):\(configuration.location.gpsdPort)",
                publicPrecision: configuration.socket.publicPrecision)
            self.health = health
            gpsd.onConnectionChange = { event in
                switch event {
                case .connected: health.gpsd(connected: true)
                case .connectFailed, .disconnected, .stopped: health.gpsd(connected: false)
                }
            }
            store = StateStore(provider: provider.name, authorization: initial)
            service = WeatherService(
                locationManager: locationManager, provider: queue, cache: cache, store: store, clock: clock,
                settings: .init(
                    throttle: ThrottlePolicy(configuration.throttle), maxFixAge: configuration.location.maxFixAge,
                    precision: configuration.weather.precision, fallback: configuration.location.fallback,
                    retry: TestHooks.retry),
                logger: logger)
        }
    }
}
