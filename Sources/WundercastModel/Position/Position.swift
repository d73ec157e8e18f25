#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A place to fetch weather for: a GPS fix, or the configured fallback place.
public struct Position: Sendable, Equatable {
    public enum Source: Sendable, Equatable {
        /// A fix from gpsd.
        case gps(Fix)
        /// `Fallback=` (authorization `denied`), with its name if it was given as one.
        case fallback(name: String?)
    }

    public var coordinate: Coordinate
    public var source: Source
    /// When the daemon received the fix (wall clock, UTC): the published
    /// `location.receivedAt`, however much later the position is shown (a `MaxAge` refresh, the
    /// end of `MinInterval`). `nil` for the fallback place, which is as old as its showing.
    public var receivedAt: Date?
    /// The same moment by the daemon's monotonic clock (``Uptime``), when it has one: the
    /// published age counts from it (``WeatherState/Location/receivedUptime``).
    public var receivedUptime: Duration?

    public init(coordinate: Coordinate, source: Source, receivedAt: Date? = nil, receivedUptime: Duration? = nil) {
        self.coordinate = coordinate
        self.source = source
        self.receivedAt = receivedAt
        self.receivedUptime = receivedUptime
    }

    /// The position of a GPS fix received at `receivedAt` (`nil`: shown as received when shown).
    public init(_ fix: Fix, receivedAt: Date? = nil, receivedUptime: Duration? = nil) {
        self.init(coordinate: fix.coordinate, source: .gps(fix), receivedAt: receivedAt, receivedUptime: receivedUptime)
    }
}
