import Testing
import WundercastPipeline
import WundercastServer
import WundercastTestSupport

/// The daemon's services as one structured group: stopped in reverse order, a service that
/// ends by itself is noticed (the daemon then exits with an error), one that does not stop
/// within the deadline is named.
@Suite(.timeLimit(.minutes(1))) struct ServiceGroupTests {
    struct Recorded: DaemonService {
        let name: String
        let events: Observed<[String]>
        /// Ends by itself once this is true (a failing service).
        var endsWhen: Observed<Bool>? = nil
        /// Ignores cancellation until this is true (a stuck service).
        var stuckUntil: Observed<Bool>? = nil

        func run() async {
            events.update { $0.append("start \(name)") }
            if let endsWhen {
                _ = try? await endsWhen.wait(timeout: .seconds(30), "the end of \(name)") { $0 }
                if !Task.isCancelled {
                    events.update { $0.append("ended \(name)") }
                    return
                }
            } else {
                await waitUntilCancelled()
            }
            if let stuckUntil {
                // Not a task of ours: cancellation does not end this wait.
                await Task.detached { _ = try? await stuckUntil.wait(timeout: .seconds(30), "release") { $0 } }.value
            }
            events.update { $0.append("stop \(name)") }
        }
    }

    @Test func servicesStopInReverseOrderWhenTheTriggerReturns() async throws {
        let events = Observed<[String]>([])
        let group = ServiceGroup(["a", "b", "c"].map { Recorded(name: $0, events: events) })
        let outcome = await group.run {
            _ = try? await events.wait(timeout: .seconds(30), "all started") { $0.count == 3 }
        }
        #expect(outcome == .stopped)
        #expect(Array(events.value.suffix(3)) == ["stop c", "stop b", "stop a"])
    }

    @Test func aServiceThatEndsByItselfStopsTheGroupWithAnError() async throws {
        let events = Observed<[String]>([])
        let failing = Observed(false)
        let group = ServiceGroup([
            Recorded(name: "a", events: events), Recorded(name: "b", events: events, endsWhen: failing),
            Recorded(name: "c", events: events),
        ])
        let trigger = Observed(false)
        async let outcome = group.run { _ = try? await trigger.wait(timeout: .seconds(50), "never") { $0 } }
        _ = try await events.wait(timeout: .seconds(30), "all started") { $0.count == 3 }
        failing.update { $0 = true }
        #expect(await outcome == .serviceEnded("b"))
        #expect(events.value.contains("ended b"))
        #expect(Array(events.value.suffix(2)) == ["stop c", "stop a"])
    }

    @Test func aServiceThatDoesNotStopWithinTheDeadlineIsNamed() async throws {
        let events = Observed<[String]>([])
        let release = Observed(false)
        let stuck = Observed<[String]>([])
        let group = ServiceGroup(
            [Recorded(name: "a", events: events), Recorded(name: "b", events: events, stuckUntil: release)],
            shutdownDeadline: .seconds(2),
            onStuck: { name in
                stuck.update { $0.append(name) }
                release.update { $0 = true }
            })
        let outcome = await group.run {
            _ = try? await events.wait(timeout: .seconds(30), "all started") { $0.count == 2 }
        }
        #expect(outcome == .stopped)
        // b is named first (a stops when asked; on a loaded machine it might miss 2 s too).
        #expect(stuck.value.first == "b")
    }

    /// A stuck service holds back the next by its deadline only: the one after it is stopped
    /// before ``ServiceGroup/onStuck`` is called (which ends the daemon's process).
    @Test func aStuckServiceDoesNotKeepTheNextFromStopping() async throws {
        let events = Observed<[String]>([])
        let release = Observed(false)
        let seenWhenStuck = Observed<[String]?>(nil)
        let group = ServiceGroup(
            [Recorded(name: "a", events: events), Recorded(name: "b", events: events, stuckUntil: release)],
            shutdownDeadline: .seconds(1),
            onStuck: { name in
                seenWhenStuck.update { $0 = events.value + ["stuck \(name)"] }
                release.update { $0 = true }
            })
        let outcome = await group.run {
            _ = try? await events.wait(timeout: .seconds(30), "all started") { $0.count == 2 }
        }
        #expect(outcome == .stopped)
        let seen = try #require(seenWhenStuck.value)
        #expect(seen.contains("stop a"), "\(seen)")
        #expect(seen.last == "stuck b", "\(seen)")
    }

    /// A trigger that does not end when cancelled has the deadline too, and is named.
    @Test func aTriggerThatIgnoresCancellationIsNamed() async throws {
        let events = Observed<[String]>([])
        let failing = Observed(false)
        let release = Observed(false)
        let stuck = Observed<[String]>([])
        let group = ServiceGroup(
            [Recorded(name: "a", events: events, endsWhen: failing)], shutdownDeadline: .seconds(1),
            onStuck: { name in
                stuck.update { $0.append(name) }
                release.update { $0 = true }
            })
        async let outcome = group.run {
            // Not a task of ours: cancellation does not end this wait.
            await Task.detached { _ = try? await release.wait(timeout: .seconds(30), "release") { $0 } }.value
        }
        _ = try await events.wait(timeout: .seconds(30), "a started") { $0.count == 1 }
        failing.update { $0 = true }
        #expect(await outcome == .serviceEnded("a"))
        #expect(stuck.value == [ServiceGroup.triggerName])
    }
}
