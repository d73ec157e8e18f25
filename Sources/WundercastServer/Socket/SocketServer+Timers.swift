import WundercastPOSIX
import WundercastProtocol

extension SocketServer {
    /// Makes sure ``sweep(scheduledFor:)`` runs by `deadline`: a wake-up is scheduled unless
    /// one is already due at or before it (that sweep schedules the next).
    func scheduleSweep(at deadline: Duration) {
        if let earliest = scheduledSweeps.min(), earliest <= deadline { return }
        scheduledSweeps.insert(deadline)
        timer.wake(deadline) { [weak self] in
            guard let self else { return }
            self.loop.post { self.sweep(scheduledFor: deadline) }
        }
    }

    /// Closes connections whose time is up: no request within `IdleTimeout=` (after an
    /// `idle-timeout` line), or output untouched for `SendTimeout=`. Schedules itself for the
    /// next such time.
    func sweep(scheduledFor deadline: Duration) {
        scheduledSweeps.remove(deadline)
        guard !stopped else { return }
        let now = timer.now()
        var next: Duration?
        var stalled = 0
        for client in Array(clients.values) {
            if let idle = client.idleDeadline {
                if idle <= now {
                    client.idleDeadline = nil
                    client.end(with: idleTimeoutLine)
                } else {
                    next = min(next ?? idle, idle)
                }
            }
            if let since = client.stalledSince, !client.closed {
                let due = since + settings.sendTimeout
                if due <= now {
                    stalled += 1
                    client.close()
                } else {
                    next = min(next ?? due, due)
                }
            }
        }
        if stalled > 0 {
            logger.warning(
                "socket: disconnected \(stalled) client(s) that read nothing for \(settings.sendTimeout) (SendTimeout=)"
            )
        }
        if let next { scheduleSweep(at: next) }
    }

    private var idleTimeoutLine: [UInt8] {
        SocketProtocol.line(
            SocketProtocol.ErrorResponse(
                .idleTimeout, message: "no request within \(settings.idleTimeout) (IdleTimeout=); closing"))
    }

    /// `watch every`: sends `client` the newest state once its span is over (one wake-up
    /// at a time per client).
    func schedulePacing(_ client: SocketClient, at deadline: Duration) {
        guard !client.pacingWakeScheduled else { return }
        client.pacingWakeScheduled = true
        let bound = LoopBound(client, loop: loop)
        timer.wake(deadline) { [weak self] in
            guard let self else { return }
            self.loop.post {
                let client = bound.value
                client.pacingWakeScheduled = false
                guard !client.closed, client.watch != nil else { return }
                self.deliver(to: client, line: nil)
            }
        }
    }
}
