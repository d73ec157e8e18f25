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
            print("wundercastd: configuration OK")
            return 0
        }
        let logger = LogDestination.automatic(identifier: "wundercastd", threshold: logThreshold())
        let daemon = Instance(configuration: configuration, options: options, logger: logger)
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
        /// The configuration file as last read (start-up or SIGHUP).
        let lastLoaded: Mutex<Configuration>

        init(configuration: Configuration, options: Options, logger: Logger) {
            self.configuration = configuration
            self.lastLoaded = Mutex(configuration)
            self.options = options
            self.logger = logger
            let clock = ContinuousClock()
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
            let http = CurlHTTPClient(
                userAgent: Wundercast.userAgent,
                connectTimeout: min(Duration.seconds(5), configuration.weather.timeout),
                timeout: configuration.weather.timeout)
            let provider = OpenMeteoProvider(
                baseURL: configuration.weather.url, units: configuration.weather.units, http: http)
            store = StateStore(provider: provider.name, authorization: initial)
            service = WeatherService(
                locationManager: locationManager, provider: provider, store: store, clock: clock,
                settings: .init(
                    throttle: ThrottlePolicy(configuration.throttle), maxFixAge: configuration.location.maxFixAge,
                    precision: configuration.weather.precision, fallback: configuration.location.fallback),
                logger: logger)
        }

        static func savedDecision(_ path: String?) -> AuthorizationStatus? {
            guard let path, let bytes = try? WholeFile.read(path: path, limit: 4096),
                let text = String(validating: bytes, as: UTF8.self)
            else { return nil }
            let trimmed = text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed()
            return AuthorizationStatus(configName: String(trimmed))
        }

        /// `authorize` from the socket: applies and persists a decision, or shows the status.
        /// `persist`: a decision from `wundercastctl authorize` is saved; one from a reloaded
        /// configuration file is not (the file already holds it).
        func authorize(_ status: AuthorizationStatus?, persist: Bool = true) -> AuthorizationStatus {
            guard let status else { return authorization.value }
            if status != authorization.value {
                authorization.send(status)
                logger.log(
                    .notice, "GPS authorization is now \(status.configName)",
                    fields: [
                        ("MESSAGE_ID", MessageID.authorizationChanged), ("WUNDERCAST_AUTHORIZATION", status.configName),
                    ])
            }
            guard persist else { return status }
            guard let decisionFile else {
                logger.notice(
                    "the authorization decision is not saved: no state directory (systemd's StateDirectory= sets $STATE_DIRECTORY)"
                )
                return status
            }
            do {
                try WholeFile.writeAtomically(Array((status.configName + "\n").utf8), to: decisionFile)
            } catch {
                logger.warning("cannot save the authorization decision to \(decisionFile): \(error)")
            }
            return status
        }

        /// Serves until SIGTERM or SIGINT: binds (or takes) the socket, sends `READY=1`, runs
        /// the services, reloads on SIGHUP; on a stop signal sends `STOPPING=1` and stops the
        /// services in reverse order (socket closed, watchers told by the end of their stream,
        /// weather work cancelled and awaited, gpsd released). Returns the exit status.
        func run() async -> Int32 {
            let signals: AsyncStream<Int32>
            do {
                signals = try Signals.stream()
            } catch {
                logger.error("cannot read signals: \(error)")
                Daemon.writeError("wundercastd: cannot read signals: \(error)\n")
                return 1
            }
            let listenFD: Int32
            let where_: String
            var ownedPath: String?
            if let activated = ListenSockets.take().first {
                listenFD = activated.fd
                where_ = "socket-activated fd \(activated.fd) (\(activated.name))"
            } else {
                let path = options.socketPath ?? configuration.socket.path
                do {
                    listenFD = try UnixSocket.listen(path: path)
                } catch {
                    logger.error("cannot serve the socket: \(error)")
                    Daemon.writeError("wundercastd: cannot serve the socket: \(error)\n")
                    return 1
                }
                where_ = path
                ownedPath = path
            }
            let store = self.store
            let service = self.service
            let server = SocketServer(
                listenFD: listenFD,
                handlers: .init(
                    currentState: { store.current },
                    nowRequested: { service.requestRefresh() },
                    authorize: { [self] in self.authorize($0) },
                    watchersChanged: { service.setWatchers($0) }),
                logger: logger)
            server.start()
            let group = ServiceGroup(
                [
                    LocationWeatherService(service: service, gpsd: gpsd),
                    SocketService(server: server, ownedPath: ownedPath),
                    Publisher(store: store, server: server, notifier: notifier, logger: logger),
                    Watchdog(notifier: notifier, server: server),
                ], logger: logger)
            await group.run {
                // READY=1 once the socket listens (clients may connect from now on).
                _ = try? notifier.ready(status: "serving on \(where_)")
                logger.log(
                    .notice,
                    "wundercastd \(Wundercast.version) serving on \(where_); GPS authorization \(authorization.value.configName), gpsd \(configuration.location.gpsdHost):\(configuration.location.gpsdPort), provider \(configuration.weather.provider)",
                    fields: [("MESSAGE_ID", MessageID.started)])
                for await number in signals {
                    guard number == SIGHUP else { break }
                    reload()
                }
                _ = try? notifier.stopping()
                logger.info("stopping")
            }
            store.finish()
            return 0
        }

        /// SIGHUP: re-read the configuration. The authorization status applies at once;
        /// other keys need a restart. A bad file is refused and the running state kept.
        func reload() {
            _ = try? notifier.reloading()
            defer { _ = try? notifier.ready(status: "reloaded") }
            do {
                let fresh = try Daemon.loadConfiguration(options)
                // Compared with the file as last loaded, not as at start-up: editing the file
                // back to the start-up value must apply too.
                let previous = lastLoaded.withLock { last in
                    defer { last = fresh }
                    return last
                }
                if fresh.location.authorization != previous.location.authorization {
                    _ = authorize(fresh.location.authorization, persist: false)
                }
                var comparable = fresh
                comparable.location.authorization = configuration.location.authorization
                if comparable != configuration {
                    logger.notice(
                        "configuration reloaded; changes other than Authorization= take effect after a restart")
                } else {
                    logger.info("configuration reloaded")
                }
            } catch {
                logger.log(
                    .error, "configuration rejected, keeping the running one: \(error)",
                    fields: [("MESSAGE_ID", MessageID.configurationRejected)])
            }
        }
    }
}
