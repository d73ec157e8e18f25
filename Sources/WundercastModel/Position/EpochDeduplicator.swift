#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Drops the repeated TPVs of one receiver epoch, keeping the ones that add information.
///
/// gpsd sends one TPV per NMEA sentence, so one epoch (one GPS time) arrives as several
/// TPVs with different fields present (PITFALLS, libgps): RMC gives a 2D fix with speed, GGA
/// raises it to 3D, GSA/GST add the error estimates. Publishing every one would repeat the
/// same position three or four times a second.
///
/// The rule, applied against the last *published* fix:
/// - Nothing published yet: publish.
/// - Different GPS time (later, earlier or newly present): a new epoch, publish. Times that
///   jump backwards (a replayed log starting over) count as new epochs too.
/// - Same GPS time (within 1 ms), or both without time: publish only when the fix is better
///   than the published one — a higher mode (2D → 3D), a horizontal error where there was
///   none or a smaller one, or a position more than ``positionTolerance`` metres away.
///   Otherwise it is a duplicate: `nil`.
/// - A fix without time is judged like the same epoch (position and mode) only when it arrives
///   within ``timelessEpoch`` of the last published fix: the TPVs of one epoch come together.
///   Later, it is a new epoch: a receiver that never reports time and does not move still
///   publishes a fix each epoch, so its position stays current (its age counts from arrival).
///
/// Pure value type, no clock: the caller feeds fixes in arrival order, with their arrival instants.
public struct EpochDeduplicator: Sendable {
    /// Positions closer than this, in metres, are "the same place" within one epoch.
    public var positionTolerance: Double
    /// The last fix ``admit(_:at:)`` returned, if any.
    public private(set) var lastPublished: Fix?
    /// When ``lastPublished`` arrived.
    private var lastPublishedAt: ContinuousClock.Instant?

    /// How soon after the last published fix a fix without time still belongs to its epoch:
    /// gpsd sends one epoch's TPVs (one per NMEA sentence) within a few hundred milliseconds,
    /// and a receiver reports at most a few epochs a second.
    public static let timelessEpoch: Duration = .milliseconds(500)

    /// Two times closer than this, in seconds, are one epoch (they come from the same
    /// `hhmmss.sss` field; the tolerance only absorbs floating-point conversion).
    static let timeTolerance = 0.001

    public init(positionTolerance: Double = 1.0) {
        self.positionTolerance = positionTolerance
    }

    /// Returns `fix`, which arrived at `arrival`, when it should be published (and remembers
    /// it), `nil` when it repeats the last published fix of the same epoch without adding
    /// information.
    public mutating func admit(_ fix: Fix, at arrival: ContinuousClock.Instant) -> Fix? {
        guard let last = lastPublished, isSameEpoch(fix, last, arrival), !isBetter(fix, than: last) else {
            lastPublished = fix
            lastPublishedAt = arrival
            return fix
        }
        return nil
    }

    /// Forgets the last published fix, so the next one is published (e.g. after a reconnect).
    public mutating func reset() {
        lastPublished = nil
        lastPublishedAt = nil
    }

    private func isSameEpoch(_ fix: Fix, _ last: Fix, _ arrival: ContinuousClock.Instant) -> Bool {
        switch (fix.time, last.time) {
        case let (time?, lastTime?):
            return abs(time.timeIntervalSince(lastTime)) < Self.timeTolerance
        case (nil, _):
            // No time: compared by position and mode only while it comes with the last
            // published one (see the type's rule).
            guard let lastPublishedAt else { return true }
            return lastPublishedAt.duration(to: arrival) < Self.timelessEpoch
        case (_?, nil):
            // Gaining a time is new information: a new epoch.
            return false
        }
    }

    private func isBetter(_ fix: Fix, than last: Fix) -> Bool {
        if fix.mode > last.mode { return true }
        if let error = fix.horizontalError {
            guard let lastError = last.horizontalError else { return true }
            if error < lastError { return true }
        }
        return fix.coordinate.distance(to: last.coordinate) > positionTolerance
    }
}
