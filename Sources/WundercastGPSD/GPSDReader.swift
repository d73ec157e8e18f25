import Synchronization
import WundercastSupport
import WundercastModel

#if canImport(Glibc)
import Glibc
#endif

/// Set by the stream's `onTermination` (any thread), read by the reader thread.
final class StopFlag: Sendable {
    private let requested = Atomic<Bool>(false)

    var isRequested: Bool { requested.load(ordering: .acquiring) }

    func request() { requested.store(true, ordering: .releasing) }
}

/// The body of one reader thread: one connection to gpsd for one `events()` call, reconnected
/// with back-off until the consumer stops.
///
/// The states, one `switch` per turn of the loop in ``run()``:
///
///     closed ──gps_open ok──▶ open ──WATCH ok──▶ streaming ──read -1──▶ (close) backingOff
///       ▲  └──gps_open fails──────────────────────────────────────────────────▶ backingOff
///       └────────────────────────────── delay elapsed ────────────────────────────┘
///     any state ──stop requested──▶ (WATCH disable, close if open) finished
///
/// A streaming connection is reported `.connected` (and ends an outage) once
/// ``ReconnectSchedule`` judges it connected: a TPV arrived, or it stayed up without error for
/// `connectedAfter`. Failures keep counting and the back-off keeps growing until a connection
/// is stable: open for `stableAfter` (or the back-off before it, if longer) with an accepted fix.
///
/// libgps is blocking C, so this runs on a dedicated pthread, never on Swift's cooperative
/// pool. It checks the stop flag at least every ``pollInterval`` (in `poll` and in back-off),
/// so the thread ends within about that long after the consumer stops.
final class GPSDReader {
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
        /// Where the reader's time comes from (a manual clock in tests).
        var clock: ReaderClock
    }

    private enum State {
        case closed
        case open
        case streaming
        case backingOff(Duration)
        case finished
    }

    /// Longest wait before the stop flag is looked at again, in `poll` and in back-off.
    static let pollInterval: Int32 = 200  // milliseconds

    /// Journal field carrying the back-off delay of a failed attempt, in milliseconds.
    static let retryDelayField = "WUNDERCAST_GPSD_RETRY_MS"

    private let configuration: Configuration
    private let continuation: AsyncStream<FixSourceEvent>.Continuation
    private let stop: StopFlag
    private let notify: @Sendable (GPSDFixSource.ConnectionEvent) -> Void

    private let connection = GPSDConnection()
    private var state = State.closed
    private var schedule: ReconnectSchedule
    private var clock: ReaderClock { configuration.clock }
    /// When the current connection was opened, on ``clock`` (for ``ReconnectSchedule``).
    private var openedAt: Duration?
    private var deduplicator = EpochDeduplicator()
    /// True from the first failure until a connection is connected again: the outage is logged
    /// once with `MessageID.gpsdDisconnected`, its retries only at debug level.
    private var inOutage = false
    /// Whether any connection of this stream has been connected (the first one is logged).
    private var everConnected = false
    /// Whether `.deviceGone` was reported on this connection, so a returning device is news.
    private var deviceGone = false

    init(
        configuration: Configuration, continuation: AsyncStream<FixSourceEvent>.Continuation, stop: StopFlag,
        notify: @escaping @Sendable (GPSDFixSource.ConnectionEvent) -> Void
    ) {
        self.configuration = configuration
        self.continuation = continuation
        self.stop = stop
        self.notify = notify
        self.schedule = ReconnectSchedule(
            backoff: Backoff(initial: configuration.initialBackoff, maximum: configuration.maxBackoff),
            connectedAfter: configuration.connectedAfter, stableAfter: configuration.stableAfter)
    }

    private var logger: Logger { configuration.logger }
    private var server: String { "\(configuration.host):\(configuration.port)" }

    /// Runs the state machine until the consumer stops, then releases gpsd and finishes the stream.
    func run() {
        while true {
            if stop.isRequested, !isFinished {
                finish()
            }
            switch state {
            case .closed: connect()
            case .open: watch()
            case .streaming: readOnce()
            case .backingOff(let delay): wait(delay)
            case .finished:
                continuation.finish()
                notify(.stopped)
                return
            }
        }
    }

    private var isFinished: Bool {
        if case .finished = state { return true }
        return false
    }

    // MARK: - Transitions

    /// closed → open, or closed → backingOff.
    private func connect() {
        switch connection.open(host: configuration.host, port: configuration.port) {
        case .success:
            schedule.opened()
            openedAt = clock.now()
            deviceGone = false
            state = .open
        case .failure(let error):
            // Never gps_read after a failed gps_open (PITFALLS): the handle stays closed.
            notify(.connectFailed(reason: error.reason))
            outage("cannot reach gpsd at \(server): \(error.reason)")
        }
    }

    /// open → streaming, or open → backingOff.
    private func watch() {
        if connection.startStreaming() {
            state = .streaming
            logger.debug("gpsd \(server): watching")
        } else {
            connection.close()
            notify(.disconnected(reason: "sending ?WATCH failed"))
            outage("gpsd at \(server) refused ?WATCH")
        }
    }

    /// streaming → streaming (one poll and the reads it allows), or → backingOff.
    private func readOnce() {
        switch connection.waitReadable(milliseconds: Self.pollInterval) {
        case .timeout:
            // Silence is not a disconnect (PITFALLS: gpsd keeps clients when a device goes);
            // a connection quiet and error-free for `connectedAfter` is connected.
            observe(.other)
        case .failed(let reason):
            lose(reason)
        case .readable:
            drain()
        }
    }

    /// Reads every complete line buffered now: the connection buffers lines `poll` cannot see.
    private func drain() {
        while !stop.isRequested {
            switch connection.read() {
            case .incomplete:
                // Half a line (PITFALLS). Back to poll, no spinning.
                return
            case .failed(let reason):
                lose(reason)
                return
            case .message(let message):
                handle(message)
            }
        }
    }

    private func handle(_ message: GPSDConnection.Message) {
        switch message {
        case .position(let report):
            let fix = Fix(report: report)
            observe(fix == nil ? .tpv : .fix)
            // The deduplicator's arrival times are on the monotonic clock (a time-less TPV's epoch).
            guard let fix, let published = deduplicator.admit(fix, at: ContinuousClock.now) else { return }
            if case .terminated = continuation.yield(.fix(published)) { stop.request() }
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

    /// Feeds the schedule; when the connection has just become connected, reports `.connected`
    /// and ends the outage (if any).
    private func observe(_ evidence: ReconnectSchedule.Evidence) {
        let upFor = openedAt.map { clock.now() - $0 } ?? .zero
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

    /// streaming → (close) → backingOff.
    private func lose(_ reason: String) {
        connection.close()
        notify(.disconnected(reason: reason))
        outage("lost gpsd at \(server): \(reason)")
    }

    /// Enters back-off and reports `.unreachable(reason: message)`; logs the first failure of
    /// an outage as a journal-worthy message, the retries that follow at debug level. Each log
    /// entry carries the delay in ``retryDelayField``; it is logged before the event is yielded,
    /// so a consumer that sees the event finds the entry.
    private func outage(_ message: String) {
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
        continuation.yield(.condition(.unreachable(reason: message)))
        state = .backingOff(delay)
    }

    /// backingOff → closed after `delay`, looking at the stop flag every `pollInterval`.
    private func wait(_ delay: Duration) {
        clock.sleep(clock.now() + delay, stop, .milliseconds(Int(Self.pollInterval)))
        state = .closed
    }

    /// any → finished: `?WATCH={"enable":false}` and `gps_close` when a handle is open, never
    /// a second close.
    private func finish() {
        connection.release()
        state = .finished
    }
}
