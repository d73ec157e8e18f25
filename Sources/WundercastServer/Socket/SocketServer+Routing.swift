import WundercastPOSIX
import WundercastProtocol

extension SocketServer {
    /// Handles one request line (without its newline) from `client`.
    func handle(line raw: UnsafeRawBufferPointer, from client: SocketClient) {
        // `now` without parsing: the hot path of status bars that poll.
        let trimmed = raw.last == UInt8(ascii: "\r") ? UnsafeRawBufferPointer(rebasing: raw.dropLast()) : raw
        if trimmed.count == 3 && trimmed[0] == UInt8(ascii: "n") && trimmed[1] == UInt8(ascii: "o")
            && trimmed[2] == UInt8(ascii: "w")
        {
            handlers.nowRequested(client.peer)
            client.send(currentEntry(for: client.peer.reader).encoded)
            return
        }
        guard let line = String(validating: raw, as: UTF8.self) else {
            client.send(
                SocketProtocol.line(SocketProtocol.ErrorResponse(.notUTF8, message: "request is not UTF-8 text")))
            return
        }
        let request: SocketProtocol.Request
        do {
            request = try SocketProtocol.parse(line)
        } catch {
            client.send(SocketProtocol.line(SocketProtocol.ErrorResponse(error)))
            return
        }
        route(request, from: client)
    }

    private func route(_ request: SocketProtocol.Request, from client: SocketClient) {
        if request.isPrivileged && client.peer.reader != .precise {
            client.send(notPermitted(request))
            return
        }
        switch request {
        case .now:
            handlers.nowRequested(client.peer)
            client.send(currentEntry(for: client.peer.reader).encoded)
        case .watch(let options):
            startWatching(client, options)
        case .version:
            client.send(SocketProtocol.line(SocketProtocol.VersionResponse()))
        case .help:
            client.send(SocketProtocol.line(SocketProtocol.HelpResponse()))
        case .authorize(let status):
            // Off the loop (a decision is saved with `fsync`s); later requests wait for it.
            let authorize = handlers.authorize
            submit(
                Job(client: LoopBound(client, loop: loop), holdsInput: true) {
                    SocketProtocol.line(SocketProtocol.AuthorizationResponse(await authorize(status)))
                })
        case .status:
            var status = handlers.status()
            status.counters.clients = clients.count
            status.counters.watchers = watcherCount
            client.send(SocketProtocol.line(status))
        case .refresh:
            handlers.refresh()
            client.send(currentEntry(for: client.peer.reader).encoded)
        case .weather, .around:
            startLookup(request, for: client)
        }
    }

    /// The `not-permitted` answer to `request`: what it needs and how to get it.
    private func notPermitted(_ request: SocketProtocol.Request) -> [UInt8] {
        let name =
            switch request {
            case .refresh: "refresh"
            case .authorize(let status?): "authorize \(status.configName)"
            default: "this request"
            }
        let group = settings.preciseGroupName.map {
            "members of group \($0) (join it: sudo usermod -aG \($0) USER, then log in again)"
        }
        let who = ["root", "the daemon's own user", group].compactMap { $0 }.joined(separator: ", ")
        return SocketProtocol.line(
            SocketProtocol.ErrorResponse(.notPermitted, message: "'\(name)' is only for \(who)"))
    }

    /// The cache entry for `reader`, brought up to the daemon's current state.
    func currentEntry(for reader: ReaderClass) -> StateCache.Entry {
        let views = handlers.currentState()
        if cache == nil {
            cache = StateCache(views)
        } else {
            cache?.update(views[reader], for: reader)
        }
        return cache![reader]
    }

    private func startWatching(_ client: SocketClient, _ options: SocketProtocol.WatchOptions) {
        if client.watch == nil {
            watcherCount += 1
            handlers.watchersChanged(watcherCount)
        }
        client.watch = options
        let entry = currentEntry(for: client.peer.reader)
        client.sentGeneration = entry.generation
        client.sentWeatherGeneration = entry.weatherGeneration
        client.nextLineAt = options.every.map { timer.now() + $0 }
        client.send(entry.encoded)
    }

    /// Sends each watcher the current state if it changed in a way its options care about;
    /// the stamped line is made once per reader class.
    func deliverToWatchers() {
        var lines: [ReaderClass: [UInt8]] = [:]
        let now = wallClock()
        let uptime = self.uptime?()
        for client in clients.values where client.watch != nil && !client.closed {
            let reader = client.peer.reader
            deliver(to: client) {
                if let line = lines[reader] { return line }
                let line = self.cache![reader].encoded.line(now: now, uptime: uptime)
                lines[reader] = line
                return line
            }
        }
    }

    /// Sends `client` (a watcher) the current state if it changed for it: for `watch weather`
    /// only a change of weather, status or error counts; `watch every` holds a change back
    /// until its span is over (then the newest state goes, stamped then). `line` makes the
    /// stamped line (`nil`: stamp now).
    func deliver(to client: SocketClient, line: (() -> [UInt8])?) {
        guard let options = client.watch, let entry = cache?[client.peer.reader] else { return }
        let changed =
            options.weatherOnly
            ? entry.weatherGeneration != client.sentWeatherGeneration : entry.generation != client.sentGeneration
        guard changed else { return }
        if let every = options.every {
            let now = timer.now()
            if let next = client.nextLineAt, now < next {
                schedulePacing(client, at: next)
                return
            }
            client.nextLineAt = now + every
        }
        client.sentGeneration = entry.generation
        client.sentWeatherGeneration = entry.weatherGeneration
        client.sendLatest(line?() ?? entry.encoded.line(now: wallClock(), uptime: uptime?()))
    }

    /// `weather` and `around`: the daemon's lookup runs as a job (``runJobs()``); its line is
    /// sent on the server's thread if the client is still connected. Answers come in the order
    /// lookups finish.
    private func startLookup(_ request: SocketProtocol.Request, for client: SocketClient) {
        guard client.jobsInFlight < settings.maxLookupsInFlight else {
            client.send(
                SocketProtocol.line(
                    SocketProtocol.ErrorResponse(
                        .rateLimited,
                        message:
                            "at most \(settings.maxLookupsInFlight) lookups at once per connection; wait for an answer first"
                    )))
            return
        }
        let lookup = handlers.lookup
        let peer = client.peer
        submit(
            Job(client: LoopBound(client, loop: loop), holdsInput: false) { await lookup(request, peer) })
    }
}
