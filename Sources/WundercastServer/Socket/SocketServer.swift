#if canImport(Glibc)
import Glibc
#endif
import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WundercastCore
import WundercastPOSIX

/// Serves the line protocol (``SocketProtocol``, docs/PROTOCOL.md) on a listening Unix stream
/// socket.
///
/// All client I/O is non-blocking and event-driven on one serial queue; one-off lookups run in
/// tasks off it. The current state is encoded once per change and reader class
/// (``StateCache``): a `now` costs a `recv`, a copy of the encoded bytes with the ages written
/// in, and a `send`. Readers cannot hurt the daemon: a `watch` client holds at most the newest
/// state (a change replaces a state still waiting, so a stuck watcher costs about two lines of
/// memory); a client that takes nothing of its output for ``Settings/sendTimeout`` is
/// disconnected; at most ``Settings/maxClients`` (and never more than the descriptor limit
/// allows) are served; a connection without a request within ``Settings/idleTimeout`` is
/// closed. Writes use `MSG_NOSIGNAL`: a client that leaves is simply dropped.
/// Files: `SocketServer+Accept` (accepting, limits, credentials), `+Routing` (requests),
/// `+Timers` (time-outs, `watch every`), ``SocketClient`` (one connection's I/O).
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

    /// What the server asks of the daemon. Called on the server's queue; must not block
    /// (``lookup`` is async and runs off the queue).
    public struct Handlers: Sendable {
        /// The state to send now, per reader class (it will be stamped with `ageSeconds`).
        public var currentState: @Sendable () -> StateViews
        /// A `now` request arrived (when-in-use refresh hook).
        public var nowRequested: @Sendable () -> Void
        /// `authorize` with a status (decide) or `nil` (show); returns the status in force after it.
        /// Only called for a precise reader when deciding.
        public var authorize: @Sendable (AuthorizationStatus?) -> AuthorizationStatus
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
            currentState: @escaping @Sendable () -> StateViews, nowRequested: @escaping @Sendable () -> Void = {},
            authorize: @escaping @Sendable (AuthorizationStatus?) -> AuthorizationStatus,
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

    let queue = DispatchQueue(label: "wundercast.socket")
    let listenFD: Int32
    let handlers: Handlers
    let logger: Logger
    let settings: Settings
    let timer: Timer
    let wallClock: @Sendable () -> Date
    /// The daemon's effective user id: its peers read precisely.
    let daemonUID = geteuid()
    /// One receive buffer for every client (used on the queue only).
    let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 16 * 1024, alignment: 16)
    var acceptSource: DispatchSourceRead?
    var stopped = false
    private let listenClosed = DispatchSemaphore(value: 0)
    var clients: [ObjectIdentifier: SocketClient] = [:]
    var watcherCount = 0
    /// The encoded state per reader class; made on first use.
    var cache: StateCache?
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
    ///     or socket activation); the server owns it from now on.
    ///   - timer: monotonic time for the time-outs and `watch every` (tests pass a manual clock).
    ///   - wallClock: the time `ageSeconds` count to.
    public init(
        listenFD: Int32, handlers: Handlers, logger: Logger = .discard, settings: Settings = .init(),
        timer: Timer = .dispatch, wallClock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.listenFD = listenFD
        self.handlers = handlers
        self.logger = logger
        self.settings = settings
        self.timer = timer
        self.wallClock = wallClock
    }

    deinit { scratch.deallocate() }

    /// Starts accepting clients.
    public func start() {
        try? Descriptor.setNonBlocking(listenFD)
        let source = DispatchSource.makeReadSource(fileDescriptor: listenFD, queue: queue)
        source.setEventHandler { [weak self] in self?.acceptAll() }
        // The descriptor stays open until the source is done with it (Dispatch's rule).
        let fd = listenFD
        let closed = listenClosed
        source.setCancelHandler {
            try? Descriptor.close(fd)
            closed.signal()
        }
        source.resume()
        queue.sync { acceptSource = source }
    }

    /// Sends the new state to every `watch` client whose options let it through (encoded once
    /// per reader class).
    public func broadcast(_ views: StateViews) {
        queue.async {
            guard !self.stopped else { return }
            if self.cache == nil {
                self.cache = StateCache(views)
            } else {
                self.cache?.update(views)
            }
            self.deliverToWatchers()
        }
    }

    /// Stops accepting and disconnects every client (lookups under way are not answered).
    /// Returns once the listening descriptor is closed. Not to be called on the server's queue.
    public func stop() {
        let wasListening = queue.sync { () -> Bool in
            guard !stopped else { return false }
            stopped = true
            if acceptPaused { acceptSource?.resume() }
            let listening = acceptSource != nil
            if !listening { try? Descriptor.close(listenFD) }  // never started: no source owns the descriptor
            acceptSource?.cancel()
            acceptSource = nil
            for client in Array(clients.values) { client.close() }
            clients.removeAll()
            return listening
        }
        if wasListening { _ = listenClosed.wait(timeout: .now() + 5) }
    }

    /// Number of connected clients (tests).
    public var clientCount: Int { queue.sync { clients.count } }

    /// The most output bytes waiting for any one client, its waiting state included (tests).
    public var largestBacklog: Int {
        queue.sync { clients.values.map { $0.pendingBytes + ($0.waitingState?.count ?? 0) }.max() ?? 0 }
    }

    /// Forgets a closed client; a freed descriptor lets paused accepting go on.
    func remove(_ client: SocketClient) {
        guard clients.removeValue(forKey: ObjectIdentifier(client)) != nil else { return }
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
