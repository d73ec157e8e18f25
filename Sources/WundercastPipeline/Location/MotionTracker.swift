#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import WundercastModel

/// Whether the machine moves, from the speed over ground of its fixes (gpsd TPV `speed`, m/s,
/// and `track`, degrees true; ``Fix/speed``, ``Fix/track``): a plain state machine fed with
/// fixes at instants of the caller's monotonic clock — the fix's receipt, never its GPS time,
/// which replayed and real receivers step backwards and forwards (PITFALLS).
///
/// - Smoothing: an exponential mean over time with the time constant ``timeConstant``: a fix
///   that comes Δt after the one before weighs `1 − e^(−Δt/τ)`, so the several reports of one
///   epoch (one TPV per NMEA sentence) count once and a fix after a long gap counts almost
///   alone. The speed is averaged as a number; the course from the mean velocity (speed along
///   the track's direction), so that 359° and 1° average to north, not south; a fix with a
///   speed and no track counts as no velocity. The first fix with a speed starts the means on
///   its own (a daemon started in a moving car says moving at once).
/// - Hysteresis: stopped becomes moving when the mean speed reaches ``startSpeed``, moving
///   becomes stopped when it falls below ``stopSpeed``: a receiver's jitter at rest (a few
///   tenths of a knot, with single spikes, once the mean has started) does not flip it.
/// - ``reading`` is what to publish: it changes at once when the machine starts or stops, and
///   while it moves at most once per ``republishInterval`` (a state per fix would flood every
///   reader). Speed and course are in it only while moving.
///
/// A fix without a speed (a sentence that carries none, such as GGA), or with one that is not
/// finite, negative or above ``greatestSpeed`` (a receiver's glitch, not a motion), teaches
/// nothing and changes nothing.
public struct MotionTracker<Instant: InstantProtocol>: Sendable where Instant.Duration == Swift.Duration {
    /// What the tracker says: whether the machine moves, and its speed (m/s) and course
    /// (degrees true, `0..<360`) while it does.
    public struct Reading: Sendable, Equatable {
        public var moving: Bool
        public var speed: Double?
        public var course: Double?

        public init(moving: Bool, speed: Double? = nil, course: Double? = nil) {
            self.moving = moving
            self.speed = speed
            self.course = course
        }
    }

    /// τ of the exponential mean: 20 s. A kayak that pauses 20 s at 1 m/s keeps moving; a
    /// spike of 2 m/s at rest (1 Hz) lifts the mean by 0.1 m/s.
    public static var timeConstant: Duration { .seconds(20) }
    /// Mean speed from which a stopped machine moves: 0.5 m/s (about 1 kn, 1.8 km/h).
    public static var startSpeed: Double { 0.5 }
    /// Mean speed below which a moving machine has stopped: 0.25 m/s (about 0.5 kn).
    public static var stopSpeed: Double { 0.25 }
    /// Greatest speed taken as a reading: 300 m/s (about 580 kn, 1080 km/h), faster than any
    /// ground or sea vehicle; a faster report is ignored, not averaged (one spike of 900 kn would
    /// otherwise keep a machine at rest moving for minutes).
    public static var greatestSpeed: Double { 300 }
    /// Least time between two readings of a machine that keeps moving: 30 s.
    public static var republishInterval: Duration { .seconds(30) }

    /// The exponential means and the instant of the fix they include last.
    private var mean: (speed: Double, velocity: (east: Double, north: Double)?, at: Instant)?
    private var moving = false
    private var publishedAt: Instant?
    /// What to publish; `nil` until a fix with a speed came.
    public private(set) var reading: Reading?

    public init() {}

    /// A fix with `speed` (m/s) and `track` (degrees true), either `nil` when not reported,
    /// received at `now`. A speed beyond `0...greatestSpeed` (or not finite) is ignored.
    public mutating func fix(speed: Double?, track: Double?, at now: Instant) {
        guard let speed, speed.isFinite, speed >= 0, speed <= Self.greatestSpeed else { return }
        let direction = track.flatMap { $0.isFinite ? $0 * .pi / 180 : nil }
        let sample = direction.map { (east: speed * sin($0), north: speed * cos($0)) }
        if var mean {
            let weight = 1 - exp(-max(0, Self.seconds(mean.at.duration(to: now))) / Self.seconds(Self.timeConstant))
            mean.speed += weight * (speed - mean.speed)
            if let velocity = mean.velocity {
                // A speed without a track (receivers leave the course out at rest) is a velocity
                // of no known direction: it pulls the mean towards none, or a car parked for
                // minutes would drive off on the course it came with.
                let toward = sample ?? (east: 0, north: 0)
                mean.velocity = (
                    velocity.east + weight * (toward.east - velocity.east),
                    velocity.north + weight * (toward.north - velocity.north)
                )
            } else {
                mean.velocity = sample
            }
            mean.at = max(mean.at, now)
            self.mean = mean
        } else {
            mean = (speed, sample, now)
        }
        decide(at: now)
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// Applies the hysteresis to the mean and updates ``reading`` as the publishing rule says.
    private mutating func decide(at now: Instant) {
        guard let mean else { return }
        let wasMoving = moving
        if !moving, mean.speed >= Self.startSpeed {
            moving = true
        } else if moving, mean.speed < Self.stopSpeed {
            moving = false
        }
        let due = publishedAt.map { $0.advanced(by: Self.republishInterval) <= now } ?? true
        guard reading == nil || wasMoving != moving || (moving && due) else { return }
        reading = Reading(moving: moving, speed: moving ? mean.speed : nil, course: moving ? course : nil)
        publishedAt = now
    }

    /// The direction of the mean velocity, degrees true `0..<360`; `nil` without one, or when it
    /// is shorter than ``stopSpeed`` (the direction of a velocity that averages out is noise).
    private var course: Double? {
        guard let velocity = mean?.velocity,
            (velocity.east * velocity.east + velocity.north * velocity.north).squareRoot() >= Self.stopSpeed
        else { return nil }
        let degrees = atan2(velocity.east, velocity.north) * 180 / .pi
        return degrees < 0 ? degrees + 360 : degrees
    }
}

extension MotionTracker.Reading {
    /// The reading as the state publishes it (``WeatherState/Motion``): the speed in the unit of
    /// speeds that are not wind (``UnitPreferences/otherSpeeds``: `WindSpeedUnit=`'s, knots for
    /// Beaufort) to 0.1, the course in whole degrees 0–359.
    public func published(in units: UnitPreferences) -> WeatherState.Motion {
        let unit = units.otherSpeeds
        let speed = self.speed.map { (unit.fromBase($0) * 10).rounded(.toNearestOrAwayFromZero) / 10 }
        let course = self.course.map { Double(Int($0.rounded(.toNearestOrAwayFromZero)) % 360) }
        let units = speed == nil && course == nil ? nil : WeatherState.Motion.Units(speed: unit.label)
        return WeatherState.Motion(moving: moving, speed: speed, course: course, units: units)
    }
}
