import Synchronization
import WundercastSupport
import WundercastModel
import WundercastConfiguration

#if canImport(Glibc)
import Glibc
#endif

/// Fixes from gpsd, read through libgps.
///
/// Every ``events()`` call opens its own connection to gpsd (`?WATCH={"enable":true,"json":true}`)
/// on a dedicated thread, judges each TPV with ``Fix/init(report:)`` and drops the repeated
/// TPVs of one epoch (``EpochDeduplicator``). When gpsd goes away the stream stays open and
/// the thread reconnects with exponential back-off (`initialBackoff`, doubling, at most
/// `maxBackoff`). The back-off starts again at `initialBackoff` only after a *stable*
/// connection: one that stayed open at least `stableAfter` (30 s; or the delay before it, if
/// longer) and delivered an accepted fix (see ``ReconnectSchedule``); gpsd's VERSION banner,
/// a DEVICE report or one TPV before a close do not count.
///
/// Conditions on the stream: ``SourceCondition/connected`` when a connection is connected (a
/// TPV arrived, or it stayed up without error for `connectedAfter`),
/// ``SourceCondition/unreachable(reason:)`` for every failed attempt or lost connection,
/// ``SourceCondition/deviceGone(path:)`` when gpsd reports its receiver gone (then
/// ``SourceCondition/connected`` again if the receiver returns).
///
/// Cancellation and finish: when the consumer stops iterating (its task is cancelled or it
/// drops the iterator), the thread sends `?WATCH={"enable":false}`, closes the connection and
/// ends within about 200 ms; the stream then finishes. It never finishes on its own.
public final class GPSDFixSource: FixSource {
    /// What happened to a connection; see ``onConnectionChange``.
    public enum ConnectionEvent: Sendable, Equatable {
        /// A connection is connected (a TPV arrived, or it stayed up without error for
        /// `connectedAfter`); not sent for a connection that only greeted and then failed.
        case connected
        /// `gps_open` failed (`reason` from `gps_errstr`); retrying after a back-off delay.
        case connectFailed(reason: String)
        /// An open connection was lost (gpsd closed it, or a socket error) and was closed;
        /// reconnecting after a back-off delay.
        case disconnected(reason: String)
        /// The consumer stopped: `?WATCH={"enable":false}` sent, connection closed, the
        /// reader thread is ending. Last event of a `events()` stream.
        case stopped
    }

    /// gpsd's host; `127.0.0.1` by default, since `localhost` resolves to `::1` first (PITFALLS).
    public let host: String
    /// gpsd's TCP port (2947). `/run/gpsd.sock` is the root-only control socket, not this.
    public let port: Int
    private let logger: Logger
    private let initialBackoff: Duration
    private let maxBackoff: Duration
    private let connectedAfter: Duration
    private let stableAfter: Duration
    private let clock: ReaderClock
    private let handler = Mutex<(@Sendable (ConnectionEvent) -> Void)?>(nil)

    /// Starts a reader thread: ``ReaderThread/start(name:_:)``, or a stand-in that fails (tests).
    typealias ThreadStarter =
        @Sendable (String, @escaping @Sendable () -> Void) -> Result<Void, ReaderThread.StartError>
    private let startThread: ThreadStarter

    /// - Parameters:
    ///   - initialBackoff, maxBackoff: the reconnect delays (doubling from the first to the second).
    ///   - connectedAfter: a connection quiet and error-free this long is `.connected` without a TPV.
    ///   - stableAfter: a connection open this long (or the back-off before it, if longer) with
    ///     an accepted fix starts the back-off over.
    public convenience init(
        host: String = "127.0.0.1", port: Int = 2947, logger: Logger = .discard,
        initialBackoff: Duration = .milliseconds(250), maxBackoff: Duration = .seconds(30),
        connectedAfter: Duration = .seconds(10), stableAfter: Duration = .seconds(30)
    ) {
        self.init(
            host: host, port: port, logger: logger, initialBackoff: initialBackoff, maxBackoff: maxBackoff,
            connectedAfter: connectedAfter, stableAfter: stableAfter, readerClock: .continuous,
            startThread: ReaderThread.start(name:_:))
    }

    /// The same, on `clock` instead of the monotonic clock (a manual clock in tests): how long a
    /// connection has been up and the back-off waits are measured on it.
    public convenience init<C: Clock>(
        host: String = "127.0.0.1", port: Int = 2947, logger: Logger = .discard,
        initialBackoff: Duration = .milliseconds(250), maxBackoff: Duration = .seconds(30),
        connectedAfter: Duration = .seconds(10), stableAfter: Duration = .seconds(30), clock: C
    ) where C.Duration == Duration {
        self.init(
            host: host, port: port, logger: logger, initialBackoff: initialBackoff, maxBackoff: maxBackoff,
            connectedAfter: connectedAfter, stableAfter: stableAfter, readerClock: ReaderClock(clock),
            startThread: ReaderThread.start(name:_:))
    }

    /// The same with a stand-in for thread creation (tests: a `pthread_create` that fails).
    convenience init(
        host: String, port: Int, logger: Logger, initialBackoff: Duration, maxBackoff: Duration,
        startThread: @escaping ThreadStarter
    ) {
        self.init(
            host: host, port: port, logger: logger, initialBackoff: initialBackoff, maxBackoff: maxBackoff,
            connectedAfter: .seconds(10), stableAfter: .seconds(30), readerClock: .continuous,
            startThread: startThread)
    }

    private init(
        host: String, port: Int, logger: Logger, initialBackoff: Duration, maxBackoff: Duration,
        connectedAfter: Duration, stableAfter: Duration, readerClock: ReaderClock,
        startThread: @escaping ThreadStarter
    ) {
        self.host = host
        self.port = port
        self.logger = logger
        self.initialBackoff = initialBackoff
        self.maxBackoff = maxBackoff
        self.connectedAfter = connectedAfter
        self.stableAfter = stableAfter
        self.clock = readerClock
        self.startThread = startThread
    }

    /// Reader threads running, and tasks waiting in ``readersEnded()``.
    private let running = Mutex<(count: Int, waiters: [CheckedContinuation<Void, Never>])>((0, []))

    /// Suspends until every reader thread has ended — after its consumer stopped, it sends
    /// `?WATCH={"enable":false}` and closes the connection (within about 200 ms). For a clean stop.
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

    /// Called on the reader thread on every connection change of every stream (for
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
        Self.ignoreSIGPIPE()
        let (stream, continuation) = AsyncStream.makeStream(
            of: FixSourceEvent.self, bufferingPolicy: .bufferingNewest(1024))
        let stop = StopFlag()
        continuation.onTermination = { _ in stop.request() }
        let configuration = GPSDReader.Configuration(
            host: host, port: port, logger: logger, initialBackoff: initialBackoff, maxBackoff: maxBackoff,
            connectedAfter: connectedAfter, stableAfter: stableAfter, clock: clock)
        // Holds the source while the thread runs, so a handler set later is still seen.
        let notify: @Sendable (ConnectionEvent) -> Void = { [self] event in
            onConnectionChange?(event)
        }
        // libgps is blocking C: keep it off Swift's cooperative thread pool (PITFALLS).
        running.withLock { $0.count += 1 }
        let body: @Sendable () -> Void = { [self] in
            GPSDReader(configuration: configuration, continuation: continuation, stop: stop, notify: notify).run()
            readerEnded()
        }
        if case .failure(let error) = startThread("wundercast-gpsd", body) {
            // Under a task or address-space limit (TasksMax=, LimitAS=) `pthread_create` fails
            // with EAGAIN; the limit may be reached only for a while: try again with back-off
            // while the consumer reads, as for a gpsd that cannot be reached.
            reportThreadFailure(error, continuation: continuation, notify: notify)
            retryStart(
                body, backoff: Backoff(initial: initialBackoff, maximum: maxBackoff), stop: stop,
                continuation: continuation, notify: notify)
        }
        return stream
    }

    private func reportThreadFailure(
        _ error: ReaderThread.StartError, continuation: AsyncStream<FixSourceEvent>.Continuation,
        notify: @Sendable (ConnectionEvent) -> Void
    ) {
        let reason = "cannot start the gpsd reader thread: \(String(cString: strerror(error.code)))"
        continuation.yield(.condition(.unreachable(reason: reason)))
        notify(.connectFailed(reason: reason))
    }

    /// Starts `body` on a reader thread after each back-off delay (``Backoff``, as for
    /// reconnects) until it starts or the consumer stops; the failure is logged once, each
    /// retry at debug level. A Swift task waits between attempts: it needs no new thread.
    private func retryStart(
        _ body: @escaping @Sendable () -> Void, backoff: Backoff, stop: StopFlag,
        continuation: AsyncStream<FixSourceEvent>.Continuation, notify: @escaping @Sendable (ConnectionEvent) -> Void
    ) {
        logger.warning("cannot start the gpsd reader thread (a task or memory limit?); retrying with back-off")
        let retries = Task { [self] in
            var attempt = 1
            while !stop.isRequested {
                try? await Task.sleep(for: backoff.delay(attempt: attempt))
                guard !stop.isRequested else { break }
                switch startThread("wundercast-gpsd", body) {
                case .success:
                    logger.info("gpsd reader thread started after \(attempt) retries")
                    return
                case .failure(let error):
                    logger.debug("gpsd reader thread: retry \(attempt) failed (\(error.code))")
                    reportThreadFailure(error, continuation: continuation, notify: notify)
                    attempt += 1
                }
            }
            // The consumer stopped before a thread ran: no reader will end the stream.
            continuation.finish()
            notify(.stopped)
            readerEnded()
        }
        // A consumer that stops ends the wait at once (not after up to `maxBackoff`).
        continuation.onTermination = { _ in
            stop.request()
            retries.cancel()
        }
    }

    /// `gps_stream` writes to the socket, and with gpsd gone that raises SIGPIPE, which would
    /// kill the daemon (PITFALLS): ignore it, once per process (a `static let` runs once).
    private static let sigpipeIgnored: Void = {
        _ = signal(SIGPIPE, SIG_IGN)
    }()

    private static func ignoreSIGPIPE() {
        _ = sigpipeIgnored
    }
}
