import WundercastConfiguration
import WundercastPOSIX

extension SocketServer {
    /// The limits of `[Socket]` (etc/wundercast.conf) and who reads precisely.
    public struct Settings: Sendable {
        /// `MaxClients=`: connections served at once; one more gets a `too-many-clients` line
        /// and is closed. Also capped by the descriptor limit: a client whose descriptor would take
        /// one of the ``WundercastPOSIX/DescriptorReserve`` is refused the same way.
        public var maxClients: Int
        /// Connections one user (other than root and the daemon's own) may have at once, so
        /// that no user can take every place of `MaxClients=`: a quarter of it, at least 8.
        public var maxClientsPerUser: Int
        /// `IdleTimeout=`: a connection without a first request within this span gets an
        /// `idle-timeout` line and is closed.
        public var idleTimeout: Duration
        /// `SendTimeout=`: a client that takes nothing of its waiting output for this span is
        /// disconnected.
        public var sendTimeout: Duration
        /// The group id of `PreciseGroup=` (its members read precisely); `nil`: nobody beyond
        /// root and the daemon's own user.
        public var preciseGroupID: UInt32?
        /// The name of `PreciseGroup=`, for the `not-permitted` message; `nil`: no group.
        public var preciseGroupName: String?
        /// One-off lookups (`weather`, `around`) one connection may have under way; one more
        /// is answered `rate-limited`.
        public var maxLookupsInFlight: Int
        /// Direct answers (not states) that may wait for one client, in bytes; beyond, it is
        /// disconnected.
        public var maxPendingBytes: Int

        public init(
            maxClients: Int = 256, maxClientsPerUser: Int? = nil, idleTimeout: Duration = .seconds(10),
            sendTimeout: Duration = .seconds(60),
            preciseGroupID: UInt32? = nil, preciseGroupName: String? = nil, maxLookupsInFlight: Int = 4,
            maxPendingBytes: Int = 1 << 20
        ) {
            self.preciseGroupName = preciseGroupName
            self.maxClients = maxClients
            self.maxClientsPerUser = maxClientsPerUser ?? max(8, maxClients / 4)
            self.idleTimeout = idleTimeout
            self.sendTimeout = sendTimeout
            self.preciseGroupID = preciseGroupID
            self.maxLookupsInFlight = maxLookupsInFlight
            self.maxPendingBytes = maxPendingBytes
        }

        /// The settings of `[Socket]`, with `PreciseGroup=` already resolved to its id.
        public init(_ socket: Configuration.Socket, preciseGroupID: UInt32?) {
            self.init(
                maxClients: socket.maxClients, idleTimeout: socket.idleTimeout, sendTimeout: socket.sendTimeout,
                preciseGroupID: preciseGroupID, preciseGroupName: preciseGroupID == nil ? nil : socket.preciseGroup)
        }
    }

    /// The server's monotonic time and its wake-ups: the event loop's timers in the daemon
    /// (``loop(_:)``); tests drive time with a manual clock (a `Timer` of their own, ``init(now:wake:)``). Times are spans
    /// since an arbitrary origin.
    public struct Timer: Sendable {
        /// Monotonic time now.
        public var now: @Sendable () -> Duration
        /// Calls `work` (on any thread) once ``now`` has reached `deadline`; no cancellation
        /// (the server ignores a wake-up that is no longer needed).
        public var wake: @Sendable (_ deadline: Duration, _ work: @escaping @Sendable () -> Void) -> Void

        public init(
            now: @escaping @Sendable () -> Duration,
            wake: @escaping @Sendable (Duration, @escaping @Sendable () -> Void) -> Void
        ) {
            self.now = now
            self.wake = wake
        }

        /// `ContinuousClock` and the timers of `loop` (the daemon's one reactor, the server's
        /// own loop): a wake-up runs on the loop's thread, no other thread is involved.
        public static func loop(_ loop: EventLoop) -> Timer {
            let origin = ContinuousClock.now
            return Timer(
                now: { origin.duration(to: .now) },
                wake: { deadline, work in
                    loop.post { loop.schedule(at: origin + deadline, work) }
                })
        }
    }
}
