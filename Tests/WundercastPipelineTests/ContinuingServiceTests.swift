import Foundation
import Testing
import WundercastModel
import WundercastPipeline
import WundercastTestSupport

/// A reload's new service takes over the fix age of the one it replaces, once that one ended
/// (its session owned the fix age until then): the position does not look lost for an instant.
extension WeatherServiceTests {
    @Test func aContinuingServiceTakesOverTheFixAgeWhenItStarts() async throws {
        let first = start(.authorizedAlways, minInterval: .seconds(60))
        try await source.waitForOpen()
        try await fetched(makeFix(10, 10), 1, by: first, requests: 1)
        let status = ObservableValue(AuthorizationStatus.authorizedAlways)
        let next = WeatherService(
            locationManager: LocationManager(source: source, authorization: status, maxHorizontalError: 50),
            provider: provider, store: StateStore(provider: "scripted", authorization: .authorizedAlways),
            clock: clock,
            settings: .init(
                throttle: ThrottlePolicy(minInterval: .seconds(60), minDistance: 1000, maxAge: .seconds(900)),
                maxFixAge: .seconds(120), precision: 2),
            wallClock: { Self.epoch })
        next.continuing(first.service, sameSource: true)
        await first.stop()
        let running = Running(service: next, status: status, task: Task { await next.run() })
        // The source opens after the status began: its error then is the fix age's.
        try await source.waitForOpen(count: 2)
        #expect(running.store.current.error == nil, "the fix of the first service is still current")
        await running.stop()
    }
}
