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

    public init(coordinate: Coordinate, source: Source) {
        self.coordinate = coordinate
        self.source = source
    }

    /// The position of a GPS fix.
    public init(_ fix: Fix) {
        self.init(coordinate: fix.coordinate, source: .gps(fix))
    }
}
