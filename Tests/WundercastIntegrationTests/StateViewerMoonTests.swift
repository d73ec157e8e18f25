import Foundation
import Synchronization
import Testing
import WundercastAstronomy
import WundercastModel
import WundercastPipeline
import WundercastTestSupport

@testable import WundercastServer

/// The views' Moon is that of the local day now, also for a state that has not changed since
/// yesterday (the views of an unchanged state are kept, not their Moon).
@Suite struct StateViewerMoonTests {
    @Test func anUnchangedStateGetsTheNewDaysMoonAfterLocalMidnight() {
        // 23:59 on 15 January 2027 in Berlin (UTC+1), then 00:01 on the 16th.
        let clock = Mutex(Date(timeIntervalSince1970: 1_800_053_940))
        let calendar = MoonCalendar { _ in ("Europe/Berlin", { _ in 3600 }) }
        let viewer = StateViewer(
            publicPrecision: 1, places: .none, moon: calendar, now: { clock.withLock { $0 } })
        let state = SampleStates.weather()
        let before = viewer.views(state)
        #expect(before.precise.moon?.date == "2027-01-15" && before.public.moon?.date == "2027-01-15")
        #expect(viewer.views(state) == before, "the same state on the same day: the same views")
        clock.withLock { $0 = $0.addingTimeInterval(120) }
        let after = viewer.views(state)
        #expect(after.precise.moon?.date == "2027-01-16" && after.public.moon?.date == "2027-01-16")
        #expect(after.precise.location == before.precise.location)
    }

    /// The place's zone is looked up once per cell, not for each view of each state.
    @Test func theZoneIsLookedUpOncePerCell() {
        let asked = Mutex(0)
        let calendar = MoonCalendar { _ in
            asked.withLock { $0 += 1 }
            return ("Europe/Berlin", { _ in 3600 })
        }
        let noon = Date(timeIntervalSince1970: 1_800_053_940 - 11 * 3600)
        let first = calendar.moon(at: Coordinate(latitude: 49.12, longitude: 12.2), now: noon)
        for minutes in 1...5 {
            let again = calendar.moon(
                at: Coordinate(latitude: 49.1201, longitude: 12.2001),
                now: noon.addingTimeInterval(Double(minutes) * 60))
            #expect(again == first)
        }
        let tomorrow = calendar.moon(
            at: Coordinate(latitude: 49.12, longitude: 12.2), now: noon.addingTimeInterval(86_400))
        #expect(tomorrow.date == "2027-01-16")
        #expect(asked.withLock { $0 } == 1)
    }
}
