import Foundation
import Testing
import WundercastModel
import WundercastPipeline
import WundercastTestSupport

/// The throttle, `MaxAge`, latest-wins and retry rules, on the pure state machine: every
/// decision and every deadline is checked exactly, with instants of a manual clock.
@Suite struct RefreshStateMachineTests {
    typealias Machine = RefreshStateMachine<ManualClock.Instant>
    let clock = ManualClock()
    let wall = Date(timeIntervalSince1970: 1_764_583_200)  // 2025-12-01 10:00:00 UTC

    func machine(
        minInterval: Duration = .seconds(120), minDistance: Double = 1000, maxAge: Duration = .seconds(900),
        backoff: Backoff = Backoff(initial: .seconds(5), maximum: .seconds(600))
    ) -> Box {
        Box(
            Machine(
                policy: ThrottlePolicy(minInterval: minInterval, minDistance: minDistance, maxAge: maxAge),
                retry: RetryPolicy(backoff: backoff)))
    }

    /// The machine behind a reference, so that `#expect` can call its mutating events.
    final class Box {
        var machine: Machine
        init(_ machine: Machine) { self.machine = machine }
        func offer(_ p: Position, at now: ManualClock.Instant) -> Machine.Action? { machine.offer(p, at: now) }
        func tick(at now: ManualClock.Instant) -> Machine.Action? { machine.tick(at: now) }
        func fetchEnded(
            id: Int, _ o: Machine.Outcome, at now: ManualClock.Instant, wallNow: Date,
            requestedAt: ManualClock.Instant? = nil
        ) -> Bool {
            machine.fetchEnded(id: id, o, at: now, wallNow: wallNow, requestedAt: requestedAt)
        }
        func endSession() { machine.endSession() }
        func requestRefresh() { machine.requestRefresh() }
        var deadline: ManualClock.Instant? { machine.deadline }
        var fetchInFlight: Int? { machine.fetchInFlight }
        var scheduledPosition: Position? { machine.scheduledPosition }
        var retry: RetryPolicy { machine.retry }
    }

    func t(_ seconds: Double) -> ManualClock.Instant { clock.at(.milliseconds(Int64(seconds * 1000))) }

    /// A position `metres` north of 49,12 (1° of latitude ≈ 111.2 km).
    func north(_ metres: Double) -> Position { Position(makeFix(49 + metres / 111_195, 12)) }

    @discardableResult
    func expectFetch(
        _ action: Machine.Action?, of position: Position? = nil, reason: Machine.Reason? = nil, cancelling: Int? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> Int? {
        guard case .fetch(let id, let fetched, let why, let cancelled) = action else {
            Issue.record("expected a fetch, got \(String(describing: action))", sourceLocation: sourceLocation)
            return nil
        }
        if let position { #expect(fetched == position, sourceLocation: sourceLocation) }
        if let reason { #expect(why == reason, sourceLocation: sourceLocation) }
        #expect(cancelled == cancelling, sourceLocation: sourceLocation)
        return id
    }

    /// `refresh` fetches the last position again once `MinInterval` allows, once per request;
    /// it neither bypasses the throttle nor repeats.
    @Test func refreshFetchesAgainWhenMinIntervalAllows() throws {
        let m = machine()
        let first = try #require(expectFetch(m.offer(north(0), at: t(0)), reason: .first))
        #expect(m.fetchEnded(id: first, .success, at: t(1), wallNow: wall))
        m.requestRefresh()
        #expect(m.tick(at: t(2)) == nil)
        #expect(m.deadline == t(120))
        let again = try #require(expectFetch(m.tick(at: t(120)), of: north(0), reason: .requested))
        #expect(m.fetchEnded(id: again, .success, at: t(121), wallNow: wall))
        #expect(m.deadline == t(120 + 900), "after the requested fetch only MaxAge is due")
        #expect(m.tick(at: t(300)) == nil)
    }

    /// An answer whose request started before the fetch (the weather cache) is refreshed
    /// `MaxAge` after that request, and `MinInterval` counts from it too; a later start changes nothing.
    @Test func anOlderAnswerIsRefreshedMaxAgeAfterItsRequest() throws {
        let m = machine()
        let first = try #require(expectFetch(m.offer(north(0), at: t(300)), reason: .first))
        #expect(m.fetchEnded(id: first, .success, at: t(300), wallNow: wall, requestedAt: t(100)))
        #expect(m.deadline == t(100 + 900))
        let moved = try #require(expectFetch(m.offer(north(5000), at: t(301))))
        #expect(m.fetchEnded(id: moved, .success, at: t(302), wallNow: wall, requestedAt: t(302)))
        #expect(m.deadline == t(301 + 900), "a request after the fetch's start is not a reason to wait longer")
        let failed = try #require(expectFetch(m.tick(at: t(1201)), reason: .maxAge))
        #expect(
            m.fetchEnded(
                id: failed, .failure(.http(status: 500, reason: nil, retryAfter: nil)), at: t(1202), wallNow: wall,
                requestedAt: t(0)))
        #expect(m.deadline == t(1202 + 5), "a failure's requestedAt is ignored")
    }

    @Test func firstPositionIsFetchedAtOnce() {
        let m = machine()
        expectFetch(m.offer(north(0), at: t(0)), of: north(0), reason: .first)
        #expect(m.fetchInFlight == 0)
    }

    @Test func minIntervalHoldsAMovedPositionUntilItEndsThenFetchesTheNewest() {
        let m = machine()
        let first = expectFetch(m.offer(north(0), at: t(0)))!
        #expect(m.fetchEnded(id: first, .success, at: t(1), wallNow: wall))
        #expect(m.offer(north(5000), at: t(30)) == nil)
        #expect(m.offer(north(11_000), at: t(60)) == nil)
        #expect(m.deadline == t(120))
        #expect(m.tick(at: t(119.9)) == nil)
        // Trailing edge: the newest held-back position, when the interval ends.
        guard case .fetch(_, let position, .moved(let metres), nil) = m.tick(at: t(120)) else {
            Issue.record("no trailing-edge fetch")
            return
        }
        #expect(position == north(11_000))
        #expect(abs(metres - 11_000) < 1)
    }

    @Test func aHeldBackPositionThatCameBackIsNotFetched() {
        let m = machine()
        let first = expectFetch(m.offer(north(0), at: t(0)))!
        #expect(m.fetchEnded(id: first, .success, at: t(1), wallNow: wall))
        #expect(m.offer(north(5000), at: t(30)) == nil)
        #expect(m.offer(north(100), at: t(60)) == nil)
        #expect(m.tick(at: t(120)) == nil)
        #expect(m.deadline == t(900))  // only MaxAge is left
    }

    @Test func slowDriftAddsUpFromTheLastFetchedPosition() {
        let m = machine()
        let first = expectFetch(m.offer(north(0), at: t(0)))!
        #expect(m.fetchEnded(id: first, .success, at: t(1), wallNow: wall))
        // 300 m per step, each step far apart in time: only the distance from the last
        // *fetched* position reaches 1 km.
        #expect(m.offer(north(300), at: t(200)) == nil)
        #expect(m.offer(north(600), at: t(400)) == nil)
        #expect(m.offer(north(900), at: t(600)) == nil)
        expectFetch(m.offer(north(1200), at: t(800)), of: north(1200))
    }

    @Test func horizontalErrorWidensTheDistanceWhenAsked() {
        let m = Box(
            Machine(
                policy: ThrottlePolicy(
                    minInterval: .seconds(1), minDistance: 1000, maxAge: .seconds(900), widenByHorizontalError: true)))
        let first = expectFetch(m.offer(north(0), at: t(0)))!
        #expect(m.fetchEnded(id: first, .success, at: t(1), wallNow: wall))
        let noisy = Position(makeFix(49 + 1100 / 111_195.0, 12, eph: 200))
        #expect(m.offer(noisy, at: t(10)) == nil)
        expectFetch(m.offer(Position(makeFix(49 + 1100 / 111_195.0, 12, eph: 50)), at: t(11)))
    }

    /// Issue 5, point 3: exactly one request per `MaxAge` for a stationary receiver, over
    /// 24 simulated hours with a fix every second.
    @Test func oneRequestPerMaxAgeOverADay() {
        let m = machine()
        var fetches = 0
        let here = north(0)
        for second in 0..<86_400 {
            let now = t(Double(second))
            for action in [m.offer(here, at: now), m.tick(at: now)] {
                guard case .fetch(let id, _, _, _) = action else { continue }
                fetches += 1
                #expect(m.fetchEnded(id: id, .success, at: now, wallNow: wall))
            }
        }
        #expect(abs(fetches - 86_400 / 900) <= 1, "\(fetches) fetches")
    }

    /// Issue 5, point 4: no `MaxAge` or stream of positions brings two fetches closer than
    /// `MinInterval` (`MaxAge=1ns` made 9,245 requests in 10 s before).
    @Test func nothingBypassesMinInterval() {
        let m = machine(minInterval: .seconds(120), maxAge: .nanoseconds(1))
        var starts: [Double] = []
        for tenth in 0..<6000 {
            let now = t(Double(tenth) / 10)
            // A receiver racing north at 1 km per tenth of a second.
            for action in [m.offer(north(Double(tenth) * 1000), at: now), m.tick(at: now)] {
                guard case .fetch(let id, _, _, _) = action else { continue }
                starts.append(Double(tenth) / 10)
                #expect(m.fetchEnded(id: id, .success, at: now, wallNow: wall))
            }
        }
        #expect(starts == [0, 120, 240, 360, 480])
    }

    @Test func failuresBackOffExponentiallyAndASuccessResets() {
        let m = machine()
        var id = expectFetch(m.offer(north(0), at: t(0)))!
        #expect(
            m.fetchEnded(id: id, .failure(.http(status: 500, reason: nil, retryAfter: nil)), at: t(1), wallNow: wall))
        #expect(m.deadline == t(6))
        #expect(m.tick(at: t(5.9)) == nil)
        id = expectFetch(m.tick(at: t(6)), of: north(0), reason: .retry)!
        #expect(m.fetchEnded(id: id, .failure(.transport(code: 7, message: "refused")), at: t(7), wallNow: wall))
        #expect(m.deadline == t(17))
        id = expectFetch(m.tick(at: t(17)), reason: .retry)!
        #expect(m.fetchEnded(id: id, .success, at: t(18), wallNow: wall))
        #expect(m.retry.failures == 0)
        #expect(m.deadline == t(17 + 900))
    }

    /// Back-off is per provider: a new position does not restart it.
    @Test func backOffSurvivesNewPositions() {
        let m = machine(minInterval: .seconds(1))
        var id = expectFetch(m.offer(north(0), at: t(0)))!
        #expect(
            m.fetchEnded(id: id, .failure(.http(status: 429, reason: nil, retryAfter: 60)), at: t(0), wallNow: wall))
        for second in 1..<60 {
            #expect(m.offer(north(Double(second) * 2000), at: t(Double(second))) == nil)
        }
        #expect(m.deadline == t(60))
        id = expectFetch(m.tick(at: t(60)), of: north(59 * 2000), reason: .retry)!
        #expect(
            m.fetchEnded(id: id, .failure(.http(status: 429, reason: nil, retryAfter: 60)), at: t(61), wallNow: wall))
        #expect(m.offer(north(200_000), at: t(62)) == nil)
        #expect(m.deadline == t(121))
    }

    @Test(arguments: [(30.0, 30.0), (600.0, 600.0), (1e12, 86_400.0), (Double.infinity, 86_400.0)])
    func retryAfterIsHonouredAndCapped(retryAfter: Double, wait: Double) {
        let m = machine()
        let id = expectFetch(m.offer(north(0), at: t(0)))!
        let error = WeatherError.http(status: 503, reason: nil, retryAfter: retryAfter)
        #expect(m.fetchEnded(id: id, .failure(error), at: t(0), wallNow: wall))
        #expect(m.deadline == t(max(wait, 5)))
    }

    @Test func aCancelledFetchIsNoFailure() {
        let m = machine()
        let id = expectFetch(m.offer(north(0), at: t(0)))!
        #expect(m.fetchEnded(id: id, .failure(.cancelled), at: t(1), wallNow: wall))
        #expect(m.retry.failures == 0)
    }

    /// Latest wins, once `MinInterval` allows: the fetch in flight is to be cancelled first.
    @Test func aMovedPositionPreemptsTheFetchInFlight() {
        let m = machine(minInterval: .seconds(1))
        let first = expectFetch(m.offer(north(0), at: t(0)))!
        #expect(m.offer(north(5000), at: t(0.5)) == nil)
        #expect(m.deadline == t(1))
        let second = expectFetch(m.tick(at: t(1)), of: north(5000), cancelling: first)
        #expect(second != first)
        // The superseded fetch's end is not the one in flight: not to be published.
        #expect(!m.fetchEnded(id: first, .failure(.cancelled), at: t(1), wallNow: wall))
        #expect(m.fetchInFlight == second)
        // Only a moved position preempts: a refresh or retry waits for the fetch in flight.
        #expect(m.offer(north(5100), at: t(5)) == nil)
        #expect(m.deadline == nil)
    }

    /// With a provider slower than `MinInterval` and a receiver that keeps moving, a fetch that
    /// preempted another runs to its end: the weather is not starved.
    @Test func aPreemptingFetchIsNotPreemptedItself() {
        let m = machine(minInterval: .seconds(1))
        let first = expectFetch(m.offer(north(0), at: t(0)))!
        let second = expectFetch(m.offer(north(5000), at: t(2)), cancelling: first)!
        #expect(m.scheduledPosition == nil)
        #expect(m.offer(north(10_000), at: t(4)) == nil)
        #expect(m.scheduledPosition == north(10_000))
        #expect(m.deadline == nil)
        #expect(m.fetchEnded(id: second, .success, at: t(9), wallNow: wall))
        expectFetch(m.tick(at: t(9)), of: north(10_000), cancelling: nil)
    }

    /// Whether a position would be fetched (the first, or `MinDistance` from the last fetched
    /// one) is asked before it is offered: `denied` shows the fallback place with the status,
    /// as `fetching` or with the weather that stands for it (issue 18, item 7).
    @Test func wouldFetchIsTheFirstOrAMovedPosition() {
        let m = machine()
        #expect(m.machine.wouldFetch(north(0)))
        let id = expectFetch(m.offer(north(0), at: t(0)))!
        #expect(m.fetchEnded(id: id, .success, at: t(1), wallNow: wall))
        m.endSession()
        #expect(!m.machine.wouldFetch(north(0)))
        #expect(!m.machine.wouldFetch(north(999)))
        #expect(m.machine.wouldFetch(north(1000)))
        // The same rule as a scheduled position's.
        #expect(m.offer(north(999), at: t(2)) == nil)
        #expect(m.scheduledPosition == nil)
        #expect(m.offer(north(1000), at: t(3)) == nil)
        #expect(m.scheduledPosition == north(1000))
    }

    /// `MinInterval` and the back-off hold across location sessions (authorization changes).
    @Test func memoryOutlivesTheSession() {
        let m = machine()
        let id = expectFetch(m.offer(north(0), at: t(0)))!
        m.endSession()
        #expect(m.fetchInFlight == nil)
        #expect(!m.fetchEnded(id: id, .success, at: t(1), wallNow: wall))
        #expect(m.offer(north(50_000), at: t(10)) == nil)
        #expect(m.deadline == t(120))
    }

    /// DESIGN "Throttle" rule 6: time is the machine's monotonic clock. The same positions at
    /// the same instants give the same decisions whatever GPS times the fixes carry
    /// (replayed logs jump backwards, forwards and years into the future).
    @Test func gpsTimeDoesNotMatter() {
        let times: [Date?] = [
            Date(timeIntervalSince1970: 1_300_000_000), Date(timeIntervalSince1970: 0), nil,
            Date(timeIntervalSince1970: 4_000_000_000), Date(timeIntervalSince1970: 1_299_999_000),
        ]
        let steps: [(seconds: Double, metres: Double)] = [(0, 0), (30, 3000), (130, 3100), (400, 6000), (1400, 6000)]
        func decisions(withTimes: Bool) -> [String] {
            let m = machine()
            return steps.enumerated().map { index, step in
                var fix = north(step.metres)
                if withTimes, case .gps(var gps) = fix.source {
                    gps.time = times[index]
                    fix = Position(coordinate: fix.coordinate, source: .gps(gps))
                }
                if case .gps(let gps) = fix.source { #expect(gps.time == (withTimes ? times[index] : nil)) }
                let action = m.offer(fix, at: t(step.seconds)) ?? m.tick(at: t(step.seconds))
                if case .fetch(let id, _, _, _) = action {
                    _ = m.fetchEnded(id: id, .success, at: t(step.seconds), wallNow: wall)
                    return "fetch at \(step.seconds)"
                }
                return "none at \(step.seconds)"
            }
        }
        let plain = decisions(withTimes: false)
        #expect(plain == ["fetch at 0.0", "none at 30.0", "fetch at 130.0", "fetch at 400.0", "fetch at 1400.0"])
        #expect(decisions(withTimes: true) == plain)
    }
}
