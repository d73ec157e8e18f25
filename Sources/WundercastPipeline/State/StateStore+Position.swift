#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WundercastModel

extension StateStore {
    /// A position as the state shows it (``publishPosition(_:locationProblem:)``).
    public struct Shown: Sendable, Equatable {
        public var position: Position
        /// `position` rounded to the configured precision (`[Weather] Precision=`).
        public var rounded: Coordinate
        /// When the daemon received it (a fix), or took it into use (the fallback place): wall
        /// clock, and monotonic (``Uptime``) when known.
        public var receivedAt: Date
        public var receivedUptime: Duration?
        /// Its weather is being fetched or a fetch is scheduled (`fetching` until it arrives; old
        /// weather is kept); `false`: the weather shown stands for it (it is within `MinDistance`
        /// of the last fetched position).
        public var fetching: Bool

        public init(
            _ position: Position, rounded: Coordinate, receivedAt: Date, receivedUptime: Duration? = nil,
            fetching: Bool = true
        ) {
            self.position = position
            self.rounded = rounded
            self.receivedAt = receivedAt
            self.receivedUptime = receivedUptime
            self.fetching = fetching
        }
    }

    /// A new position is shown (see ``Shown``). `locationProblem`: whether the position is
    /// current (`nil`) or why not, set in the same change.
    public func publishPosition(_ shown: Shown, locationProblem: WeatherState.ErrorInfo? = nil) {
        change { f in
            f.show(shown)
            f.locationProblem = locationProblem
        }
    }

    /// Whether the machine moves, as ``MotionTracker`` says (`nil`: not known). Shown with a
    /// current GPS position only (``Facts/state``).
    public func publishMotion(_ motion: WeatherState.Motion?) {
        change { $0.motion = motion }
    }

    /// ``publishPosition(_:locationProblem:)`` of a ``Shown`` made of these.
    public func publishPosition(
        _ position: Position, rounded: Coordinate, receivedAt: Date, receivedUptime: Duration? = nil,
        fetching: Bool = true, locationProblem: WeatherState.ErrorInfo? = nil
    ) {
        publishPosition(
            Shown(
                position, rounded: rounded, receivedAt: receivedAt, receivedUptime: receivedUptime, fetching: fetching),
            locationProblem: locationProblem)
    }
}

extension StateStore.Facts {
    /// Shows `shown` as the daemon's position.
    mutating func show(_ shown: StateStore.Shown) {
        var location = WeatherState.Location(
            latitude: shown.rounded.latitude, longitude: shown.rounded.longitude, source: .gpsd,
            receivedAt: shown.receivedAt)
        location.receivedUptime = shown.receivedUptime
        switch shown.position.source {
        case .gps(let fix):
            location.mode = fix.mode.rawValue
            location.time = fix.time
            location.eph = fix.horizontalError
        case .fallback(let name):
            location.source = .fallback
            location.name = name
        }
        self.location = location
        fetching = shown.fetching
    }
}
