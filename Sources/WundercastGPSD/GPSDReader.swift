import WundercastModel
import WundercastPOSIX
import WundercastSupport

/// One connection to gpsd for one `events()` call, reconnected with back-off until the consumer
/// stops: a state machine on the daemon's event loop, driven by the loop's events (the socket
/// became writable or readable, a timer fired, a name lookup answered, the consumer stopped).
/// No thread of its own, no blocking call, no polling.
///
/// The states (``State``), one handler per event:
///
///     idle ──start──▶ (host a name: resolving ──addresses──▶) connecting ──connected, WATCH sent──▶ streaming
///     resolving ──no address / no answer in lookupLimit──▶ backingOff
///     connecting ──every address refused, or ?WATCH not taken──▶ backingOff
///     streaming ──EOF, error, overlong line──▶ (close) backingOff ──delay elapsed──▶ resolving or connecting
///     any state ──stop──▶ (WATCH disable when streaming, unregister, close) finished
///
/// A streaming connection is reported `.connected` (and ends an outage) once
/// ``ReconnectSchedule`` judges it connected: a TPV arrived, or it stayed up without error for
/// `connectedAfter` (a timer looks then). Failures keep counting and the back-off keeps growing
/// until a connection is stable: open for `stableAfter` (or the back-off before it, if longer)
/// with an accepted fix (a timer looks then, and every line after).
///
/// Confinement: every member is touched only on ``Configuration/clock``'s loop, checked at each
/// entry point (`preconditionOnLoop`), which is what makes the `@unchecked Sendable` true. The
/// one piece of work off the loop is a host name's lookup (`getaddrinfo` blocks): a detached
/// task of its own, at most one per reader at a time, waited for at most
/// ``Configuration/lookupLimit``; its answer comes back through `EventLoop.post`.
// `@unchecked Sendable`: its connection holds libgps's `gps_data_t` (C); all on the loop only.
final class GPSDReader: @unchecked Sendable {
    struct Configuration: Sendable {
        var host: String
        var port: Int
        var logger: Logger
        var initialBackoff: Duration
        var maxBackoff: Duration
        /// A connection that stays up without error this long is connected even without a TPV.
        var connectedAfter: Duration
        /// A connection with an accepted fix that stays up this long (or the back-off before
        /// it, if longer) starts the back-off over.
        var stableAfter: Duration
        /// The loop everything runs on, and its time (a manual clock in tests).
        var clock: any LoopClock
        /// The addresses of a host name (``WundercastPOSIX/SocketAddress/lookUp(host:port:)``;
        /// tests wrap it). Blocks: run off the loop only.
        var lookUp: @Sendable (String, Int) -> Result<[SocketAddress], SocketAddress.LookupError>
        /// How long an attempt waits for a lookup before it fails as "can't get host entry".
        var lookupLimit: Duration
    }

    private enum State {
        /// Made; ``start()`` not yet run.
        case idle
        /// Waiting for the lookup of a host name (a timer ends the wait after `lookupLimit`).
        case resolving(limit: LoopTimer)
        /// A non-blocking connect is under way; `remaining` are the addresses to try after it.
        case connecting(EventLoop.Registration, remaining: ArraySlice<SocketAddress>)
        /// `?WATCH` sent; reading lines on readability.
        case streaming(EventLoop.Registration)
        /// Waiting for the back-off timer before the next attempt.
        case backingOff(LoopTimer)
        /// Released; nothing happens any more.
        case finished
    }

    /// Timer names (a test on a manual clock finds the back-off waits by theirs).
    static let backoffTimer = "gpsd back-off"
    static let connectedTimer = "gpsd connected after"
    static let stableTimer = "gpsd stable after"
    static let lookupTimer = "gpsd lookup limit"

    /// Lines handled per readable event before other work on the loop gets a turn (the rest
    /// follow in a posted turn: buffered lines are not seen by epoll).
    static let linesPerTurn = 256

    /// Journal field carrying the back-off delay of a failed attempt, in milliseconds.
    static let retryDelayField = "WUNDERCAST_GPSD_RETRY_MS"

    private let configuration: Configuration
    private let continuation: AsyncStream<FixSourceEvent>.Continuation
    private let notify: @Sendable (GPSDFixSource.ConnectionEvent) -> Void
    /// Called once, on the loop, when the reader has finished (after `.stopped`).
    private let ended: @Sendable () -> Void

    private let connection = GPSDConnection()
    private var state = State.idle
    private var schedule: ReconnectSchedule
    /// `host` as an address when it is numeric: no lookup at all then.
    private let numericAddress: SocketAddress?
    /// When the current connection was opened, on ``clock`` (for ``ReconnectSchedule``).
    private var openedAt: Duration?
    /// The connected-after and stable-after timers of the current connection.
    private var connectionTimers: [LoopTimer] = []
    /// Counts connections, so a turn posted for one never reads another.
    private var connectionNumber = 0
    /// A lookup task is running (one at most: a later attempt waits for the same answer).
    private var lookupInFlight = false
    private var deduplicator = EpochDeduplicator()
    /// True from the first failure until a connection is connected again: the outage is logged
    /// once with `MessageID.gpsdDisconnected`, its retries only at debug level.
    private var inOutage = false
    /// Whether any connection of this stream has been connected (the first one is logged).
    private var everConnected = false
    /// Whether `.deviceGone` was reported on this connection, so a returning device is news.
    private var deviceGone = false

    init(
        configuration: Configuration, continuation: AsyncStream<FixSourceEvent>.Continuation,
        notify: @escaping @Sendable (GPSDFixSource.ConnectionEvent) -> Void, ended: @escaping @Sendable () -> Void
    ) {
        self.configuration = configuration
        self.continuation = continuation
        self.notify = notify
        self.ended = ended
        numericAddress = SocketAddress(numericHost: configuration.host, port: configuration.port)
        schedule = ReconnectSchedule(
            backoff: Backoff(initial: configuration.initialBackoff, maximum: configuration.maxBackoff),
            connectedAfter: configuration.connectedAfter, stableAfter: configuration.stableAfter)
    }

    private var clock: any LoopClock { configuration.clock }
    private var loop: EventLoop { configuration.clock.loop }
    private var logger: Logger { configuration.logger }
    private var server: String { "\(configuration.host):\(configuration.port)" }

    // MARK: - Events

    /// idle → the first attempt. Loop thread only.
    func start() {
        loop.preconditionOnLoop()
        guard case .idle = state else { return }
        attempt()
    }

    /// The consumer stopped (or the stream ended): any state → finished. Sends
    /// `?WATCH={"enable":false,"json":false};` when streaming, unregisters and closes the
    /// socket, cancels the timers, finishes the stream, reports `.stopped`. Idempotent. Loop
    /// thread only.
    func stop() {
        loop.preconditionOnLoop()
        switch state {
        case .finished:
            return
        case .idle:
            break
        case .resolving(let limit):
            // The lookup task may still run; its answer finds the reader finished.
            clock.cancel(limit)
        case .connecting(let registration, _), .streaming(let registration):
            loop.unregister(registration)
        case .backingOff(let timer):
            clock.cancel(timer)
        }
        cancelConnectionTimers()
        connection.release()
        state = .finished
        logger.debug("gpsd \(server): released")
        continuation.finish()
        notify(.stopped)
        ended()
    }

    /// The socket of a connecting or streaming connection is ready.
    private func socketReady(_ events: EventLoop.Events) {
        switch state {
        case .connecting(let registration, let remaining): connectFinished(registration, remaining: remaining)
        case .streaming: readLines(hungUp: !events.isDisjoint(with: .hangUp))
        default: break
        }
    }

    // MARK: - Connecting

    /// closed → resolving (a host name) or connecting (a numeric address).
    private func attempt() {
        if let numericAddress {
            connect(to: [numericAddress][...], failure: nil)
        } else {
            resolve()
        }
    }

    /// Waits for the addresses of the host name, looked up off the loop (`getaddrinfo` blocks
    /// in DNS): by a task started now, or by the one still running for an earlier attempt that
    /// gave up on it. A timer ends the wait after `lookupLimit`.
    private func resolve() {
        let limit = clock.schedule(at: clock.now + configuration.lookupLimit, name: Self.lookupTimer) { [self] in
            lookupTimedOut()
        }
        state = .resolving(limit: limit)
        guard !lookupInFlight else {
            logger.debug("gpsd \(server): waiting for the lookup still under way")
            return
        }
        lookupInFlight = true
        let (host, port, lookUp, loop) = (configuration.host, configuration.port, configuration.lookUp, loop)
        // Detached: no task owns the reader (the loop does), and the lookup must not inherit
        // a caller's actor or priority. It cannot be cancelled (getaddrinfo); it ends on its own.
        Task.detached(name: "gpsd address lookup") { [self] in
            let result = lookUp(host, port)
            loop.post { [self] in lookedUp(result) }
        }
    }

    /// The lookup answered: resolving → connecting, or → backingOff. An answer that comes
    /// after the attempt gave up, or after the stop, is dropped.
    private func lookedUp(_ result: Result<[SocketAddress], SocketAddress.LookupError>) {
        loop.preconditionOnLoop()
        lookupInFlight = false
        guard case .resolving(let limit) = state else { return }
        clock.cancel(limit)
        switch result {
        case .success(let addresses):
            logger.debug("gpsd \(server): \(configuration.host) is \(addresses.map(\.description))")
            connect(to: addresses[...], failure: nil)
        case .failure(let error):
            connectFailed(.noHost("getaddrinfo(\(configuration.host)): \(error)"))
        }
    }

    /// resolving → backingOff: no answer within `lookupLimit`.
    private func lookupTimedOut() {
        guard case .resolving = state else { return }
        connectFailed(.noHost("getaddrinfo(\(configuration.host)): no answer within \(configuration.lookupLimit)"))
    }

    /// Tries `addresses` in order, as `gps_open` did (`netlib_connectsock`: the next address
    /// when one fails): connected → streaming, in progress → connecting; when every address
    /// failed → backingOff with the last failure (`failure`: of an earlier address).
    private func connect(to addresses: ArraySlice<SocketAddress>, failure: GPSDConnectionError?) {
        var remaining = addresses
        var failure = failure
        while let address = remaining.popFirst() {
            switch connection.connect(to: address) {
            case .connected:
                guard let registration = register(for: .readable) else { return }
                opened(registration)
                return
            case .inProgress:
                guard let registration = register(for: .writable) else { return }
                state = .connecting(registration, remaining: remaining)
                return
            case .failed(let error):
                logger.debug("gpsd \(server): \(error.cause)")
                failure = error
            }
        }
        connectFailed(failure ?? .noConnect("no address"))
    }

    /// Registers the new socket on the loop; `nil` (and the attempt failed) when epoll refuses.
    private func register(for events: EventLoop.Events) -> EventLoop.Registration? {
        do throws(Errno) {
            return try loop.register(connection.fd, for: events) { [self] ready in socketReady(ready) }
        } catch {
            connection.close()
            connectFailed(.noConnect(error.description))
            return nil
        }
    }

    /// The connecting socket became writable: connected → streaming, or the next address.
    private func connectFinished(_ registration: EventLoop.Registration, remaining: ArraySlice<SocketAddress>) {
        switch connection.finishConnecting() {
        case .success:
            loop.modify(registration, for: .readable)
            opened(registration)
        case .failure(let error):
            loop.unregister(registration)
            connection.close()
            logger.debug("gpsd \(server): \(error.cause)")
            connect(to: remaining, failure: error)
        }
    }

    /// No connection: → backingOff. Never a read after a failed connect (PITFALLS): the
    /// connection stays closed.
    private func connectFailed(_ error: GPSDConnectionError) {
        notify(.connectFailed(reason: error.reason))
        outage("cannot reach gpsd at \(server): \(error.reason)")
    }

    /// Connected (what a successful `gps_open` was): sends `?WATCH`, → streaming, or → backingOff.
    private func opened(_ registration: EventLoop.Registration) {
        schedule.opened()
        let now = clock.now
        openedAt = now
        deviceGone = false
        connectionNumber += 1
        guard connection.startStreaming() else {
            loop.unregister(registration)
            connection.close()
            notify(.disconnected(reason: "sending ?WATCH failed"))
            outage("gpsd at \(server) refused ?WATCH")
            return
        }
        state = .streaming(registration)
        logger.debug("gpsd \(server): watching")
        // Silence is not a disconnect (PITFALLS: gpsd keeps clients when a device goes): a
        // connection quiet and error-free for `connectedAfter` is connected, and one with a fix
        // stable after `stableFor`, even when no line comes then.
        connectionTimers = [
            clock.schedule(at: now + configuration.connectedAfter, name: Self.connectedTimer) { [self] in
                quietFor()
            },
            clock.schedule(at: now + schedule.stableFor, name: Self.stableTimer) { [self] in quietFor() },
        ]
    }

    // MARK: - Streaming

    /// Reads every complete line there is now, at most ``linesPerTurn`` in one turn of the loop.
    private func readLines(hungUp: Bool) {
        guard case .streaming = state else { return }
        for _ in 0..<Self.linesPerTurn {
            switch connection.read() {
            case .incomplete:
                // Half a line (PITFALLS) or nothing: back to epoll, no spinning. A hang-up that
                // left nothing to read would be reported again at once: it ends the connection.
                if hungUp { lose("the connection hung up") }
                return
            case .failed(let reason):
                lose(reason)
                return
            case .message(let message):
                handle(message)
                guard case .streaming = state else { return }
            }
        }
        // More lines may be buffered, which epoll does not see: they come in a turn of their own.
        let number = connectionNumber
        loop.post { [self] in
            guard case .streaming = state, connectionNumber == number else { return }
            readLines(hungUp: false)
        }
    }

    private func handle(_ message: GPSDConnection.Message) {
        switch message {
        case .position(let report):
            let fix = Fix(report: report)
            observe(fix == nil ? .tpv : .fix)
            // The deduplicator's arrival times are on the monotonic clock (a time-less TPV's epoch).
            guard let fix, let published = deduplicator.admit(fix, at: ContinuousClock.now) else { return }
            if case .terminated = continuation.yield(.fix(published)) { stop() }
        case .tpvWithoutPosition:
            observe(.tpv)
        case .deviceDeactivated(let path):
            observe(.other)
            // gpsd keeps the client connection open when a device goes (PITFALLS): keep reading,
            // but tell the consumer, whose fix now ages.
            // Logged before the event is yielded: a consumer that sees it finds the entry.
            deviceGone = true
            logger.log(
                .warning, "gpsd \(server): device \(path) deactivated; waiting for it to return",
                fields: [
                    ("MESSAGE_ID", MessageID.deviceGone), ("WUNDERCAST_GPSD_SERVER", server),
                    ("WUNDERCAST_DEVICE", path),
                ])
            continuation.yield(.condition(.deviceGone(path: path)))
        case .deviceActivated(let path):
            observe(.other)
            logger.debug("gpsd \(server): device \(path) active")
            // A device that returns on a connected connection ends the `.deviceGone` condition.
            if deviceGone, schedule.isConnected {
                deviceGone = false
                continuation.yield(.condition(.connected))
            }
        case .other:
            observe(.other)
        case .malformed:
            // Not gpsd's (gpsd writes one JSON object a line, a TPV's values all plain): skipped,
            // and no sign of health.
            logger.log(
                .debug, "gpsd \(server): skipped a line that is not one JSON object (or a TPV with nested values)")
        }
    }

    /// A connection timer fired: the connection has been up that long without an error.
    private func quietFor() {
        guard case .streaming = state else { return }
        observe(.other)
    }

    /// Feeds the schedule; when the connection has just become connected, reports `.connected`
    /// and ends the outage (if any).
    private func observe(_ evidence: ReconnectSchedule.Evidence) {
        let upFor = openedAt.map { clock.now - $0 } ?? .zero
        guard schedule.observe(evidence, upFor: upFor) else { return }
        continuation.yield(.condition(.connected))
        notify(.connected)
        let fields = [("MESSAGE_ID", MessageID.gpsdConnected), ("WUNDERCAST_GPSD_SERVER", server)]
        if !everConnected {
            logger.log(.info, "gpsd \(server): connected", fields: fields)
        } else if inOutage {
            logger.log(.info, "gpsd \(server): connected again", fields: fields)
        }
        inOutage = false
        everConnected = true
    }

    /// streaming → (unregister, close) → backingOff.
    private func lose(_ reason: String) {
        if case .streaming(let registration) = state { loop.unregister(registration) }
        connection.close()
        notify(.disconnected(reason: reason))
        outage("lost gpsd at \(server): \(reason)")
    }

    private func cancelConnectionTimers() {
        for timer in connectionTimers { clock.cancel(timer) }
        connectionTimers = []
    }

    /// Enters back-off and reports `.unreachable(reason: message)`; logs the first failure of
    /// an outage as a journal-worthy message, the retries that follow at debug level. Each log
    /// entry carries the delay in ``retryDelayField``; it is logged before the event is yielded,
    /// so a consumer that sees the event finds the entry.
    private func outage(_ message: String) {
        cancelConnectionTimers()
        openedAt = nil
        let delay = schedule.failed()
        let fields = [
            ("MESSAGE_ID", MessageID.gpsdDisconnected), ("WUNDERCAST_GPSD_SERVER", server),
            (Self.retryDelayField, String(delay.wholeMilliseconds)),
        ]
        if inOutage {
            logger.log(.debug, "\(message); retrying in \(delay)", fields: Array(fields.dropFirst()))
        } else {
            inOutage = true
            logger.log(.warning, "\(message); reconnecting with back-off", fields: fields)
        }
        // backingOff → the next attempt after `delay`.
        state = .backingOff(
            clock.schedule(at: clock.now + delay, name: Self.backoffTimer) { [self] in
                guard case .backingOff = state else { return }
                attempt()
            })
        continuation.yield(.condition(.unreachable(reason: message)))
    }
}
