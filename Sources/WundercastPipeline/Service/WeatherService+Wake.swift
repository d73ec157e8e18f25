import Synchronization
import WundercastSupport

extension WeatherService {
    /// The world may have come back (issue 8, point 2): the machine resumed from suspend, or
    /// the network returned. Returns at once; logs one line.
    ///
    /// - The position's age is checked at once against the clock (`ContinuousClock` counts
    ///   the time asleep): a fix older than `MaxFixAge` makes the position `lastKnown` and the
    ///   state `stale` now, not when a timer that slept through the suspend fires.
    /// - A back-off after a network failure is cut short; a `Retry-After`, a 429, a 401/403,
    ///   a daily limit keep their wait (``RefreshStateMachine/wake(_:at:)``).
    /// - After a resume the weather is fetched again as soon as `MinInterval` allows.
    ///
    /// `asleepFor`: how long the machine was suspended, when known (for the log line).
    @discardableResult
    public func wake(_ reason: WakeReason, asleepFor: Duration? = nil) -> WakeOutcome {
        let outcome = machine.withLock { $0.wake(reason, at: clock.now) }
        if outcome != .nothing || reason.isResume {
            _ = sessionInbox.withLock { $0.inbox?.yield(.refresh) }
        }
        log(reason, asleepFor, outcome)
        return outcome
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
        heartbeat.send()
        let delivered = sessionInbox.withLock { s -> Bool in
            guard let inbox = s.inbox else { return false }
            if case .enqueued = inbox.yield(.probe) { return true }
            return false
        }
        if !delivered { machine.withLock { _ in heartbeat.answer() } }
        return answered
    }

    /// Test hook: from now on a `refresh` wedges the running session (its event loop handles
    /// nothing more until the service is cancelled), so that a test sees the watchdog stop.
    /// The daemon calls it only in debug builds, when `WUNDERCAST_TEST_WEDGE=pipeline`.
    public func wedgeOnRefreshForTesting() {
        wedgeOnRefresh.store(true, ordering: .relaxed)
    }
}
