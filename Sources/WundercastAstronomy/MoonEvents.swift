#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Moonrise and moonset between two instants at one place, found from the Moon's altitude
/// (``MoonPosition/limbHeight(latitude:longitude:at:)``), the way `Sun` finds sunrise: the time
/// is split at the Moon's transits (upper and lower, 12.4 hours apart), its altitude is monotonic
/// between two of them, and a change of sign there is narrowed to a second (regula falsi,
/// Illinois). So a day without moonrise or moonset, a day with two (near the poles) and a Moon
/// that stays up or down all day come out of one rule.
///
/// Why not libnova's `ln_get_lunar_rst`: against the US Naval Observatory's tables it was up to
/// 6.9 min off at Fredonia AZ 2023 (257 of 706 events beyond 2 min: one interpolation step, a
/// fixed 0.125° horizon, J2000 coordinates against sidereal time of date), 4.4 min at Boston
/// 1984 (72 of 707), and at 70° N 2023 it missed 29 events and invented 29. This search on
/// libnova's positions is within 38 s of those three tables (`MoonTableTests`).
enum MoonEvents {
    /// A moonrise (`isRise`) or a moonset.
    struct Event: Equatable {
        var time: Date
        var isRise: Bool
    }

    /// The events in `start ..< end` in time order, and whether the Moon is up at `start`.
    static func events(
        latitude: Double, longitude: Double, from start: Date, to end: Date
    ) -> (
        events: [Event], upAtStart: Bool
    ) {
        func height(_ t: Date) -> Double {
            MoonPosition(at: t).limbHeight(latitude: latitude, longitude: longitude, at: t)
        }
        var events: [Event] = []
        let transits = self.transits(longitude: longitude, covering: start, end)
        var previous = (time: transits[0], height: height(transits[0]))
        for time in transits.dropFirst() {
            let current = (time: time, height: height(time))
            defer { previous = current }
            guard (previous.height > 0) != (current.height > 0) else { continue }
            let crossing = root(from: previous, to: current, height)
            if crossing >= start && crossing < end { events.append(Event(time: crossing, isRise: current.height > 0)) }
        }
        return (events, height(start) > 0)
    }

    /// The Moon's transits from the last before `start` to the first after `end`, alternately
    /// upper (hour angle 0) and lower (180).
    static func transits(longitude: Double, covering start: Date, _ end: Date) -> [Date] {
        var target = 0.0
        var t = transit(longitude: longitude, near: start, hourAngle: target)
        while t > start {
            target = 180 - target
            t = transit(longitude: longitude, near: t.addingTimeInterval(-halfLunarDay), hourAngle: target)
        }
        var transits = [t]
        while t < end {
            target = 180 - target
            t = transit(longitude: longitude, near: t.addingTimeInterval(halfLunarDay), hourAngle: target)
            transits.append(t)
        }
        return transits
    }

    /// The instant near `guess` when the Moon's hour angle is `target` degrees: its hour angle
    /// grows 360° in a lunar day (24 h 50 min); a few corrections bring it within a second.
    static func transit(longitude: Double, near guess: Date, hourAngle target: Double) -> Date {
        var t = guess
        for _ in 0..<6 {
            let h = MoonPosition(at: t).hourAngle(longitude: longitude, at: t)
            let step = -MoonPosition.wrapped(h - target) / 360 * lunarDay
            t = t.addingTimeInterval(step)
            if abs(step) < 1 { break }
        }
        return t
    }

    /// The zero of `height` between two instants where it has opposite signs, to a second.
    static func root(
        from a: (time: Date, height: Double), to b: (time: Date, height: Double), _ height: (Date) -> Double
    ) -> Date {
        var (low, fLow) = (a.time.timeIntervalSince1970, a.height)
        var (high, fHigh) = (b.time.timeIntervalSince1970, b.height)
        var side = 0
        var guess = (low + high) / 2
        for _ in 0..<60 {
            let next = (low * fHigh - high * fLow) / (fHigh - fLow)
            let value = height(Date(timeIntervalSince1970: next))
            defer { guess = next }
            if abs(next - guess) < 0.5 || value == 0 { return Date(timeIntervalSince1970: next) }
            if (value > 0) == (fHigh > 0) {
                (high, fHigh) = (next, value)
                if side == -1 { fLow /= 2 }
                side = -1
            } else {
                (low, fLow) = (next, value)
                if side == 1 { fHigh /= 2 }
                side = 1
            }
            if abs(high - low) < 1 { return Date(timeIntervalSince1970: (low + high) / 2) }
        }
        return Date(timeIntervalSince1970: guess)
    }

    /// A mean lunar day (the Moon's return to the meridian), in seconds: 24 h 50.5 min.
    static let lunarDay: TimeInterval = 89_430
    static let halfLunarDay: TimeInterval = lunarDay / 2
}
