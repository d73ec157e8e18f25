/// Where fixes come from: gpsd in the daemon, a scripted list in tests.
public protocol FixSource: Sendable {
    /// Opens the source and delivers accepted fixes (already judged by ``Fix/init(report:)``
    /// and de-duplicated per epoch) until the consumer stops iterating. Ending the iteration
    /// (cancelling the consuming task, or dropping the iterator) releases the source: for
    /// gpsd, `?WATCH={"enable":false}` and close. The stream itself never finishes while
    /// iterated: when the source goes away it reconnects with back-off.
    func fixes() -> AsyncStream<Fix>
}
