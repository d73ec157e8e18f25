import Foundation
import Testing
import WundercastModel
import WundercastPipeline
import WundercastProviders
import WundercastTestSupport

/// Every wait of the test support that never gets its event ends: with ``DeadlineExceeded``
/// after its own timeout, and with `CancellationError` at once when its task is cancelled (the
/// caller's ``withDeadline(_:_:_:)``, or Swift Testing's `.timeLimit`). A wait that ignored
/// cancellation would hang this suite until the time limit, and then for good.
@Suite(.timeLimit(.minutes(1))) struct StuckWaitTests {
    /// A wait whose event never comes, given the timeout to wait with.
    struct Wait: Sendable, CustomTestStringConvertible {
        var name: String
        var wait: @Sendable (Duration) async throws -> Void
        var testDescription: String { name }
    }

    static let waits: [Wait] = [
        Wait(name: "ManualClock.waitForSleeper") { timeout in
            try await ManualClock().waitForSleeper(until: .init(offset: .seconds(5)), timeout: timeout)
        },
        Wait(name: "ManualClock.waitForSleepers") { timeout in
            try await ManualClock().waitForSleepers(1, timeout: timeout)
        },
        Wait(name: "ScriptedFixSource.waitForOpen") { timeout in
            try await ScriptedFixSource().waitForOpen(timeout: timeout)
        },
        Wait(name: "ScriptedFixSource.waitForRelease") { timeout in
            let source = ScriptedFixSource()
            let stream = source.events()  // open, never released while waiting
            try await source.waitForRelease(timeout: timeout)
            _ = stream
        },
        Wait(name: "ScriptedWeatherProvider.waitForRequests") { timeout in
            try await ScriptedWeatherProvider().waitForRequests(1, timeout: timeout)
        },
        Wait(name: "Observed.wait") { timeout in
            try await Observed(0).wait(timeout: timeout, "a 1") { $0 == 1 }
        },
        Wait(name: "OutputLog.waitFor") { timeout in
            try await OutputLog().waitFor("a line", timeout: timeout) { _ in true }
        },
        Wait(name: "EventRecorder.wait") { timeout in
            let arrived = await EventRecorder<Int>().wait(timeout) { !$0.isEmpty }
            if !arrived { throw Missed() }
        },
        Wait(name: "StateStore.waitFor") { timeout in
            let store = StateStore(provider: "scripted", authorization: .authorizedAlways)
            if await store.waitFor(timeout: timeout, { $0.status == .fresh }) == nil { throw Missed() }
        },
        Wait(name: "FixtureHTTPServer.waitForRequests") { timeout in
            let server = try await FixtureHTTPServer()
            defer { server.stop() }
            try await server.waitForRequests(count: 1, timeout: timeout)
        },
    ]

    /// What a wait that answers `false` or `nil` (instead of throwing) ended with here.
    struct Missed: Error {}

    /// Its own timeout ends the wait with an error.
    @Test(arguments: waits)
    func aWaitThatNeverGetsItsEventEndsAtItsDeadline(_ wait: Wait) async {
        await #expect(throws: (any Error).self) { try await wait.wait(.milliseconds(200)) }
    }

    /// Its task cancelled (by a deadline around it, or by `.timeLimit`), the wait ends at once,
    /// though its own timeout is an hour away.
    @Test(arguments: waits)
    func aWaitEndsWhenItsTaskIsCancelled(_ wait: Wait) async {
        await #expect(throws: DeadlineExceeded.self) {
            try await withDeadline(.milliseconds(200), wait.name) { try await wait.wait(.seconds(3600)) }
        }
    }

    /// A task cancelled before it waits does not wait at all.
    @Test(arguments: waits)
    func aWaitInACancelledTaskEndsAtOnce(_ wait: Wait) async {
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await wait.wait(.seconds(3600))
        }
        await #expect(throws: (any Error).self) { try await task.value }
    }

    /// A blocking body on a thread of its own: the awaiting task is not held by it once cancelled.
    @Test func aDedicatedThreadIsNotWaitedForOnceCancelled() async throws {
        let release = DispatchSemaphore(value: 0)
        defer { release.signal() }
        await #expect(throws: DeadlineExceeded.self) {
            try await withDeadline(.milliseconds(200), "a thread that blocks") {
                try await onDedicatedThread("blocked until the test ends") { release.wait() }
            }
        }
    }

    /// A scripted provider's request that its caller cancels ends with `cancelled`, also when
    /// the caller was cancelled before it asked.
    @Test func aCancelledRequestAtTheScriptedProviderEnds() async throws {
        let provider = ScriptedWeatherProvider()
        let coordinate = Coordinate(latitude: 1, longitude: 2)
        let asking = Task { try await provider.currentWeather(at: coordinate) }
        try await provider.waitForRequests(1)
        asking.cancel()
        await #expect(throws: WeatherError.cancelled) { try await asking.value }
        let early = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await provider.currentWeather(at: coordinate)
        }
        await #expect(throws: WeatherError.cancelled) { try await early.value }
        #expect(provider.cancelledCount == 2)
        #expect(provider.pendingCount == 0)
    }
}
