import Foundation
import Testing
import WundercastCore
import WundercastTestSupport

/// Public readers get the position rounded to PublicPrecision and a place computed from the
/// rounded position in whole kilometres; precise readers get both as they are.
@Suite struct StateViewsTests {
    /// A nearest-place function that reports what it was asked (distance: metres to 48,11).
    static func nearest(_ c: Coordinate, _ wholeKilometres: Bool) -> WeatherState.Place? {
        let metres = Coordinate(latitude: 48, longitude: 11).distance(to: c)
        let distance = wholeKilometres ? Int((metres / 1000).rounded()) * 1000 : Int(metres.rounded())
        return WeatherState.Place(name: "Origin", country: "DE", distance: distance, bearing: "NE")
    }

    @Test func publicReadersGetARoundedPositionAndWholeKilometres() throws {
        var state = WeatherState(status: .fresh, provider: "open-meteo")
        state.location = .init(latitude: 48.14, longitude: 11.58, mode: 3, source: "gpsd")
        let views = StateViews.make(state, publicPrecision: 1, nearest: Self.nearest)
        let precise = try #require(views.precise.location)
        #expect(precise.latitude == 48.14 && precise.longitude == 11.58)
        #expect(
            precise.place?.distance
                == Int(
                    Coordinate(latitude: 48, longitude: 11).distance(to: .init(latitude: 48.14, longitude: 11.58))
                        .rounded()))
        let shown = try #require(views.public.location)
        #expect(shown.latitude == 48.1 && shown.longitude == 11.6)
        let distance = try #require(shown.place?.distance)
        #expect(distance % 1000 == 0)
        #expect(
            distance == Int(
                (Coordinate(latitude: 48, longitude: 11).distance(to: .init(latitude: 48.1, longitude: 11.6)) / 1000)
                    .rounded()) * 1000)
        #expect(views[.public].location?.mode == 3)
        #expect(views.position(for: .public) == Coordinate(latitude: 48.1, longitude: 11.6))
    }

    @Test func aStateWithoutPositionIsTheSameForEveryone() {
        let state = WeatherState(status: .noLocation, provider: "open-meteo")
        #expect(StateViews.make(state, publicPrecision: 0, nearest: Self.nearest) == StateViews(state))
    }
}
