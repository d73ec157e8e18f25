import WundercastModel

/// The journal's "fix acquired" and "fix lost" events (``MessageID/fixAcquired``,
/// ``MessageID/fixLost``): one per change of the position's currency, none per fix.
///
/// Fed after each event of a location session with the state's location problem at that
/// moment (``WeatherService/locationProblem(_:at:)``). The position becomes current with a fix
/// (acquired); it is lost when no fix came for `MaxFixAge` (`no-fix`). A gpsd that cannot be
/// reached or a receiver that is gone also ends the currency, but those have entries of their
/// own (``MessageID/gpsdDisconnected``, ``MessageID/deviceGone``): no second entry here.
struct FixCurrency: Sendable, Equatable {
    enum Change: Sendable, Equatable {
        case acquired
        case lost
    }

    private var current: Bool

    /// `current`: whether the position is current as the session starts (a session that takes
    /// over a current position — a reload, a change of authorization — acquired nothing).
    init(current: Bool = false) {
        self.current = current
    }

    /// The change since the last call, if any. `problem`: why the position is not current
    /// now, or `nil` when it is.
    mutating func update(_ problem: WeatherState.ErrorInfo?) -> Change? {
        let isCurrent = problem == nil
        defer { current = isCurrent }
        if isCurrent, !current { return .acquired }
        if !isCurrent, current, problem?.known == .noFix { return .lost }
        return nil
    }
}
