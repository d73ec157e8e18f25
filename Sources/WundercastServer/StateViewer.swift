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
/// and the Moon (on the local day of now) at the position each class sees. Views are kept while
/// the state stays the same and each view's Moon is still today's (a state unchanged across
/// local midnight gets the new day's Moon).
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
        let time = now()
        let moonAt: (Coordinate) -> MoonDay? = { [moon] coordinate in moon?.moon(at: coordinate, now: time) }
        if let cached = last.withLock({ $0 }), cached.state == state,
            [cached.views.precise, cached.views.public].allSatisfy({ view in
                view.location.map { moonAt(Coordinate(latitude: $0.latitude, longitude: $0.longitude)) == view.moon }
                    ?? true
            })
        {
            return cached.views
        }
        let views = StateViews.make(
            state, publicPrecision: publicPrecision, nearest: places.nearest, inCell: places.inCell, moon: moonAt)
        last.withLock { $0 = (state, views) }
        return views
    }
}
