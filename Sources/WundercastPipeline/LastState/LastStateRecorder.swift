#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WundercastModel

/// Decides what of each published state is kept on disk (``LastState``), and whether that
/// differs from what was last written: the daemon writes only then, so a state that changes
/// only in status, error, fix age or within the kept precision costs no write.
///
/// Rules:
/// - no weather: nothing is kept (an existing file stays as it is);
/// - the position kept is the one the weather was fetched for: the state's position when
///   new weather arrives; later positions with the same weather (moving while the next fetch
///   is pending or failing) do not replace it;
/// - a state without a position (authorization `denied` or `ask` hides it) drops the kept
///   one, and a GPS position is never kept while the state's authorization is not granted;
/// - positions are rounded to `precision` decimals (never finer than published);
/// - ``LastState/clockSynchronized`` is decided once per weather, when it arrives.
public struct LastStateRecorder: Sendable {
    /// Decimals of the position kept (`[Cache] Precision=`, 0–4).
    public let precision: Int
    /// What was last written (or read at start-up): the comparison base.
    public private(set) var written: LastState?
    /// The weather the kept position belongs to, and that position.
    private var current: (weather: Weather, fetchedAt: Date, clockSynchronized: Bool, location: LastState.Position?)?

    /// - Parameter restored: the file read at start-up, if it was valid: its position and
    ///   clock flag stay with its weather, and an unchanged state is not written again.
    public init(precision: Int, restored: LastState?) {
        self.precision = precision
        written = restored
        current = restored.map { ($0.weather, $0.fetchedAt, $0.clockSynchronized, $0.location) }
    }

    /// What to write for `state`, or `nil` when nothing is to be written (no weather, or the
    /// same as ``written``). `clockSynchronized()` is asked only when new weather arrived.
    public mutating func record(for state: WeatherState, clockSynchronized: () -> Bool) -> LastState? {
        guard let weather = state.weather, let fetchedAt = state.fetchedAt else { return nil }
        let seconds = Date(timeIntervalSince1970: fetchedAt.timeIntervalSince1970.rounded(.down))
        if current?.weather != weather || current?.fetchedAt != seconds {
            current = (weather, seconds, clockSynchronized(), position(of: state))
        }
        let mayShowGPS = state.authorization?.allows(source: .gpsd) ?? false
        if state.location == nil || (current?.location?.source == .gpsd && !mayShowGPS) {
            current?.location = nil
        }
        guard let current else { return nil }
        let record = LastState(
            provider: state.provider, fetchedAt: current.fetchedAt, clockSynchronized: current.clockSynchronized,
            location: current.location, weather: current.weather)
        return record == written ? nil : record
    }

    /// `record` is on disk now.
    public mutating func wrote(_ record: LastState) {
        written = record
    }

    private func position(of state: WeatherState) -> LastState.Position? {
        guard let location = state.location else { return nil }
        let rounded = Coordinate(latitude: location.latitude, longitude: location.longitude)
            .rounded(toDecimals: precision)
        return LastState.Position(
            latitude: rounded.latitude, longitude: rounded.longitude, source: location.source,
            name: location.source == .fallback ? location.name : nil)
    }
}
