/// What a ``FixSource`` reports: a judged fix, or a change of the source's condition.
public enum FixSourceEvent: Sendable, Equatable {
    /// An accepted fix (judged by ``Fix/init(report:)``, one per epoch).
    case fix(Fix)
    /// The source's condition changed (gpsd reachable, lost, its device gone).
    case condition(SourceCondition)
}

/// The condition of a fix source, as far as the daemon can tell.
public enum SourceCondition: Sendable, Equatable {
    /// Connected and reports flow (gpsd answered `?WATCH` and sent a report).
    case connected
    /// The source cannot be reached or was lost; `reason` is one human line
    /// (e.g. `cannot reach gpsd at 127.0.0.1:2947: connection refused`). Reconnecting with back-off.
    case unreachable(reason: String)
    /// gpsd is connected but reported its receiver at `path` gone
    /// (`{"class":"DEVICE",…,"activated":0}`); gpsd keeps the connection open.
    case deviceGone(path: String)
}

/// Where fixes come from: gpsd in the daemon, a scripted list in tests.
public protocol FixSource: Sendable {
    /// Opens the source and delivers accepted fixes and condition changes until the consumer
    /// stops iterating. Ending the iteration (cancelling the consuming task, or dropping the
    /// iterator) releases the source: for gpsd, `?WATCH={"enable":false}` and close. The
    /// stream itself never finishes while iterated: when the source goes away it reports
    /// ``SourceCondition/unreachable(reason:)`` and reconnects with back-off.
    func events() -> AsyncStream<FixSourceEvent>
}
