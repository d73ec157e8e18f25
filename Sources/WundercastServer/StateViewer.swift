import Synchronization
import WundercastModel
import WundercastProtocol
import WundercastPipeline

/// The daemon's state as each reader class sees it, computed once per state change.
final class StateViewer: Sendable {
    private let publicPrecision: Int
    private let places: PlaceFinder
    private let last = Mutex<(state: WeatherState, views: StateViews)?>(nil)

    init(publicPrecision: Int, places: PlaceFinder) {
        self.publicPrecision = publicPrecision
        self.places = places
    }

    func views(_ state: WeatherState) -> StateViews {
        if let cached = last.withLock({ $0 }), cached.state == state { return cached.views }
        let views = StateViews.make(
            state, publicPrecision: publicPrecision, nearest: places.nearest, inCell: places.inCell)
        last.withLock { $0 = (state, views) }
        return views
    }
}
