extension RefreshStateMachine {
    /// The least time between the start of a failed attempt and a retry that a wake brings forward.
    public static var wakeRetrySpacing: Duration { .seconds(5) }

    /// The world came back (a resume, the network after an outage) at `now`.
    ///
    /// - A back-off after a network failure (``FailureKind/isNetwork``) is cut short: the retry
    ///   may start at once, but never sooner than ``wakeRetrySpacing`` (5 s) after the last
    ///   attempt started, so a flapping network cannot make retries loop tight. The count of failures stays (a new failure backs off
    ///   further).
    /// - Any other back-off (`Retry-After`, 429, 401/403, 404, a daily limit, a bad answer)
    ///   stands: the provider answered, and asking it sooner does not help.
    /// - After a resume (``WakeReason/isResume``) with no back-off in force, the weather is
    ///   fetched again as soon as `MinInterval` allows (as ``requestRefresh()``). A network
    ///   change with nothing failed does nothing (routers re-announce addresses every few
    ///   minutes).
    ///
    /// Call ``tick(at:)`` after it.
    public mutating func wake(_ reason: WakeReason, at now: Instant) -> WakeOutcome {
        if retry.failures > 0, let streak = retry.streak {
            if let waitUntil = notBefore, now < waitUntil {
                guard streak.kind.isNetwork else {
                    return .backoffKept(remaining: now.duration(to: waitUntil), code: streak.kind.code)
                }
                let earliest = lastStart.map { $0.advanced(by: Self.wakeRetrySpacing) } ?? now
                notBefore = max(now, earliest)
                return .backoffCutShort
            }
            // The wait is over (a retry is due or in flight): it needs no help.
            return .nothing
        }
        guard reason.isResume else { return .nothing }
        refreshRequested = true
        return .refresh
    }
}
