import WundercastModel
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The instants of the principal phases (new moon, first quarter, full moon, last quarter):
/// where the Moon–Sun elongation (``MoonPosition/elongation(at:)``) is a multiple of 90°, found
/// by Newton's method on it (it grows 11.5–15.5° a day). Within a minute of the US Naval
/// Observatory's instants from 1800 to 2050 (`MoonPhaseTableTests`).
public enum MoonPhases {
    /// The principal phases whose instants fall in `start ..< end`, in time order.
    public static func principal(from start: Date, to end: Date) -> [(phase: MoonPhase, time: Date)] {
        var found: [(phase: MoonPhase, time: Date)] = []
        var t = start
        var e = MoonPosition.elongation(at: t)
        while t < end {
            // At most one principal instant in a day (its elongation grows by under 90°).
            let next = min(end, t.addingTimeInterval(86400))
            let f = MoonPosition.elongation(at: next)
            let phase = MoonPhase(elongationFrom: e, to: f)
            if let target = phase.elongation {
                let instant = self.instant(near: t, elongation: target)
                if instant >= t && instant < next { found.append((phase, instant)) }
            }
            (t, e) = (next, f)
        }
        return found
    }

    /// The instant near `guess` (within a few days) when the elongation is `target` degrees, to
    /// half a second: the secant method, started with the mean rate.
    static func instant(near guess: Date, elongation target: Double) -> Date {
        func offset(_ t: TimeInterval) -> Double {
            MoonPosition.wrapped(MoonPosition.elongation(at: Date(timeIntervalSince1970: t)) - target)
        }
        var (t0, f0) = (guess.timeIntervalSince1970, 0.0)
        f0 = offset(t0)
        var t1 = t0 - f0 / meanRate
        var f1 = offset(t1)
        for _ in 0..<12 where abs(t1 - t0) >= 0.5 && f1 != 0 {
            let slope = (f1 - f0) / (t1 - t0)
            // The true rate is 0.9–1.3 times the mean; anything else is a wrap-around.
            let rate = slope > meanRate / 2 && slope < meanRate * 2 ? slope : meanRate
            (t0, f0) = (t1, f1)
            t1 -= f1 / rate
            f1 = offset(t1)
        }
        return Date(timeIntervalSince1970: t1)
    }

    /// The elongation's mean growth, degrees a second (360° in a synodic month, 29.53 days).
    static let meanRate = 360 / (29.530589 * 86400)
}
