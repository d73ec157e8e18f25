#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WundercastModel

/// The one owner of "when is weather fetched for the daemon's own position": the throttle
/// (time and distance), the `MaxAge` refresh, latest-wins and the retry policy, as a plain
/// state machine (no tasks, no clock: the caller passes the instant of its monotonic clock,
/// never GPS time). The caller performs the ``Action``s it returns and calls ``tick(at:)``
/// at ``deadline``.
///
/// Rules (DESIGN "Throttle" and issue 5):
/// 1. The first position is fetched at once.
/// 2. No two fetches start closer than ``ThrottlePolicy/minInterval``, whatever positions or
///    `MaxAge` do (a fetch is one logical update). Retries after a failure follow the
///    ``RetryPolicy`` instead, and it holds back new positions too (it survives them).
/// 3. A position is due when it is at least ``ThrottlePolicy/minDistance`` from the position
///    of the last fetch (the last *emitted* one, so a slow drift adds up), optionally
///    widened by its horizontal error. The newest position held back by `MinInterval` is
///    fetched when the interval ends if it is still that far (trailing edge).
/// 4. After a successful fetch, the newest position is fetched again `MaxAge` after that
///    fetch started: exactly one request per `MaxAge` while stationary.
/// 5. Latest wins: a position due while a fetch is in flight cancels that fetch (the caller
///    waits for it to end) and is fetched instead, once rule 2 allows.
///
/// Its memory (last fetch, failures) outlives a location session: ``endSession()`` forgets
/// only the pending position and the fetch in flight, so `MinInterval` and the back-off hold
/// across authorization changes.
public struct RefreshStateMachine<Instant: InstantProtocol>: Sendable where Instant.Duration == Swift.Duration {
    /// Why a fetch starts (logs and tests).
    public enum Reason: Sendable, Equatable {
        /// The first position ever.
        case first
        /// This far (metres) from the position of the last fetch.
        case moved(metres: Double)
        /// `MaxAge` has gone by since the last successful fetch started.
        case maxAge
        /// The last fetch failed; the retry policy's wait is over.
        case retry
        /// A reader asked (`refresh`); `MinInterval` still holds.
        case requested
    }

    /// What the caller must do.
    public enum Action: Sendable, Equatable {
        /// Start fetch `id` for `position`. When `cancelling` is set, fetch `cancelling` is in
        /// flight: cancel it and wait until it has ended first (one provider request at a time).
        case fetch(id: Int, position: Position, reason: Reason, cancelling: Int?)
    }

    /// How a fetch ended.
    public enum Outcome: Sendable, Equatable {
        case success
        case failure(WeatherError)
    }

    public let policy: ThrottlePolicy
    public private(set) var retry: RetryPolicy

    /// When the last fetch started (rules 2 and 4).
    var lastStart: Instant?
    /// The position of the last fetch: the reference of rule 3.
    private var lastFetched: Position?
    /// The newest position offered since the last fetch started.
    private var pending: Position?
    /// The fetch in flight. A fetch that preempted another is not preempted itself: with a
    /// provider slower than `MinInterval` and a moving receiver, every other fetch completes.
    private var inFlight: (id: Int, position: Position, preemptible: Bool)?
    /// Earliest start of the next fetch after a failure (rule 2, retry policy).
    var notBefore: Instant?
    private var nextID = 0
    /// `refresh` was asked for and no fetch has started since.
    var refreshRequested = false

    public init(policy: ThrottlePolicy, retry: RetryPolicy = RetryPolicy()) {
        self.policy = policy
        self.retry = retry
    }

    /// The id of the fetch in flight, if any.
    public var fetchInFlight: Int? { inFlight?.id }

    /// The newest position when it is far enough from the last fetched one to be fetched
    /// (now or once `MinInterval` or the fetch in flight allows): a fetch for it is scheduled.
    public var scheduledPosition: Position? {
        pending.flatMap { wouldFetch($0) ? $0 : nil }
    }

    /// Whether `position`, offered now, would be fetched (now or once `MinInterval`, the retry
    /// policy or the fetch in flight allows): the first position, or one at least `MinDistance`
    /// from the last fetched one (rules 1 and 3). Otherwise the weather shown stands for it.
    public func wouldFetch(_ position: Position) -> Bool {
        guard let lastFetched else { return true }
        return moved(position, from: lastFetched) != nil
    }

    /// A new position (a fix that passed the gate, or the fallback place) at `now`.
    public mutating func offer(_ position: Position, at now: Instant) -> Action? {
        pending = position
        return evaluate(at: now)
    }

    /// A reader asked for fresh weather (`refresh`): the position of the last fetch (or the
    /// pending one) is fetched again as soon as `MinInterval` allows — or the retry policy, after
    /// a failure. Call ``tick(at:)`` after it.
    public mutating func requestRefresh() {
        refreshRequested = true
    }

    /// The caller's timer reached ``deadline`` (or any other moment: a tick is idempotent).
    public mutating func tick(at now: Instant) -> Action? {
        evaluate(at: now)
    }

    /// Fetch `id` ended at `now` (`wallNow` for limit windows). Returns `false` for a fetch
    /// that is no longer the one in flight (it was superseded): its result must not be
    /// published. `outcome` `.failure(.cancelled)` is not counted as a failure.
    /// `requestedAt`: when the request that brought a successful answer started, if before the
    /// fetch (an answer from the weather cache, or a request in flight that the fetch joined):
    /// rules 2 and 4 then count from it, so the weather shown is refreshed `MaxAge` after *its*
    /// request, never later.
    public mutating func fetchEnded(
        id: Int, _ outcome: Outcome, at now: Instant, wallNow: Date, requestedAt: Instant? = nil
    ) -> Bool {
        guard let current = inFlight, current.id == id else { return false }
        inFlight = nil
        switch outcome {
        case .success:
            retry.succeeded()
            notBefore = nil
            if let requestedAt, let started = lastStart, requestedAt < started { lastStart = requestedAt }
        case .failure(.cancelled):
            break
        case .failure(let error):
            notBefore = now.advanced(by: retry.failed(error, now: wallNow))
        }
        return true
    }

    /// The location session ended (authorization changed, shutdown): the fetch in flight has
    /// been cancelled and awaited by the caller, the pending position is dropped. The memory
    /// of rules 2 and 4 and the retry policy stay.
    public mutating func endSession() {
        pending = nil
        inFlight = nil
    }

    /// When the caller must call ``tick(at:)`` next, or `nil` when only a new position or the
    /// end of the fetch in flight can change anything.
    public var deadline: Instant? {
        due()?.allowed
    }

    // MARK: - Rules

    /// Whether a fetch is due, why, and the earliest instant it may start (`nil`: at once).
    private func due() -> (reason: Reason, allowed: Instant?)? {
        guard let lastStart, let lastFetched else {
            return pending == nil ? nil : (.first, nil)
        }
        let throttled = lastStart.advanced(by: policy.minInterval)
        if retry.failures > 0 {
            return inFlight == nil ? (.retry, notBefore) : nil
        }
        if let pending, let metres = moved(pending, from: lastFetched) {
            if let inFlight, !inFlight.preemptible { return nil }
            return (.moved(metres: metres), throttled)
        }
        if refreshRequested && inFlight == nil {
            return (.requested, throttled)
        }
        if inFlight == nil {
            return (.maxAge, max(throttled, lastStart.advanced(by: policy.maxAge)))
        }
        return nil
    }

    /// How far `position` is from `reference` when that is at least `MinDistance` (widened by
    /// its horizontal error when asked), else `nil`.
    private func moved(_ position: Position, from reference: Position) -> Double? {
        let metres = reference.coordinate.distance(to: position.coordinate)
        var threshold = policy.minDistance
        if policy.widenByHorizontalError, case .gps(let fix) = position.source, let error = fix.horizontalError {
            threshold += error
        }
        return metres >= threshold ? metres : nil
    }

    private mutating func evaluate(at now: Instant) -> Action? {
        guard let (reason, allowed) = due() else { return nil }
        if let allowed, now < allowed { return nil }
        var cancelling: Int? = nil
        if let current = inFlight {
            guard case .moved = reason else { return nil }
            cancelling = current.id
        }
        guard let position = pending ?? lastFetched else { return nil }
        let id = nextID
        nextID += 1
        lastStart = now
        lastFetched = position
        pending = nil
        refreshRequested = false
        inFlight = (id, position, cancelling == nil)
        return .fetch(id: id, position: position, reason: reason, cancelling: cancelling)
    }
}
