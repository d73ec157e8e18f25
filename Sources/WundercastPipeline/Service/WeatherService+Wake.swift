import Synchronization
import WundercastSupport

extension WeatherService {
    /// The world may have come back (issue 8, point 2): the machine resumed from suspend, or
    /// the network returned. Returns the outcome once it is decided; logs one line.
    ///
    /// - The position's age is checked at once against the clock (`ContinuousClock` counts
    ///   the time asleep): a fix older than `MaxFixAge` makes the position `lastKnown` and the
    ///   state `stale` now, not when a timer that slept through the suspend fires.
    /// - A back-off after a network failure is cut short; a `Retry-After`, a 429, a 401/403,
    ///   a daily limit keep their wait (``RefreshStateMachine/wake(_:at:)``).
    /// - After a resume the weather is fetched again as soon as `MinInterval` allows.
    ///
    /// While a session runs, the wake is an event of its inbox, handled in order with the
    /// events before it (the session alone touches its machine, and logs the line when it
    /// handles the wake); if the session ends first, the machine (which outlives the sessions)
    /// takes it then. With no session, it is decided and logged before this returns. Returns at
    /// once either way: the outcome can be awaited (``PendingWake/outcome()``).
    ///
    /// `asleepFor`: how long the machine was suspended, when known (for the log line).
    @discardableResult
    public func wake(_ reason: WakeReason, asleepFor: Duration? = nil) -> PendingWake {
        let wake = PendingWake(reason: reason, asleepFor: asleepFor)
        let queued = sessionInbox.withLock { s -> Bool in
            guard let inbox = s.inbox else { return false }
            s.wakes.append(wake)
            inbox.yield(.wake)
            return true
        }
        if !queued { wokenWithoutSession(wake) }
        return wake
    }

    /// A wake no session handles (none runs, or it ended before it got to it): the machine
    /// takes it at once. Answers and logs it.
    func wokenWithoutSession(_ wake: PendingWake) {
        let outcome = machine.withLock { $0.wake(wake.reason, at: clock.now) }
        answer(wake, outcome)
    }

    /// Logs what `wake` did and hands the outcome to its caller.
    func answer(_ wake: PendingWake, _ outcome: WakeOutcome) {
        log(wake.reason, wake.asleepFor, outcome)
        wake.answer(outcome)
    }

    private func log(_ reason: WakeReason, _ asleepFor: Duration?, _ outcome: WakeOutcome) {
        let effect =
            switch outcome {
            case .backoffCutShort: "retrying the weather now instead of after the back-off of the network failure"
            case .backoffKept(let remaining, let code):
                "the back-off after the provider's \(code) stands: retry in \(TimeSpan.format(remaining))"
            case .refresh: "fetching the weather again"
            case .nothing: reason.isResume ? "a retry is due already" : "no fetch failed for lack of it: nothing to do"
            }
        switch reason {
        case .resumed, .clockJump:
            let how = reason == .resumed ? "logind" : "CLOCK_BOOTTIME jumped ahead of CLOCK_MONOTONIC"
            let asleep = asleepFor.map { ", asleep \(TimeSpan.format($0))" } ?? ""
            var fields = [("MESSAGE_ID", MessageID.resumed), ("WUNDERCAST_WAKE", reason.rawValue)]
            if let asleepFor { fields.append(("WUNDERCAST_ASLEEP_SECONDS", "\(asleepFor.components.seconds)")) }
            logger.log(.info, "resumed from suspend (\(how)\(asleep)): \(effect)", fields: fields)
        case .networkReturned:
            guard outcome == .backoffCutShort else {
                logger.debug("network changed (address, route or link): \(effect)")
                return
            }
            logger.log(
                .info, "network back (new address, route or link): \(effect)",
                fields: [("MESSAGE_ID", MessageID.networkBack), ("WUNDERCAST_WAKE", reason.rawValue)])
        }
    }

    /// The watchdog's liveness probe: returns whether the pipeline answered every earlier
    /// probe, and sends a new one. The running session's event loop answers it when it gets
    /// to it (a loop stuck awaiting a fetch that does not end, or on a lock, does not); with no
    /// session running (no status that fetches) the service answers at once, under the refresh
    /// machine's lock. Call it once per watchdog tick; cheap (no allocation, no wait).
    public func probeLiveness() -> Bool {
        let answered = heartbeat.isAnswered
        let probe = heartbeat.send()
        let delivered = sessionInbox.withLock { s -> Bool in
            guard let inbox = s.inbox else { return false }
            if case .enqueued = inbox.yield(.probe(probe)) { return true }
            return false
        }
        if !delivered { machine.withLock { _ in heartbeat.answer(probe) } }
        return answered
    }

    /// Test hook: from now on a `refresh` wedges the running session (its event loop handles
    /// nothing more until the service is cancelled), so that a test sees the watchdog stop.
    /// The daemon calls it only in debug builds, when `WUNDERCAST_TEST_WEDGE=pipeline`.
    public func wedgeOnRefreshForTesting() {
        wedgeOnRefresh.store(true, ordering: .relaxed)
    }
}

/// A ``WeatherService/wake(_:asleepFor:)`` on its way through the session's inbox: what woke
/// the pipeline, and its outcome once the session (or, with none, the service) decided it —
/// exactly once.
public final class PendingWake: Sendable {
    let reason: WakeReason
    let asleepFor: Duration?
    private let reply = Mutex<(outcome: WakeOutcome?, waiter: CheckedContinuation<WakeOutcome, Never>?)>((nil, nil))

    init(reason: WakeReason, asleepFor: Duration?) {
        self.reason = reason
        self.asleepFor = asleepFor
    }

    /// Waits until the wake is handled (at once when it is already) and returns what it did.
    /// A running session handles it in turn; one that ends first hands it to the machine, so
    /// an answer always comes (not cancellable: it comes when the session gets to the wake).
    public func outcome() async -> WakeOutcome {
        await withCheckedContinuation { waiter in
            let ready = reply.withLock { r -> WakeOutcome? in
                if r.outcome == nil { r.waiter = waiter }
                return r.outcome
            }
            if let ready { waiter.resume(returning: ready) }
        }
    }

    /// The wake was handled: `outcome` goes to the caller.
    func answer(_ outcome: WakeOutcome) {
        let waiter = reply.withLock { r -> CheckedContinuation<WakeOutcome, Never>? in
            guard r.outcome == nil else { return nil }
            r.outcome = outcome
            defer { r.waiter = nil }
            return r.waiter
        }
        waiter?.resume(returning: outcome)
    }
}
