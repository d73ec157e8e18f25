import WundercastModel

/// The one owner of `[Weather] Marine=`'s rule: whether the Marine API is asked for a 0.25° cell
/// (``MarineCell``) now. A plain state machine on a monotonic clock, so it is tested without
/// time passing:
///
/// - `no`: never; `yes`: always.
/// - `auto`: a cell is asked unless it answered land (every value `null`) within the last
///   ``landMemory`` — so a car asks at most once per cell it enters in a day, and a boat at sea
///   is asked at every refresh (`MaxAge`) while it stays in a sea cell. A failed request teaches
///   nothing: the cell is asked again at the next refresh.
/// - Back-off (`auto` and `yes`): after an answer that asks us to wait (`Retry-After`, a named
///   request limit) nothing is asked until that wait is over (``failed(retryAfter:at:)``).
public struct MarineCellBook: Sendable {
    /// How long a land cell is not asked again: a day.
    public static let landMemory = Duration.seconds(86_400)
    /// Land cells remembered at most (a day's drive crosses a few dozen); the oldest go first.
    public static let capacity = 4096

    public let mode: MarineMode
    /// Land cells and when (monotonic) each answered land.
    private var land: [MarineCell: Duration] = [:]
    /// No request before this instant (the API asked us to wait).
    private var quietUntil: Duration?

    public init(mode: MarineMode) {
        self.mode = mode
    }

    /// Whether to ask the Marine API for `cell` at `now`.
    public mutating func shouldAsk(_ cell: MarineCell, at now: Duration) -> Bool {
        switch mode {
        case .no: return false
        case _ where quietUntil.map({ now < $0 }) ?? false: return false
        case .yes: return true
        case .auto:
            land = land.filter { now - $0.value < Self.landMemory }
            guard let since = land[cell] else { return true }
            return now - since >= Self.landMemory
        }
    }

    /// `cell` answered at `now`: land (all `null`) is remembered for ``landMemory``; a sea answer
    /// forgets any earlier land verdict.
    public mutating func answered(_ cell: MarineCell, land isLand: Bool, at now: Duration) {
        guard isLand else {
            land[cell] = nil
            return
        }
        if land.count >= Self.capacity, let oldest = land.min(by: { $0.value < $1.value }) {
            land[oldest.key] = nil
        }
        land[cell] = now
    }

    /// A request failed at `now`; with `retryAfter` (seconds the API asked us to wait, at most a
    /// day) nothing is asked before that. Other failures change nothing.
    ///
    /// - Returns: how long nothing is asked (`retryAfter` bounded to a day), `nil` when the next
    ///   refresh may ask.
    @discardableResult
    public mutating func failed(retryAfter: Double?, at now: Duration) -> Duration? {
        guard let retryAfter, retryAfter > 0 else { return nil }
        let wait = Duration.seconds(min(retryAfter, 86_400))
        quietUntil = now + wait
        return wait
    }

    /// Whether `cell` is remembered as land at `now`.
    public func isLand(_ cell: MarineCell, at now: Duration) -> Bool {
        land[cell].map { now - $0 < Self.landMemory } ?? false
    }
}
