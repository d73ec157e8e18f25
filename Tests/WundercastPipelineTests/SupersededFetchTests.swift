import Foundation
import Synchronization
import Testing
import WundercastSupport
import WundercastModel
import WundercastConfiguration
import WundercastProviders
import WundercastPipeline
import WundercastTestSupport

/// One request at a time (issue 5, point 6; issue 15): a fetch the machine supersedes is cancelled,
/// and the next one reaches the provider only once the cancelled one has ended — also when the
/// provider takes a while to end a cancelled request (an HTTP transfer being aborted). The rule's
/// one owner is the ``ProviderQueue`` (a service without a shared cache puts its own in front of
/// the provider): the session does not wait for the superseded fetch itself.
@Suite(.timeLimit(.minutes(1))) struct SupersededFetchTests {
    /// A provider whose first request never answers and, once cancelled, ends only when the test
    /// lets it (``endCancelled()``); every later request answers at once. Logs starts and ends.
    final class SlowToCancelProvider: WeatherProvider, Sendable {
        let name = "slow-to-cancel"
        let secrets = Secrets.none
        /// Starts and ends of the requests, in order.
        let log = Observed<[ScriptedWeatherProvider.Event]>([])
        /// Cancellations seen by the first request.
        let cancellations = Observed(0)
        private struct Held {
            var continuation: CheckedContinuation<Void, Never>?
            var released = false
            var started = false
        }
        private let held = Mutex(Held())

        func currentWeather(at coordinate: Coordinate) async throws(WeatherError) -> Weather {
            log.update { $0.append(.started(coordinate)) }
            let first = held.withLock { h in
                defer { h.started = true }
                return !h.started
            }
            guard first else {
                log.update { $0.append(.ended(coordinate)) }
                return makeWeather(20)
            }
            // Cancellation does not end the wait: only the test does.
            await withTaskCancellationHandler {
                await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
                    let now = held.withLock { h in
                        if h.released { return true }
                        h.continuation = c
                        return false
                    }
                    if now { c.resume() }
                }
            } onCancel: {
                cancellations.update { $0 += 1 }
            }
            log.update { $0.append(.ended(coordinate)) }
            throw .cancelled
        }

        /// Lets the first request end (it has been cancelled by then).
        func endCancelled() {
            let waiting = held.withLock { h in
                h.released = true
                defer { h.continuation = nil }
                return h.continuation
            }
            waiting?.resume()
        }
    }

    @Test func theSupersededFetchHasEndedBeforeTheNextStarts() async throws {
        let clock = ManualClock()
        let source = ScriptedFixSource()
        let provider = SlowToCancelProvider()
        let status = ObservableValue(AuthorizationStatus.authorizedAlways)
        let manager = LocationManager(source: source, authorization: status, maxHorizontalError: 50)
        let service = WeatherService(
            locationManager: manager, provider: provider,
            store: StateStore(provider: provider.name, authorization: .authorizedAlways), clock: clock,
            settings: .init(
                throttle: ThrottlePolicy(minInterval: .seconds(1), minDistance: 1000, maxAge: .seconds(900)),
                maxFixAge: .seconds(120), precision: 2))
        let task = Task { await service.run() }
        defer { task.cancel() }
        let a = Coordinate(latitude: 10, longitude: 10)
        let b = Coordinate(latitude: 20, longitude: 20)

        try await source.waitForOpen()
        source.send(makeFix(10, 10))
        try await provider.log.wait("the request for the first fix") { $0.contains(.started(a)) }
        try await clock.waitForSleeper(until: clock.at(.seconds(120)))  // MaxFixAge armed: the fix is handled
        clock.advance(by: .seconds(2))
        source.send(makeFix(20, 20))  // far away, after MinInterval: supersedes the first fetch
        try await provider.cancellations.wait("the first request's cancellation") { $0 >= 1 }

        // The session now waits for the cancelled request to end. That no second request starts
        // meanwhile is an absence: looked for a short while (a session that does not wait starts
        // it at once); the test cannot fail by a slow machine, only miss a broken session then.
        let overlapping = try? await provider.log.wait(timeout: .seconds(2), "a request while one is cancelled") {
            $0.contains(.started(b))
        }
        #expect(overlapping == nil, "a request started before the superseded one ended: \(provider.log.value)")

        provider.endCancelled()
        try await provider.log.wait("the request for the second fix") { $0.contains(.ended(b)) }
        #expect(provider.log.value == [.started(a), .ended(a), .started(b), .ended(b)])
        let fresh = await service.store.waitFor { $0.status == .fresh }
        #expect(fresh?.location?.latitude == 20, "the newer position's weather")
        task.cancel()
        await task.value
        manager.close()
    }
}
