#if canImport(Glibc)
import Glibc
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WundercastSupport
import WundercastProtocol
import WundercastPipeline
import WundercastPOSIX
import WundercastSystemd

extension Daemon.Instance {
    /// Serves until SIGTERM or SIGINT: binds (or takes) the socket, sends `READY=1`, runs
    /// the services, reloads on SIGHUP; on a stop signal sends `STOPPING=1` and stops the
    /// services in reverse order (socket closed, watchers told by the end of their stream,
    /// weather work cancelled and awaited, gpsd released). Returns the exit status.
    func run() async -> Int32 {
        let reactor = self.reactor
        let signals: AsyncStream<Int32>
        do {
            signals = try await Signals.stream(on: reactor)
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
                listenFD = try UnixSocket.listen(path: path, mode: configuration.socket.mode)
            } catch {
                // One line: the log is standard error or the journal, and under systemd standard
                // error is the journal too (a second copy on it would be a second entry).
                logger.error("cannot serve the socket: \(error)")
                return 1
            }
            where_ = path
            ownedPath = path
        }
        let store = self.store
        let pipelines = self.pipelines
        let server: SocketServer
        do {
            server = try SocketServer(
                listenFD: listenFD,
                handlers: .init(
                    currentState: { [self] in viewer.views(store.current) },
                    nowRequested: { pipelines.current.service.requestRefresh(from: $0.uid) },
                    authorize: { [decisions] in await decisions.decide($0) },
                    watchersChanged: { pipelines.setWatchers($0) },
                    refresh: { pipelines.current.service.refresh() },
                    status: { [self] in
                        let weather = self.weather
                        var status = health.status(
                            state: store.current, authorization: authorization.value, queue: weather.queue,
                            lookups: weather.lookups.answered, now: Date(), monotonicNow: Uptime.now())
                        status.mqtt = fleet.current.map { publisher in
                            let client = publisher.client.status
                            return .init(
                                broker: client.broker, connected: client.connected, since: client.since,
                                lastError: client.lastError, messagesSent: client.messagesSent)
                        }
                        return status
                    },
                    lookup: { [self] request, peer in
                        let lookups = self.weather.lookups
                        let reader: LookupService.Reader =
                            switch peer.reader {
                            case .precise: .precise
                            case .public: .public(precision: configuration.socket.publicPrecision)
                            }
                        switch request {
                        case .weather(let query):
                            return await lookups.weather(query, user: peer.uid, reader: reader)
                        case .around(let center, let step):
                            let current = viewer.views(store.current).position(for: peer.reader)
                            return await lookups.around(
                                center, step: step, current: current, user: peer.uid, reader: reader)
                        default:
                            return SocketProtocol.line(
                                SocketProtocol.ErrorResponse(.unknownRequest, message: "not a lookup request"))
                        }
                    }),
                logger: logger, settings: socketSettings(configuration), loop: reactor, uptime: Uptime.now)
        } catch {
            logger.error("cannot serve the socket: \(error)")
            return 1
        }
        // The kept weather is in the store before any client can ask and before READY=1.
        let kept = restoreLastState()
        server.start()
        TestHooks.apply(to: pipelines.current.service)
        let wake = WakeWatch(
            service: { pipelines.current.service }, loop: server.loop, logger: logger,
            readOffset: TestHooks.suspendOffset)
        let group = ServiceGroup(
            lastStateServices(kept) + [
                pipelines,
                SocketService(server: server, ownedPath: ownedPath),
                wake,
                Publisher(
                    store: store, server: server, views: { [self] in viewer.views($0) },
                    journalViews: { [self] in journalViewer.views($0) }, health: health,
                    notifier: notifier, logger: logger),
                fleet,
                Watchdog(
                    notifier: notifier, server: server, service: { pipelines.current.service }, wake: wake,
                    logger: logger),
            ],
            onStuck: { _ in
                Daemon.writeError("wundercastd: a service did not stop in time; exiting\n")
                ProcessControl.exit(1)
            }, logger: logger)
        let owned = ownedPath
        let outcome = await group.run { [self] in
            // READY=1 once the socket listens (clients may connect from now on).
            // STATUS= the weather already known (kept from before a restart), else where it serves.
            _ = try? notifier.ready(status: statusLine() ?? "serving on \(where_)")
            logger.log(
                .notice,
                "wundercastd \(Wundercast.version) serving on \(where_); GPS authorization \(authorization.value.configName), gpsd \(configuration.location.gpsdHost):\(configuration.location.gpsdPort), provider \(configuration.weather.provider.rawValue)",
                fields: [
                    ("MESSAGE_ID", MessageID.started), ("WUNDERCAST_VERSION", Wundercast.version),
                    ("WUNDERCAST_AUTHORIZATION", authorization.value.configName),
                    ("WUNDERCAST_PROVIDER", configuration.weather.provider.rawValue),
                ])
            for await number in signals {
                guard number == SIGHUP else { break }
                await reload(server: server, ownedPath: owned)
            }
            _ = try? notifier.stopping()
            logger.info("stopping")
        }
        store.finish()
        // A service that ended by itself is a failure: systemd restarts the daemon.
        return outcome == .stopped ? 0 : 1
    }
}
