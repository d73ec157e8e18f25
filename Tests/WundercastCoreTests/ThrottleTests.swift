import Foundation
import Testing
import WundercastCore
import WundercastTestSupport

/// Moves `metres` north of `from` (1° of latitude ≈ 111.2 km on the mean sphere).
func north(of from: Fix, metres: Double) -> Fix {
    let degrees = metres / (Coordinate.earthRadius * .pi / 180)
    return makeFix(from.coordinate.latitude + degrees, from.coordinate.longitude)
}

@Suite struct ThrottleTests {
    let policy = ThrottlePolicy(minInterval: .seconds(30), minDistance: 500, maxAge: .seconds(600))
    let start = makeFix(48.2175, 8.4145)

    typealias Machine = ThrottleStateMachine<ManualClock.Instant>
    func at(_ seconds: Int) -> ManualClock.Instant { ManualClock.Instant(offset: .seconds(seconds)) }

    @Test func firstFixPassesAtOnce() {
        var machine = Machine(policy: policy)
        #expect(machine.offer(start, at: at(0)) == .first)
    }

    @Test func nothingPassesWithinMinInterval() {
        var machine = Machine(policy: policy)
        _ = machine.offer(start, at: at(0))
        // 5 km away, but only 29 s later.
        #expect(machine.offer(north(of: start, metres: 5000), at: at(29)) == nil)
        // At 30 s the same far fix passes.
        let reason = machine.offer(north(of: start, metres: 5000), at: at(30))
        guard case .moved(let metres)? = reason else {
            Issue.record("expected .moved, got \(String(describing: reason))")
            return
        }
        #expect(abs(metres - 5000) < 1)
    }

    @Test func slowDriftIsMeasuredFromLastEmittedFix() {
        var machine = Machine(policy: policy)
        _ = machine.offer(start, at: at(0))
        var fix = start
        var passedAt: [Int] = []
        // 150 m per minute: never 500 m from the *previous* fix, but from the emitted one.
        for minute in 1...8 {
            fix = north(of: fix, metres: 150)
            if machine.offer(fix, at: at(minute * 60)) != nil { passedAt.append(minute) }
        }
        #expect(passedAt == [4, 8])
    }

    @Test func stationaryReceiverGetsOneHeartbeatPerMaxAge() {
        var machine = Machine(policy: policy)
        var passes: [Int] = []
        // A fix every 10 s for 30 min at one spot, with receiver noise under 20 m.
        for second in stride(from: 0, through: 1800, by: 10) {
            let jitter = Double(second % 3) * 6
            let reason = machine.offer(north(of: start, metres: jitter), at: at(second))
            if reason != nil { passes.append(second) }
            if second > 0, reason != nil { #expect(reason == .heartbeat) }
        }
        #expect(passes == [0, 600, 1200, 1800])
    }

    @Test func gpsTimeDoesNotMatter() {
        // The same positions at the same monotonic instants, once with sane GPS times and
        // once with times that jump backwards and 20 years into the future.
        let positions = (0..<40).map { north(of: start, metres: Double($0) * 120) }
        let weird: [Date?] = (0..<40).map { i in
            switch i % 4 {
            case 0: Date(timeIntervalSince1970: 2_000_000_000)  // 2033
            case 1: Date(timeIntervalSince1970: 1_000_000_000)  // 2001
            case 2: nil
            default: Date(timeIntervalSince1970: 3_000_000_000)  // 2065
            }
        }
        var sane = Machine(policy: policy)
        var jumpy = Machine(policy: policy)
        for i in 0..<40 {
            var a = positions[i]
            a.time = Date(timeIntervalSince1970: 1_500_000_000 + Double(i) * 15)
            var b = positions[i]
            b.time = weird[i]
            #expect(sane.offer(a, at: at(i * 15)) == jumpy.offer(b, at: at(i * 15)))
        }
    }

    @Test func horizontalErrorWidensTheDistanceWhenAsked() {
        var widened = policy
        widened.widenByHorizontalError = true
        var plain = Machine(policy: policy)
        var wide = Machine(policy: widened)
        _ = plain.offer(start, at: at(0))
        _ = wide.offer(start, at: at(0))
        var noisy = north(of: start, metres: 600)
        noisy.horizontalError = 200
        #expect(plain.offer(noisy, at: at(60)) != nil)
        #expect(wide.offer(noisy, at: at(60)) == nil)
    }

    @Test func throttleReadsTheInjectedClock() {
        let clock = ManualClock()
        let throttle = Throttle(policy: policy, clock: clock)
        #expect(throttle.admit(start) == .first)
        let far = north(of: start, metres: 2000)
        #expect(throttle.admit(far) == nil)
        clock.advance(by: .seconds(31))
        #expect(throttle.admit(far) != nil)
    }
}
