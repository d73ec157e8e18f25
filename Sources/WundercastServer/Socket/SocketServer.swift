#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WundercastSupport
import WundercastModel
import WundercastProtocol
import WundercastPOSIX
import Synchronization

/// Serves the line protocol (``SocketProtocol``, docs/PROTOCOL.md) on a listening Unix stream
/// socket.
///
/// All client I/O is non-blocking and event-driven on one thread (``EventLoop``: level-triggered
/// epoll, as gpsd's `select` loop; Dispatch sources cost a re-arm and a thread hand-over per
/// event); one-off lookups run in tasks off it. The current state is encoded once per change and reader class
/// (``StateCache``): a `now` costs a `recv`, a copy of the encoded bytes with the ages written
/// in, and a `send`. Readers cannot hurt the daemon: a `watch` client holds at most the newest
/// state (a change replaces a state still waiting, so a stuck watcher costs about two lines of
/// memory); a client that takes nothing of its output for ``Settings/sendTimeout`` is
/// disconnected; at most ``Settings/maxClients`` (and never more than the descriptor limit
/// allows) are served; a connection without a request within ``Settings/idleTimeout`` is
/// closed. Writes use `MSG_NOSIGNAL`: a client that leaves is simply dropped.
/// Files: `SocketServer+Accept` (accepting, limits, credentials), `+Routing` (requests),
/// `+Timers` (time-outs, `watch every`), ``SocketClient`` (one connection's I/O).
// `@unchecked Sendable`: a raw receive buffer and the clients, confined to the loop's pthread (checked).
public final class SocketServer: @unchecked Sendable {
    /// A connected client's credentials (`SO_PEERCRED`) and what they entitle it to.
    public struct Peer: Sendable, Equatable {
        public var uid: UInt32
        public var gid: UInt32
        public var pid: Int32
        /// `precise` for root, the daemon's user and members of `PreciseGroup=`.
        public var reader: ReaderClass
        public init(uid: UInt32, gid: UInt32, pid: Int32, reader: ReaderClass) {
            self.uid = uid
            self.gid = gid
            self.pid = pid
            self.reader = reader
        }
    }

    /// What the server asks of the daemon. Called on the server's thread; must not block
    /// (``lookup`` is async and runs off it).
    public struct Handlers: Sendable {
        /// The state to send now, per reader class (it will be stamped with `ageSeconds`).
        public var currentState: @Sendable () -> StateViews
        /// A `now` request arrived from `peer` (when-in-use refresh hook; limited per user).
        public var nowRequested: @Sendable (Peer) -> Void
        /// `authorize` with a status (decide) or `nil` (show); returns the status in force after
        /// it (a decision saved first). Runs off the loop, as a job (``runJobs()``); the
        /// client's later requests wait for it. Only called for a precise reader when deciding.
        public var authorize: @Sendable (AuthorizationStatus?) async -> AuthorizationStatus
        /// The number of `watch` clients changed.
        public var watchersChanged: @Sendable (Int) -> Void
        /// `refresh` from a precise reader.
        public var refresh: @Sendable () -> Void
        /// `status`: the daemon fills all but `counters.clients` and `counters.watchers`.
        public var status: @Sendable () -> SocketProtocol.StatusResponse
        /// `weather …` and `around …`: the whole response line (`WEATHER`, `AROUND` or `ERROR`,
        /// newline included) for `peer`. May wait on the network; the server keeps serving.
        public var lookup: @Sendable (SocketProtocol.Request, Peer) async -> [UInt8]

        public init(
            currentState: @escaping @Sendable () -> StateViews,
            nowRequested: @escaping @Sendable (Peer) -> Void = { _ in },
            authorize: @escaping @Sendable (AuthorizationStatus?) async -> AuthorizationStatus,
            watchersChanged: @escaping @Sendable (Int) -> Void = { _ in },
            refresh: @escaping @Sendable () -> Void = {},
            status: @escaping @Sendable () -> SocketProtocol.StatusResponse = {
                .init(
                    uptimeSeconds: 0, gpsd: .init(server: "", connected: false), authorization: .notDetermined,
                    provider: "", state: .noLocation, counters: .init())
            },
            lookup: @escaping @Sendable (SocketProtocol.Request, Peer) async -> [UInt8] = { _, _ in
                SocketProtocol.line(
                    SocketProtocol.ErrorResponse(.unknownRequest, message: "lookups are not served here"))
            }
        ) {
            self.currentState = currentState
            self.nowRequested = nowRequested
            self.authorize = authorize
            self.watchersChanged = watchersChanged
            self.refresh = refresh
            self.status = status
            self.lookup = lookup
        }
    }

    /// The server's thread: every member below is touched only there.
    let loop: EventLoop
    /// Requests answered off the loop, for ``runJobs()`` (any thread may yield).
    let jobs: AsyncStream<Job>
    let jobSink: AsyncStream<Job>.Continuation
    let listenFD: Int32
    let handlers: Handlers
    let logger: Logger
    /// Changed by ``update(_:)`` on a reload.
    var settings: Settings
    let timer: Timer
    /// The loop was made by the server (no loop given): it stops with it.
    let ownsLoop: Bool
    let wallClock: @Sendable () -> Date
    /// The monotonic clock ages count by (``WundercastSupport/Uptime/now()``), or `nil` (by `wallClock`).
    let uptime: (@Sendable () -> Duration)?
    /// The daemon's effective user id: its peers read precisely.
    let daemonUID = ProcessControl.effectiveUser
    /// One receive buffer for every client (used on the server's thread only).
    let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 16 * 1024, alignment: 16)
    var acceptRegistration: EventLoop.Registration?
    var stopped = false
    var clients: [ObjectIdentifier: SocketClient] = [:]
    var watcherCount = 0
    /// Connections per user, root and the daemon's own user left out.
    var clientsPerUser: [UInt32: Int] = [:]
    /// The encoded state per reader class; made on first use.
    var cache: StateCache?
    /// The newest views ``broadcast(_:)`` has not handed to the loop yet (set by any thread,
    /// taken by the one job on its way): `nil` when none waits.
    let pendingBroadcast = Mutex<StateViews?>(nil)
    /// Accepting is suspended (out of descriptors) until a client leaves or a retry.
    var acceptPaused = false
    /// Since when descriptors ran out (one log line when it starts, one when it ends).
    var exhaustedSince: Duration?
    /// Retries since then (debug log only).
    var exhaustedRetries = 0
    /// When `too-many-clients` was last logged (at most once a minute).
    var lastRefusalLog: Duration?
    /// Wake-ups of ``sweep(scheduledFor:)`` under way.
    var scheduledSweeps: Set<Duration> = []

    /// - Parameters:
    ///   - listenFD: a listening stream socket (from ``UnixSocket/listen(path:backlog:mode:)``
    ///     or socket activation); the server owns it from now on (also when this throws).
    ///   - loop: the event loop that serves the socket and its clients (the daemon's one
    ///     reactor); `nil`: a loop of the server's own, stopped with it (tests).
    ///   - timer: monotonic time for the time-outs and `watch every`; `nil`: the loop's timers
    ///     (tests pass a manual clock).
    ///   - wallClock: the time `ageSeconds` count to.
    ///   - uptime: the daemon's monotonic clock, the one the published moments were stamped on
    ///     (``WundercastSupport/Uptime/now()``): ages count by it, whatever the wall clock does.
    /// - Throws: ``Errno`` when the server's thread cannot be started (`epoll_create1`,
    ///   `eventfd`, `pthread_create`).
    public init(
        listenFD: Int32, handlers: Handlers, logger: Logger = .discard, settings: Settings = .init(),
        loop: EventLoop? = nil, timer: Timer? = nil, wallClock: @escaping @Sendable () -> Date = { Date() },
        uptime: (@Sendable () -> Duration)? = nil
    ) throws(Errno) {
        self.listenFD = listenFD
        self.handlers = handlers
        self.logger = logger
        self.settings = settings
        (jobs, jobSink) = AsyncStream.makeStream(of: Job.self)
        self.wallClock = wallClock
        self.uptime = uptime
        if let loop {
            self.loop = loop
            ownsLoop = false
        } else {
            do throws(Errno) {
                self.loop = try EventLoop(name: "wundercast-sock")
            } catch {
                try? Descriptor.close(listenFD)
                scratch.deallocate()
                throw error
            }
            ownsLoop = true
        }
        self.timer = timer ?? .loop(self.loop)
    }

    deinit {
        if ownsLoop { loop.stop() }
        scratch.deallocate()
    }

    /// Starts accepting clients (on the loop: returns at once).
    public func start() {
        try? Descriptor.setNonBlocking(listenFD)
        loop.post { [self] in
            acceptRegistration = try? loop.register(listenFD, for: .readable) { [weak self] _ in self?.acceptAll() }
        }
    }

    /// Sends the new state to every `watch` client whose options let it through (encoded once
    /// per reader class).
    ///
    /// Latest wins: at most one broadcast waits for the loop at a time, carrying the newest
    /// views; a state that changes again before the loop got to it is sent only as the newer
    /// one. (One job per change let a gpsd flooding TPVs queue jobs faster than a busy loop
    /// ran them: every client's answer waited behind a growing queue.)
    public func broadcast(_ views: StateViews) {
        let first = pendingBroadcast.withLock { pending in
            defer { pending = views }
            return pending == nil
        }
        guard first else { return }
        loop.post {
            guard
                let views = self.pendingBroadcast.withLock({ pending in
                    defer { pending = nil }
                    return pending
                })
            else { return }
            guard !self.stopped else { return }
            if self.cache == nil {
                self.cache = StateCache(views)
            } else {
                self.cache?.update(views)
            }
            self.deliverToWatchers()
        }
    }

    /// Stops accepting, closes the listening descriptor and disconnects every client (lookups
    /// under way are not answered), on the loop: returns at once on a shared loop; a loop of
    /// the server's own ends with it (this then waits for its thread: not to be called on it).
    /// A client with no partly sent line gets `{"class":"ERROR","code":"shutting-down",…}`
    /// first (sent without waiting: a client that does not read misses it), so that a
    /// `watch` knows the daemon is stopping, not broken.
    public func stop() {
        loop.post { [self] in
            guard !stopped else { return }
            stopped = true
            if let acceptRegistration { loop.unregister(acceptRegistration) }
            acceptRegistration = nil
            try? Descriptor.close(listenFD)
            let farewell = SocketProtocol.line(
                SocketProtocol.ErrorResponse(.shuttingDown, message: "wundercastd is stopping"))
            for client in Array(clients.values) {
                if client.pendingBytes == 0 {
                    _ = farewell.withUnsafeBytes { try? StreamIO.send(client.fd, $0, dontWait: true) }
                }
                client.close()
            }
            clients.removeAll()
            jobSink.finish()
        }
        if ownsLoop { loop.stop() }
    }

    /// A reload changed `[Socket]`: the new limits apply from now on (a client already
    /// connected beyond a lowered `MaxClients=` stays).
    public func update(_ settings: Settings) {
        loop.post { self.settings = settings }
    }

    /// Number of connected clients (tests: asked on the loop, which the caller awaits).
    public var clientCount: Int {
        get async { await loop.perform { [self] in clients.count } }
    }

    /// The most output bytes waiting for any one client, its waiting state included (tests).
    public var largestBacklog: Int {
        get async {
            await loop.perform { [self] in
                clients.values.map { $0.pendingBytes + ($0.waitingState?.count ?? 0) }.max() ?? 0
            }
        }
    }

    /// Forgets a closed client; a freed descriptor lets paused accepting go on.
    func remove(_ client: SocketClient) {
        guard clients.removeValue(forKey: ObjectIdentifier(client)) != nil else { return }
        if let count = clientsPerUser[client.peer.uid] {
            clientsPerUser[client.peer.uid] = count > 1 ? count - 1 : nil
        }
        if client.watch != nil {
            watcherCount -= 1
            handlers.watchersChanged(watcherCount)
        }
        if acceptPaused { resumeAccepting() }
    }

    /// Disconnects a client whose answers pile up unread beyond ``Settings/maxPendingBytes``.
    func dropped(_ client: SocketClient, reason: String) {
        logger.warning("dropping a socket client that does not read (\(reason))")
        client.close()
    }
}
