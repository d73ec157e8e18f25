import Foundation
import Testing
import WundercastModel

@Suite struct EpochDeduplicatorTests {
    static let here = Coordinate(latitude: 48.217558333, longitude: 8.414495)
    static let t0 = Date(timeIntervalSince1970: 1_444_468_352)

    static func fix(_ mode: FixMode = .threeD, time: Date? = t0, error: Double? = nil) -> Fix {
        fix(here, mode, time: time, error: error)
    }

    static func fix(_ coordinate: Coordinate, _ mode: FixMode = .threeD, time: Date? = t0, error: Double? = nil) -> Fix
    {
        Fix(coordinate: coordinate, mode: mode, time: time, horizontalError: error)
    }

    /// `meters` north of `here`.
    static func north(_ meters: Double) -> Coordinate {
        Coordinate(latitude: here.latitude + meters / 111_195, longitude: here.longitude)
    }

    static let arrival = ContinuousClock.now

    /// Feeds `fixes` in order, all arriving at once (or `apart` from each other); returns which
    /// were published.
    static func published(_ fixes: [Fix], tolerance: Double = 1, apart: Duration = .zero) -> [Bool] {
        var deduplicator = EpochDeduplicator(positionTolerance: tolerance)
        return fixes.indices.map { deduplicator.admit(fixes[$0], at: arrival + apart * $0) != nil }
    }

    @Test func firstFixIsPublished() {
        var deduplicator = EpochDeduplicator()
        #expect(deduplicator.admit(Self.fix(), at: Self.arrival) == Self.fix())
        #expect(deduplicator.lastPublished == Self.fix())
    }

    @Test func repeatsOfOneEpochAreDropped() {
        // gpsd's TPVs for GGA, GSA, GSA of one epoch: same time, place, mode.
        #expect(Self.published([Self.fix(), Self.fix(), Self.fix(), Self.fix()]) == [true, false, false, false])
    }

    @Test func jitterWithinToleranceIsADuplicate() {
        #expect(Self.published([Self.fix(), Self.fix(Self.north(0.5))]) == [true, false])
    }

    static let upgrades: [(String, Fix)] = [
        ("2D → 3D", fix(.threeD)),
        ("error where there was none", fix(.twoD, error: 12)),
        ("moved beyond the tolerance", fix(north(3), .twoD)),
    ]

    @Test("same epoch, better information is published", arguments: upgrades)
    func upgradeIsPublished(_ name: String, _ better: Fix) {
        #expect(Self.published([Self.fix(.twoD), better]) == [true, true], "\(name)")
    }

    @Test func smallerErrorIsPublishedLargerIsNot() {
        let fixes = [Self.fix(error: 10), Self.fix(error: 6), Self.fix(error: 8), Self.fix(error: 6)]
        #expect(Self.published(fixes) == [true, true, false, false])
    }

    @Test func downgradeInOneEpochIsDropped() {
        #expect(
            Self.published([Self.fix(.threeD, error: 5), Self.fix(.twoD), Self.fix(.twoD, error: 7)]) == [
                true, false, false,
            ])
    }

    @Test func comparesWithLastPublishedNotLastSeen() {
        // A slow drift within one epoch: each step < 1 m from the previous fix, but the third
        // is 1.2 m from the published one.
        let fixes = [Self.fix(), Self.fix(Self.north(0.6)), Self.fix(Self.north(1.2))]
        #expect(Self.published(fixes) == [true, false, true])
    }

    @Test func newEpochIsPublishedEvenWhenStationary() {
        let t1 = Self.t0.addingTimeInterval(1)
        let fixes = [Self.fix(), Self.fix(time: t1), Self.fix(time: t1), Self.fix(time: t1.addingTimeInterval(0.5))]
        #expect(Self.published(fixes) == [true, true, false, true])
    }

    @Test func timeGoingBackwardsIsANewEpoch() {
        // A replayed log starts over; a receiver's clock jumps.
        #expect(Self.published([Self.fix(), Self.fix(time: Self.t0.addingTimeInterval(-60))]) == [true, true])
    }

    @Test func noTimeFixesAreComparedByPositionAndMode() {
        let fixes = [
            Self.fix(.twoD, time: nil),
            Self.fix(.twoD, time: nil),  // same place, same mode: duplicate
            Self.fix(.threeD, time: nil),  // mode upgrade
            Self.fix(Self.north(0.3), .threeD, time: nil),  // jitter: duplicate
            Self.fix(Self.north(5), .threeD, time: nil),  // moved
        ]
        #expect(Self.published(fixes) == [true, false, true, false, true])
    }

    /// Issue 14: a stationary receiver whose TPVs carry no `time` publishes a fix each epoch,
    /// so its position stays current while fixes keep arriving; within one epoch's burst its
    /// repeats are still dropped.
    @Test func aStationaryReceiverWithoutTimePublishesEachEpoch() {
        let timeless = Array(repeating: Self.fix(.twoD, time: nil), count: 4)
        #expect(Self.published(timeless, apart: .seconds(1)) == [true, true, true, true])
        #expect(Self.published(timeless, apart: .milliseconds(100)) == [true, false, false, false])
        // After a timed fix, too (a receiver that lost its time).
        #expect(Self.published([Self.fix(), Self.fix(time: nil)], apart: .seconds(1)) == [true, true])
    }

    @Test func gainingATimeIsPublishedLosingItIsNot() {
        // gpsd reports no time until it has seen a date; the first timed fix is news, a
        // time-less one after it at the same place is not.
        #expect(Self.published([Self.fix(time: nil), Self.fix(), Self.fix(time: nil)]) == [true, true, false])
    }

    @Test func toleranceIsConfigurable() {
        let fixes = [Self.fix(), Self.fix(Self.north(3))]
        #expect(Self.published(fixes, tolerance: 5) == [true, false])
        #expect(Self.published(fixes, tolerance: 1) == [true, true])
    }

    @Test func resetPublishesTheNextFix() {
        var deduplicator = EpochDeduplicator()
        _ = deduplicator.admit(Self.fix(), at: Self.arrival)
        #expect(deduplicator.admit(Self.fix(), at: Self.arrival) == nil)
        deduplicator.reset()
        #expect(deduplicator.admit(Self.fix(), at: Self.arrival) != nil)
    }
}
