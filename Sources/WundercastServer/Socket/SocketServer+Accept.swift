#if canImport(Glibc)
import Glibc
#endif
import WundercastSupport
import WundercastProtocol
import WundercastPOSIX

extension SocketServer {
    /// Accepts every waiting connection: classifies its peer (`SO_PEERCRED`), refuses it
    /// beyond the client limit or when its descriptor would take one of the
    /// ``WundercastPOSIX/DescriptorReserve`` (a `too-many-clients` line naming the descriptor
    /// limit), pauses when descriptors run out.
    func acceptAll() {
        while !stopped && !acceptPaused {
            let fd: Int32
            do throws(Errno) {
                guard case .done(let accepted) = try UnixSocket.accept(listenFD) else { return }
                fd = accepted
            } catch {
                switch error.code {
                case EMFILE, ENFILE, ENOBUFS, ENOMEM:
                    pauseAccepting(error)
                    return
                case ECONNABORTED, EPROTO, EPERM:
                    continue  // that connection is gone; the next may be fine
                default:
                    logger.warning("accept: \(error.reason)")
                    return
                }
            }
            if let since = exhaustedSince {
                exhaustedSince = nil
                let tenths = Int((timer.now() - since) / .milliseconds(100))
                logger.log(
                    .notice,
                    "socket: accepting clients again after \(tenths / 10).\(tenths % 10) s without free descriptors")
            }
            if let limit = DescriptorLimit.soft(), !DescriptorReserve.admits(fd, limit: limit) {
                refuse(
                    fd,
                    "\(clients.count) clients at once (MaxClients=\(settings.maxClients), lowered by the descriptor limit: \(DescriptorReserve.reason(limit: limit)))"
                )
                continue
            }
            guard clients.count < settings.maxClients else {
                refuse(fd, "\(settings.maxClients) clients at once (MaxClients=\(settings.maxClients))")
                continue
            }
            let peer = peer(of: fd)
            let exempt = peer.uid == 0 || peer.uid == daemonUID
            guard exempt || clientsPerUser[peer.uid, default: 0] < settings.maxClientsPerUser else {
                refuse(fd, "\(settings.maxClientsPerUser) connections per user at once (uid \(peer.uid))")
                continue
            }
            if !exempt { clientsPerUser[peer.uid, default: 0] += 1 }
            let client = SocketClient(fd: fd, peer: peer, server: self)
            clients[ObjectIdentifier(client)] = client
            let deadline = timer.now() + settings.idleTimeout
            client.idleDeadline = deadline
            scheduleSweep(at: deadline)
            client.start()
        }
    }

    /// Precise for root, the daemon's own user, and members (primary or supplementary group)
    /// of `PreciseGroup=`; public for everyone else, and for a peer whose credentials cannot
    /// be read.
    func peer(of fd: Int32) -> Peer {
        guard let credentials = try? UnixSocket.peerCredentials(fd) else {
            return Peer(uid: .max, gid: .max, pid: 0, reader: .public)
        }
        var precise = credentials.uid == 0 || credentials.uid == daemonUID
        if !precise, let group = settings.preciseGroupID {
            precise =
                credentials.gid == group || (try? UnixSocket.peerHasSupplementaryGroup(fd, group)) == true
        }
        return Peer(
            uid: credentials.uid, gid: credentials.gid, pid: credentials.pid, reader: precise ? .precise : .public)
    }

    /// Writes one `too-many-clients` line naming the `limit` (if the socket takes it at once)
    /// and closes `fd`.
    private func refuse(_ fd: Int32, _ limit: String) {
        let line = SocketProtocol.line(
            SocketProtocol.ErrorResponse(
                .tooManyClients, message: "the daemon serves at most \(limit); try again later"))
        _ = line.withUnsafeBytes { try? StreamIO.send(fd, $0, dontWait: true) }
        // A Unix socket closed with unread input resets its peer (ECONNRESET), which may then
        // miss the line: take what the client already sent (a request) first.
        for _ in 0..<4 {
            guard case .done(let n)? = try? StreamIO.receive(fd, into: scratch, dontWait: true), n > 0 else { break }
        }
        try? Descriptor.close(fd)
        let now = timer.now()
        if lastRefusalLog.map({ now - $0 >= .seconds(60) }) ?? true {
            lastRefusalLog = now
            logger.log(
                .warning, "socket: refusing clients beyond \(limit) (logged at most once a minute)",
                fields: [
                    ("MESSAGE_ID", MessageID.clientLimit), ("WUNDERCAST_CLIENTS", "\(clients.count)"),
                    ("WUNDERCAST_MAX_CLIENTS", "\(settings.maxClients)"),
                ])
        }
    }

    /// Out of descriptors: the connection stays in the backlog, so the source would fire again
    /// at once. Suspends accepting until a client leaves (``remove(_:)``) or for a second;
    /// one log line when it starts, one when accepting works again.
    private func pauseAccepting(_ error: Errno) {
        guard !acceptPaused, let registration = acceptRegistration else { return }
        acceptPaused = true
        loop.modify(registration, for: [])
        if exhaustedSince == nil {
            exhaustedSince = timer.now()
            exhaustedRetries = 0
            logger.log(
                .warning,
                "socket: accept: \(error.reason); not accepting new clients until a descriptor is free (\(clients.count) connected)",
                fields: [
                    ("MESSAGE_ID", MessageID.clientLimit), ("WUNDERCAST_CLIENTS", "\(clients.count)"),
                    ("WUNDERCAST_MAX_CLIENTS", "\(settings.maxClients)"), ("WUNDERCAST_ERRNO", "\(error.code)"),
                ])
        } else {
            exhaustedRetries += 1
            logger.debug("socket: accept still out of descriptors (retry \(exhaustedRetries))")
        }
        timer.wake(timer.now() + .seconds(1)) { [weak self] in
            guard let self else { return }
            self.loop.post { self.resumeAccepting() }
        }
    }

    func resumeAccepting() {
        guard acceptPaused, !stopped, let registration = acceptRegistration else { return }
        acceptPaused = false
        loop.modify(registration, for: .readable)
    }
}
