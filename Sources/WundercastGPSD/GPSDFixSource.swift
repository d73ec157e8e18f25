import Synchronization
import WundercastConfiguration
import WundercastModel
import WundercastPOSIX
import WundercastSupport

/// Fixes from gpsd, read on the daemon's event loop.
///
/// Every ``events()`` call opens its own connection to gpsd (`?WATCH={"enable":true,"json":true}`)
/// on the loop given — connected without blocking, read when readable, no thread of its own
/// (``GPSDReader``) —, judges each TPV with ``Fix/init(report:)`` and drops the repeated TPVs of
/// one epoch (``EpochDeduplicator``). A host name (not a numeric address) is looked up off the
/// loop. When gpsd goes away the stream stays open and the reader reconnects with exponential
/// back-off (`initialBackoff`, doubling, at most `maxBackoff`). The back-off starts again at
/// `initialBackoff` only after a *stable* connection: one that stayed open at least
/// `stableAfter` (30 s; or the delay before it, if longer) and delivered an accepted fix (see
/// ``ReconnectSchedule``); gpsd's VERSION banner, a DEVICE report or one TPV before a close do
/// not count.
///
/// Conditions on the stream: ``SourceCondition/connected`` when a connection is connected (a
/// TPV arrived, or it stayed up without error for `connectedAfter`),
/// ``SourceCondition/unreachable(reason:)`` for every failed attempt or lost connection,
/// ``SourceCondition/deviceGone(path:)`` when gpsd reports its receiver gone (then
/// ``SourceCondition/connected`` again if the receiver returns).
///
/// Cancellation and finish: when the consumer stops iterating (its task is cancelled or it
/// drops the iterator), the reader sends `?WATCH={"enable":false,"json":false};` and closes the
/// connection in the loop's next turn; the stream then finishes. It never finishes on its own
/// while the loop runs; on a loop that has ended it finishes at once.
public final class GPSDFixSource: FixSource {
    /// What happened to a connection; see ``onConnectionChange``.
    public enum ConnectionEvent: Sendable, Equatable {
        /// A connection is connected (a TPV arrived, or it stayed up without error for
        /// `connectedAfter`); not sent for a connection that only greeted and then failed.
        case connected
        /// No connection could be made (`reason` is libgps's text for it, as `gps_errstr` gave
        /// for `gps_open`); retrying after a back-off delay.
        case connectFailed(reason: String)
        /// An open connection was lost (gpsd closed it, or a socket error) and was closed;
        /// reconnecting after a back-off delay.
        case disconnected(reason: String)
        /// The consumer stopped: `?WATCH={"enable":false,"json":false};` sent, connection
        /// closed. Last event of a `events()` stream.
        case stopped
    }

    /// gpsd's host; `127.0.0.1` by default, since `localhost` resolves to `::1` first (PITFALLS).
    public let host: String
    /// gpsd's TCP port (2947). `/run/gpsd.sock` is the root-only control socket, not this.
    public let port: Int
    /// The loop the readers run on (the daemon's one reactor).
    public var loop: EventLoop { clock.loop }
    private let logger: Logger
    private let initialBackoff: Duration
    private let maxBackoff: Duration
    private let connectedAfter: Duration
    private let stableAfter: Duration
    private let clock: any LoopClock
    private let lookUp: @Sendable (String, Int) -> Result<[SocketAddress], SocketAddress.LookupError>
    private let lookupLimit: Duration
    private let handler = Mutex<(@Sendable (ConnectionEvent) -> Void)?>(nil)

    /// - Parameters:
    ///   - initialBackoff, maxBackoff: the reconnect delays (doubling from the first to the second).
    ///   - connectedAfter: a connection quiet and error-free this long is `.connected` without a TPV.
    ///   - stableAfter: a connection open this long (or the back-off before it, if longer) with
    ///     an accepted fix starts the back-off over.
    ///   - loop: the event loop the readers run on (the daemon's reactor); its timers on
    ///     `ContinuousClock` measure the back-off and how long a connection has been up.
    public convenience init(
        host: String = "127.0.0.1", port: Int = 2947, logger: Logger = .discard,
        initialBackoff: Duration = .milliseconds(250), maxBackoff: Duration = .seconds(30),
        connectedAfter: Duration = .seconds(10), stableAfter: Duration = .seconds(30), loop: EventLoop
    ) {
        self.init(
            host: host, port: port, logger: logger, initialBackoff: initialBackoff, maxBackoff: maxBackoff,
            connectedAfter: connectedAfter, stableAfter: stableAfter, clock: ContinuousLoopClock(loop: loop))
    }

    /// The same on `clock`'s loop and time (a manual clock in tests: the back-off waits and
    /// the connection's age are measured on it).
    ///
    /// - Parameters:
    ///   - lookUp: the addresses of a host name (tests wrap the real one); runs off the loop.
    ///   - lookupLimit: how long an attempt waits for `lookUp` before it fails.
    public init(
        host: String = "127.0.0.1", port: Int = 2947, logger: Logger = .discard,
        initialBackoff: Duration = .milliseconds(250), maxBackoff: Duration = .seconds(30),
        connectedAfter: Duration = .seconds(10), stableAfter: Duration = .seconds(30), clock: any LoopClock,
        lookUp: @escaping @Sendable (String, Int) -> Result<[SocketAddress], SocketAddress.LookupError> =
            SocketAddress.lookUp(host:port:),
        lookupLimit: Duration = .seconds(10)
    ) {
        self.host = host
        self.port = port
        self.logger = logger
        self.initialBackoff = initialBackoff
        self.maxBackoff = maxBackoff
        self.connectedAfter = connectedAfter
        self.stableAfter = stableAfter
        self.clock = clock
        self.lookUp = lookUp
        self.lookupLimit = lookupLimit
    }

    /// Readers running, and tasks waiting in ``readersEnded()``.
    private let running = Mutex<(count: Int, waiters: [CheckedContinuation<Void, Never>])>((0, []))

    /// Suspends until every reader has ended — after its consumer stopped, it sends
    /// `?WATCH={"enable":false,"json":false};` and closes the connection (in the loop's next
    /// turn). For a clean stop.
    public func readersEnded() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = running.withLock { r -> Bool in
                if r.count == 0 { return true }
                r.waiters.append(continuation)
                return false
            }
            if done { continuation.resume() }
        }
    }

    private func readerEnded() {
        let waiters = running.withLock { r -> [CheckedContinuation<Void, Never>] in
            r.count -= 1
            guard r.count == 0 else { return [] }
            defer { r.waiters = [] }
            return r.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Called on the loop's thread on every connection change of every stream (for
    /// `sd_notify` STATUS, or tests). Must return quickly and must not block.
    public var onConnectionChange: (@Sendable (ConnectionEvent) -> Void)? {
        get { handler.withLock { $0 } }
        set { handler.withLock { $0 = newValue } }
    }

    /// Opens one gpsd connection for this stream; see the type's documentation.
    ///
    /// Buffers the newest 1024 events for a slow consumer and drops older ones: a position is
    /// only worth its latest value.
    public func events() -> AsyncStream<FixSourceEvent> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: FixSourceEvent.self, bufferingPolicy: .bufferingNewest(1024))
        let configuration = GPSDReader.Configuration(
            host: host, port: port, logger: logger, initialBackoff: initialBackoff, maxBackoff: maxBackoff,
            connectedAfter: connectedAfter, stableAfter: stableAfter, clock: clock, lookUp: lookUp,
            lookupLimit: lookupLimit)
        // Holds the source while the reader runs, so a handler set later is still seen.
        let notify: @Sendable (ConnectionEvent) -> Void = { [self] event in
            onConnectionChange?(event)
        }
        running.withLock { $0.count += 1 }
        let reader = GPSDReader(
            configuration: configuration, continuation: continuation, notify: notify,
            ended: { [self] in readerEnded() })
        let loop = self.loop
        // The loop runs the posts in order: the stop of a consumer that leaves at once follows the start.
        guard loop.post({ reader.start() }) else {
            // The loop has ended (the daemon is stopping): no reader will ever run.
            continuation.finish()
            notify(.stopped)
            readerEnded()
            return stream
        }
        continuation.onTermination = { _ in
            loop.post { reader.stop() }
        }
        return stream
    }
}
