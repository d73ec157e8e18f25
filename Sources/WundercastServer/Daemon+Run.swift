#if canImport(Glibc)
import Glibc
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WundercastCore
import WundercastPOSIX
import WundercastSystemd

extension Daemon.Instance {
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
                listenFD = try UnixSocket.listen(path: path, mode: configuration.socket.mode)
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
        let viewer = self.viewer
        let lookups = self.lookups
        let server: SocketServer
        do {
            server = try SocketServer(
                listenFD: listenFD,
                handlers: .init(
                    currentState: { viewer.views(store.current) },
                    nowRequested: { service.requestRefresh() },
                    authorize: { [self] in self.authorize($0) },
                    watchersChanged: { service.setWatchers($0) },
                    refresh: { service.refresh() },
                    status: { [self] in
                        health.status(
                            state: store.current, authorization: authorization.value, queue: queue,
                            lookups: lookups.answered, now: Date())
                    },
                    lookup: { request, peer in
                        switch request {
                        case .weather(let query):
                            return await lookups.weather(query, user: peer.uid)
                        case .around(let center, let step):
                            let current = viewer.views(store.current).position(for: peer.reader)
                            return await lookups.around(center, step: step, current: current, user: peer.uid)
                        default:
                            return SocketProtocol.line(
                                SocketProtocol.ErrorResponse(.unknownRequest, message: "not a lookup request"))
                        }
                    }),
                logger: logger, settings: socketSettings())
        } catch {
            logger.error("cannot serve the socket: \(error)")
            Daemon.writeError("wundercastd: cannot serve the socket: \(error)\n")
            return 1
        }
        server.start()
        TestHooks.apply(to: service)
        let wake = WakeWatch(service: service, loop: server.loop, logger: logger)
        let group = ServiceGroup(
            [
                LocationWeatherService(service: service, gpsd: gpsd),
                SocketService(server: server, ownedPath: ownedPath),
                wake,
                Publisher(
                    store: store, server: server, viewer: viewer, health: health, notifier: notifier, logger: logger),
                Watchdog(notifier: notifier, server: server, service: service, wake: wake, logger: logger),
            ], logger: logger)
        await group.run {
            // READY=1 once the socket listens (clients may connect from now on).
            _ = try? notifier.ready(status: "serving on \(where_)")
            logger.log(
                .notice,
                "wundercastd \(Wundercast.version) serving on \(where_); GPS authorization \(authorization.value.configName), gpsd \(configuration.location.gpsdHost):\(configuration.location.gpsdPort), provider \(configuration.weather.provider.rawValue)",
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
}
