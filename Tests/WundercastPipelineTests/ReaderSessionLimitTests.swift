import Foundation
import Testing
import WundercastPipeline
import WundercastTestSupport

/// Issue 14, M2: how often readers' `now` may open a GPS session under when-in-use.
@Suite struct ReaderSessionLimitTests {
    typealias Limit = ReaderSessionLimit<ManualClock.Instant>
    let clock = ManualClock()
    static let nobody: UInt32 = 65534

    /// Each `now` of one user, one every 100 ms for a minute, with each session ending at once.
    func decisions(_ limit: inout Limit, user: UInt32, count: Int) -> [Limit.Decision] {
        (0..<count).map { _ in
            let decision = limit.request(user: user, at: clock.now)
            if decision == .open { limit.ended(at: clock.now) }
            clock.advance(by: .milliseconds(100))
            return decision
        }
    }

    @Test func oneUserOpensAtMostFourSessionsAMinuteOnePerGrace() {
        var limit = Limit()
        let decisions = decisions(&limit, user: Self.nobody, count: 600)
        let opened = decisions.indices.filter { decisions[$0] == .open }
        #expect(opened == [0, 50, 100, 150], "at 0, 5, 10 and 15 s")
        #expect(decisions[151..<600].allSatisfy { $0 != .open })
        #expect(decisions[151..<600].contains(.limited))
        // A minute after the first, the user may open again.
        #expect(limit.request(user: Self.nobody, at: clock.now) == .open)
    }

    @Test func aNowWhileASessionIsOpenOrJustEndedReusesIt() {
        var limit = Limit()
        #expect(limit.request(user: 1000, at: clock.now) == .open)
        #expect(limit.request(user: 1001, at: clock.now) == .reuse, "one session at a time, for anyone")
        clock.advance(by: .seconds(20))
        #expect(limit.request(user: 1000, at: clock.now) == .reuse, "still open (waiting for a fix)")
        limit.ended(at: clock.now)
        clock.advance(by: .milliseconds(4_999))
        #expect(limit.request(user: 1001, at: clock.now) == .reuse, "ended less than 5 s ago")
        clock.advance(by: .milliseconds(1))
        #expect(limit.request(user: 1001, at: clock.now) == .open)
    }

    @Test func allUsersTogetherOpenAtMostEightAMinute() {
        var limit = Limit()
        var opened: [UInt32] = []
        for user in UInt32(1000)..<1012 {
            if limit.request(user: user, at: clock.now) == .open {
                opened.append(user)
                limit.ended(at: clock.now)
            }
            clock.advance(by: .seconds(5))
        }
        #expect(opened == Array(1000..<1008), "the ninth user within the minute is limited")
        // 60 s after the first session the oldest leaves the window.
        #expect(clock.now.offset == .seconds(60))
        #expect(limit.request(user: 2000, at: clock.now) == .open)
    }
}

extension WeatherServiceTests {
    /// Issue 14, M2: 300 `now` from `nobody` under when-in-use (one every 100 ms, each session
    /// answered with a fix) open 4 GPS sessions, at 0, 5, 10 and 15 s — not 300. Beyond the limit
    /// the reader gets the current state, and it says truthfully that the fix is too old.
    @Test func threeHundredNowFromNobodyOpenAtMostTheLimitOfSessions() async throws {
        let running = start(.authorizedWhenInUse, maxFixAge: .seconds(10))
        await running.state("when-in-use") { $0.authorization == .authorizedWhenInUse }
        var opened = 0
        var decisions: [ReaderSessionLimit<ManualClock.Instant>.Decision?] = []
        for _ in 0..<300 {
            let decision = running.service.requestRefresh(from: ReaderSessionLimitTests.nobody)
            decisions.append(decision)
            if decision == .open {
                opened += 1
                try await source.waitForOpen(count: opened)
                let latitude = Double(10 + opened)
                source.send(makeFix(latitude, 10, eph: 10))
                try await source.waitForRelease(count: opened)
                // The state shows the fix: the session that took it has ended.
                await running.state("the fix of session \(opened)") { $0.location?.latitude == latitude }
            }
            clock.advance(by: .milliseconds(100))
        }
        #expect(source.openCount == 4, "\(decisions.count { $0 == .open }) opened")
        #expect(decisions.contains(.limited))
        let state = await running.state("the last fix too old") { $0.error?.code == "no-fix" }
        #expect(state?.location?.status == .lastKnown)
        #expect(running.service.requestRefresh(from: ReaderSessionLimitTests.nobody) == .limited)
        #expect(running.store.current.error?.code == "no-fix", "a limited now claims no fix")
        // Another user is within both limits.
        #expect(running.service.requestRefresh(from: 1000) == .open)
        try await source.waitForOpen(count: 5)
        await running.stop()
    }
}
