import WundercastModel

/// Whether the daemon's GPS position is current or only the last known one (DESIGN "A
/// position ages"): a plain state machine, fed with fixes and source conditions at instants
/// of the caller's monotonic clock.
///
/// The position is current while the newest accepted fix is at most `maxFixAge` old and the
/// source is connected. It is the last known one when that fix is older (``Problem/noFix``),
/// when gpsd cannot be reached (``Problem/unreachable(reason:)``), or when gpsd reported its
/// receiver gone (``Problem/deviceGone(path:)``) and no fix came since.
public struct FixAge<Instant: InstantProtocol>: Sendable where Instant.Duration == Swift.Duration {
    /// Why the position is not current.
    public enum Problem: Sendable, Equatable {
        /// No fix within `maxFixAge` (or none yet: `never`).
        case noFix(never: Bool)
        /// gpsd cannot be reached; `reason` is one human line.
        case unreachable(reason: String)
        /// gpsd reported the receiver at `path` deactivated.
        case deviceGone(path: String)
    }

    public let maxFixAge: Duration
    private var lastFix: Instant?
    private var condition: SourceCondition?

    public init(maxFixAge: Duration) {
        self.maxFixAge = maxFixAge
    }

    /// An accepted fix arrived at `now`: the source is evidently working.
    public mutating func fix(at now: Instant) {
        lastFix = now
        condition = .connected
    }

    /// Goes on from `previous` (a reload replaced the pipeline): its newest fix stays the newest,
    /// so the position is no less current than it was; the source's condition only when it is
    /// the same source.
    public mutating func continuing(_ previous: FixAge, sameSource: Bool) {
        lastFix = previous.lastFix
        if sameSource { condition = previous.condition }
    }

    /// The source reported `condition`.
    public mutating func condition(_ condition: SourceCondition) {
        self.condition = condition
    }

    /// Why the position is not current at `now`, or `nil` when it is.
    public func problem(at now: Instant) -> Problem? {
        switch condition {
        case .unreachable(let reason): return .unreachable(reason: reason)
        case .deviceGone(let path): return .deviceGone(path: path)
        case .connected, nil: break
        }
        guard let lastFix else { return .noFix(never: true) }
        return lastFix.duration(to: now) >= maxFixAge ? .noFix(never: false) : nil
    }

    /// When the newest fix grows too old, if that is after `now` and nothing else is wrong;
    /// the caller re-reads ``problem(at:)`` then.
    public func deadline(after now: Instant) -> Instant? {
        guard condition == .connected || condition == nil, let lastFix else { return nil }
        let deadline = lastFix.advanced(by: maxFixAge)
        return deadline > now ? deadline : nil
    }
}
