import Foundation
import Testing
import WundercastModel
import WundercastTestSupport

@testable import WundercastServer

/// The journal gets `moving` alone (its view is a public one) as `WUNDERCAST_MOVING`, and no
/// entry for a state that changed only for the precise readers' speed and course (the newer
/// fix's receipt is all its view shows of that).
@Suite struct PublisherMotionTests {
    @Test func aNewerFixAloneIsNoJournalChangeButStartingToMoveIs() {
        var before = SampleStates.weather()
        before.location?.motion = .init(moving: true)
        var after = before
        after.location?.receivedAt = before.location?.receivedAt?.addingTimeInterval(30)
        after.location?.receivedUptime = .seconds(30)
        #expect(!Publisher.isJournalChange(from: before, to: after))
        after.location?.motion = .init(moving: false)
        #expect(Publisher.isJournalChange(from: before, to: after))
    }

    @Test func theJournalSaysWhetherTheMachineMoves() {
        var state = SampleStates.weather()
        #expect(!Publisher.journalFields(state).contains { $0.0 == "WUNDERCAST_MOVING" })
        state.location?.motion = .init(moving: true)
        #expect(Publisher.journalFields(state).contains { $0 == ("WUNDERCAST_MOVING", "1") })
        state.location?.motion = .init(moving: false)
        #expect(Publisher.journalFields(state).contains { $0 == ("WUNDERCAST_MOVING", "0") })
    }
}
