import Foundation
import Testing
import WundercastModel
import WundercastPipeline
import WundercastTestSupport

/// Moving or not is shown only with a current GPS position: never with a last known one, the
/// fallback place, or after the status changed (its session tells anew).
@Suite struct StateStoreMotionTests {
    static let at = Date(timeIntervalSince1970: 1_764_583_200)
    static let moving = WeatherState.Motion(moving: true, speed: 4.2, course: 212, units: .init(speed: "kn"))

    static func storeAtSea() -> StateStore {
        let store = StateStore(provider: "open-meteo", authorization: .authorizedAlways)
        store.publishPosition(
            Position(makeFix(38.1087, -122.8629)), rounded: Coordinate(latitude: 38.11, longitude: -122.86),
            receivedAt: at)
        store.publishMotion(moving)
        return store
    }

    @Test func aCurrentFixShowsTheMotion() {
        #expect(Self.storeAtSea().current.location?.motion == Self.moving)
    }

    @Test func aLastKnownPositionShowsNone() {
        let store = Self.storeAtSea()
        store.publishLocationProblem(.init(.noFix, message: "no GPS fix for more than 2min"))
        #expect(store.current.location?.status == .lastKnown)
        #expect(store.current.location?.motion == nil)
        store.publishLocationProblem(nil)
        #expect(store.current.location?.motion == Self.moving)
    }

    @Test func aNewStatusForgetsIt() {
        let store = Self.storeAtSea()
        store.beginStatus(.authorizedWhenInUse, gate: nil)
        #expect(store.current.location?.source == .gpsd)
        #expect(store.current.location?.motion == nil)
    }

    @Test func theFallbackPlaceHasNone() {
        let store = StateStore(provider: "open-meteo", authorization: .denied)
        store.beginStatus(
            .denied, gate: nil,
            position: .init(
                Position(coordinate: Coordinate(latitude: 59.91, longitude: 10.75), source: .fallback(name: "Oslo")),
                rounded: Coordinate(latitude: 59.91, longitude: 10.75), receivedAt: Self.at))
        store.publishMotion(Self.moving)
        #expect(store.current.location?.source == .fallback)
        #expect(store.current.location?.motion == nil)
    }
}
