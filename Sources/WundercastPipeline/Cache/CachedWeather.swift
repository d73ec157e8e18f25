#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WundercastModel

/// Weather as ``WeatherCache`` hands it out: the provider's answer unchanged (its observation
/// time included) and when it arrived, so that ages and `fresh`/`stale` stay true for an answer
/// served again.
public struct CachedWeather: Sendable, Equatable {
    /// The provider's answer as decoded.
    public var weather: Weather
    /// When the answer arrived (wall clock, UTC): the state's `fetchedAt`. A stored answer keeps
    /// the time of the request that fetched it.
    public var fetchedAt: Date
    /// `true` when the answer was stored already and no request was waited for.
    public var fromCache: Bool
    /// How long before it was handed out its request started (the cache's monotonic clock):
    /// about the request's duration for a new answer, more for a stored or joined one.
    public var age: Duration
    /// How long before it was handed out the answer arrived (the cache's monotonic clock): zero
    /// for a new answer, more for a stored one. With the reader's own monotonic clock it gives
    /// the monotonic moment of `fetchedAt` (``WeatherState/fetchedUptime``).
    public var sinceArrival: Duration

    public init(
        weather: Weather, fetchedAt: Date, fromCache: Bool, age: Duration = .zero, sinceArrival: Duration = .zero
    ) {
        self.weather = weather
        self.fetchedAt = fetchedAt
        self.fromCache = fromCache
        self.age = age
        self.sinceArrival = sinceArrival
    }
}
