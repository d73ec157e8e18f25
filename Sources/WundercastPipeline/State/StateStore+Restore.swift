#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WundercastModel

extension StateStore.Facts {
    /// Weather kept on disk from before the daemon's restart, published until new weather arrives.
    struct Restored: Equatable {
        /// The position that weather was for, at the precision it was kept at; shown as last
        /// known while the daemon has no position of its own. `nil` when none was kept, or the
        /// authorization hides it (a GPS position while `denied` or `ask`).
        var location: WeatherState.Location?
        /// Whether its `fetchedAt` can be compared with the wall clock (both known to be right).
        var ageKnown: Bool

        /// The error of restored weather while nothing more pressing applies.
        static let cached = WeatherState.ErrorInfo(.cached, message: "weather from before the restart")
    }
}

extension StateStore {
    /// Publishes weather kept on disk from before the restart, at once, as `stale` with error
    /// `cached`: never `fresh`, until new weather is fetched for a current position (which
    /// replaces it). Does nothing when the store already has weather.
    ///
    /// - Parameters:
    ///   - weather: as kept (its unit labels say its units).
    ///   - fetchedAt: when it was fetched (wall clock of the run that fetched it).
    ///   - location: the position it was for, shown (as `lastKnown`) until the daemon has one of
    ///     its own; dropped when the authorization does not allow its source (a `gpsd` position
    ///     while `denied` or `ask`, a `fallback` one while GPS is authorized), as a position of
    ///     this run would be.
    ///   - ageKnown: `false` while the wall clock is not known to be right: `ageSeconds` is then
    ///     left out and ``WeatherState/ageUnknown`` set, until ``ageBecameKnown()``.
    public func restore(_ weather: Weather, fetchedAt: Date, location: WeatherState.Location?, ageKnown: Bool) {
        change { f in
            guard f.weather == nil else { return }
            var kept = location
            kept?.status = .lastKnown
            kept?.ageSeconds = nil
            kept?.receivedAt = nil
            kept?.receivedUptime = nil
            if let source = kept?.source, f.gate != nil || !f.authorization.allows(source: source) { kept = nil }
            f.weather = weather
            f.fetchedAt = fetchedAt
            f.fetchedUptime = nil
            f.restored = Facts.Restored(location: kept, ageKnown: ageKnown)
        }
    }

    /// The wall clock is now known to be right (synchronised, or confirmed by GPS time): the
    /// restored weather's age is published from now on. Nothing changes when no restored
    /// weather is shown.
    public func ageBecameKnown() {
        change { f in f.restored?.ageKnown = true }
    }

    /// Whether the weather shown is the one restored from before the restart.
    public var showsRestoredWeather: Bool {
        facts.withLock { $0.facts.restored != nil }
    }

    /// The daemon's own position of this run, as last published (not a restored one); `nil`
    /// while it has none. Its `status` and `receivedAt` are not maintained here (see ``current``).
    public var ownPosition: WeatherState.Location? {
        facts.withLock { $0.facts.location }
    }
}
