import Foundation
import Testing
import WundercastModel
import WundercastPipeline
import WundercastTestSupport

/// A new authorization status and the position it starts with are one change of the state.
@Suite struct StateStoreStatusTests {
    static let at = Date(timeIntervalSince1970: 1_764_583_200)
    static let home = Position(
        coordinate: Coordinate(latitude: 59.9139, longitude: 10.7522), source: .fallback(name: "Oslo"))

    /// Issue 18, item 7: `denied` with the fallback place is published with the place — the
    /// GPS position dropped and the fallback shown in the same change — so no reader ever sees
    /// `denied` with "waiting for a GPS fix".
    @Test(arguments: [false, true])
    func deniedComesWithTheFallbackPlace(_ fetching: Bool) async {
        let store = StateStore(provider: "open-meteo", authorization: .authorizedAlways)
        store.publishPosition(
            Position(makeFix(48.1201, 11.5702)), rounded: Coordinate(latitude: 48.12, longitude: 11.57),
            receivedAt: Self.at)
        store.publishWeather(makeWeather(5), fetchedAt: Self.at)
        #expect(store.current.status == .fresh)
        let states = store.states()
        let changes = Task { () -> [WeatherState] in
            var seen: [WeatherState] = []
            for await state in states {
                seen.append(state)
                if state.authorization == .denied { break }
            }
            return seen
        }
        store.beginStatus(
            .denied, gate: nil,
            position: .init(
                Self.home, rounded: Coordinate(latitude: 59.91, longitude: 10.75), receivedAt: Self.at,
                fetching: fetching))
        let seen = await changes.value
        #expect(seen.count == 2, "one change: \(seen)")
        let denied = seen.last
        #expect(denied?.authorization == .denied)
        #expect(denied?.location?.source == .fallback)
        #expect(denied?.location?.name == "Oslo")
        #expect(denied?.location?.status == .current)
        #expect(denied?.status == (fetching ? .fetching : .fresh))
        #expect(denied?.error == nil)
    }

    /// A closed gate hides any position, a given one too.
    @Test func aClosedGateShowsNoPosition() {
        let store = StateStore(provider: "open-meteo", authorization: .denied)
        store.beginStatus(
            .notDetermined, gate: .init(.notDetermined, message: "not decided"),
            position: .init(Self.home, rounded: Coordinate(latitude: 59.91, longitude: 10.75), receivedAt: Self.at))
        #expect(store.current.location == nil)
        #expect(store.current.error?.code == "not-determined")
    }
}
