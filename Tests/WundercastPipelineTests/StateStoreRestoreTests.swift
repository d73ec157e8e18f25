import Foundation
import Testing
import WundercastTestSupport

@testable import WundercastModel
@testable import WundercastFormats
@testable import WundercastPipeline

/// Weather kept from before a restart, as the store publishes it: `stale` with its true age
/// (or none while the clock is not known to be right), never `fresh` until new weather, and
/// its GPS position hidden while GPS use is `denied` or `ask`.
@Suite struct StateStoreRestoreTests {
    static let fetchedAt = Date(timeIntervalSince1970: 1_800_000_000)
    static let gps = WeatherState.Location(latitude: 48.12, longitude: 11.57, source: .gpsd)
    static let home = WeatherState.Location(latitude: 59.91, longitude: 10.75, source: .fallback, name: "Oslo")

    static func restored(
        _ status: AuthorizationStatus = .authorizedAlways, location: WeatherState.Location? = gps,
        ageKnown: Bool = true
    ) -> StateStore {
        let store = StateStore(provider: "open-meteo", authorization: status)
        store.restore(makeWeather(3), fetchedAt: fetchedAt, location: location, ageKnown: ageKnown)
        return store
    }

    @Test func keptWeatherIsStaleWithItsTrueAgeAndPosition() throws {
        let state = Self.restored().current
        #expect(state.status == .stale)
        #expect(state.error?.code == "cached")
        #expect(state.weather?.temperature == 3)
        #expect(state.fetchedAt == Self.fetchedAt)
        #expect(state.ageUnknown == nil)
        let location = try #require(state.location)
        #expect(location.status == .lastKnown)
        #expect(location.latitude == 48.12 && location.source == .gpsd)
        #expect(location.receivedAt == nil, "no fix of this run")
        let stamped = state.stamped(now: Self.fetchedAt + 7200)
        #expect(stamped.ageSeconds == 7200)
        #expect(HumanFormat.line(state, now: Self.fetchedAt + 7200).hasSuffix("2 h ago"))
        // The human line says why the place is only the last known one.
        #expect(HumanFormat.line(state, now: Self.fetchedAt).contains("(last known position: weather from before"))
    }

    @Test func withoutAKeptPositionTheStateSaysWhyItIsStale() {
        let state = Self.restored(location: nil).current
        #expect(state.status == .stale)
        #expect(state.location == nil)
        #expect(HumanFormat.line(state, now: Self.fetchedAt).contains("(stale: weather from before the restart)"))
    }

    @Test func anUnknownAgeIsNeverANumberUntilTheClockIsRight() {
        let store = Self.restored(ageKnown: false)
        let state = store.current
        #expect(state.ageUnknown == true)
        #expect(state.stamped(now: Self.fetchedAt + 60).ageSeconds == nil)
        let line = HumanFormat.line(state, now: Self.fetchedAt + 60)
        #expect(line.contains("age unknown"), "\(line)")
        #expect(!line.contains("ago"), "\(line)")
        let values = Placeholder.values(state, now: Self.fetchedAt + 60, icons: .emoji)
        #expect(values[.age] == "age unknown")
        let tooltip = BarItem(state: state, now: Self.fetchedAt + 60).tooltip
        #expect(tooltip.contains { $0.contains("age unknown") }, "\(tooltip)")
        #expect(!tooltip.contains { $0.contains(" ago") }, "\(tooltip)")
        store.ageBecameKnown()
        #expect(store.current.ageUnknown == nil)
        #expect(store.current.stamped(now: Self.fetchedAt + 60).ageSeconds == 60)
    }

    /// A GPS position kept from before is not shown while GPS use is denied or undecided, and
    /// not kept in the store either (so it cannot come back by itself).
    @Test(arguments: [AuthorizationStatus.denied, .notDetermined])
    func aKeptGPSPositionIsHiddenWhileGPSUseIsNotGranted(_ status: AuthorizationStatus) {
        let atStart = Self.restored(status).current
        #expect(atStart.location == nil)
        #expect(atStart.weather?.temperature == 3)
        #expect(atStart.status == .stale)

        let store = Self.restored(.authorizedAlways)
        #expect(store.current.location != nil)
        store.beginStatus(status, gate: .init(code: "denied", message: "GPS use is denied"))
        #expect(store.current.location == nil)
        #expect(store.current.weather?.temperature == 3, "the weather stays")
        store.beginStatus(.authorizedAlways, gate: nil)
        #expect(store.current.location == nil, "the hidden position does not come back")
    }

    @Test func theFallbackPlaceIsShownUnderDenied() {
        let state = Self.restored(.denied, location: Self.home).current
        #expect(state.location?.name == "Oslo")
        #expect(state.location?.status == .lastKnown)
        #expect(Self.restored(.authorizedAlways, location: Self.home).current.location == nil)
    }

    /// Only new weather for a current position makes it fresh.
    @Test func newWeatherForACurrentPositionEndsIt() {
        let store = Self.restored()
        let position = Position(makeFix(48.1201, 11.5702))
        store.publishPosition(
            position, rounded: Coordinate(latitude: 48.12, longitude: 11.57), receivedAt: Self.fetchedAt)
        #expect(store.current.status == .fetching)
        #expect(store.current.location?.status == .current)
        store.publishFailure(.transport(code: 7, message: "connection refused"))
        #expect(store.current.status == .stale)
        #expect(store.current.error?.code == "connect")
        store.publishWeather(makeWeather(5), fetchedAt: Self.fetchedAt + 3600)
        #expect(store.current.status == .fresh)
        #expect(store.current.error == nil)
        #expect(store.showsRestoredWeather == false)
    }

    /// A current position of this run that needs no fetch (within `MinDistance` of the last
    /// fetched one) does not make kept weather fresh.
    @Test func aCurrentPositionAloneDoesNotMakeKeptWeatherFresh() {
        let store = Self.restored()
        store.publishPosition(
            Position(makeFix(48.1201, 11.5702)), rounded: Coordinate(latitude: 48.12, longitude: 11.57),
            receivedAt: Self.fetchedAt, fetching: false)
        #expect(store.current.location?.status == .current)
        #expect(store.current.status == .stale)
        #expect(store.current.error?.code == "cached")
    }

    @Test func newWeatherAlsoEndsAnUnknownAge() {
        let store = Self.restored(ageKnown: false)
        store.publishWeather(makeWeather(5), fetchedAt: Self.fetchedAt + 3600)
        #expect(store.current.ageUnknown == nil)
    }

    @Test func weatherOfThisRunIsNeverReplacedByKeptWeather() {
        let store = StateStore(provider: "open-meteo", authorization: .authorizedAlways)
        store.publishWeather(makeWeather(9), fetchedAt: Self.fetchedAt + 60)
        store.restore(makeWeather(3), fetchedAt: Self.fetchedAt, location: Self.gps, ageKnown: true)
        #expect(store.current.weather?.temperature == 9)
        #expect(store.showsRestoredWeather == false)
    }
}
