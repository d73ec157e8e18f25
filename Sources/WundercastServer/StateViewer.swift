import Synchronization
import WundercastAstronomy
import WundercastModel
import WundercastProtocol
import WundercastPipeline
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The daemon's state as each reader class sees it, computed once per state change: the place
/// and the Moon (on the local day of the change) at the position each class sees.
final class StateViewer: Sendable {
    private let publicPrecision: Int
    private let places: PlaceFinder
    private let moon: MoonCalendar?
    private let now: @Sendable () -> Date
    private let last = Mutex<(state: WeatherState, views: StateViews)?>(nil)

    /// - Parameters:
    ///   - moon: the Moon of each view (`nil`: none).
    ///   - now: the wall clock, whose local day the Moon is for.
    init(
        publicPrecision: Int, places: PlaceFinder, moon: MoonCalendar? = nil,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.publicPrecision = publicPrecision
        self.places = places
        self.moon = moon
        self.now = now
    }

    func views(_ state: WeatherState) -> StateViews {
        if let cached = last.withLock({ $0 }), cached.state == state { return cached.views }
        let time = now()
        let views = StateViews.make(
            state, publicPrecision: publicPrecision, nearest: places.nearest, inCell: places.inCell,
            moon: { [moon] coordinate in moon?.moon(at: coordinate, now: time) })
        last.withLock { $0 = (state, views) }
        return views
    }
}
