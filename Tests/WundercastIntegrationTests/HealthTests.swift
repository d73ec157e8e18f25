import Foundation
import Testing
import WundercastProtocol
import WundercastPipeline
import WundercastTestSupport

@testable import WundercastServer

/// `status`'s last error is history with an end: once a state without an error follows it,
/// it says since when it no longer holds; a new error starts over.
@Suite struct HealthTests {
    func status(_ health: Health) -> SocketProtocol.StatusResponse {
        health.status(
            state: SampleStates.weather(code: 0), authorization: .authorizedAlways,
            queue: ProviderQueue(ScriptedWeatherProvider()), lookups: 0, now: SampleStates.now)
    }

    @Test func theLastErrorSaysWhenItCleared() {
        let health = Health(gpsdServer: "127.0.0.1:2947")
        var failing = SampleStates.weather(code: 0)
        failing.error = .init(code: "http-500", message: "HTTP 500")
        let t0 = SampleStates.now
        health.note(failing, at: t0)
        #expect(status(health).lastError == .init(code: "http-500", message: "HTTP 500", at: t0))
        // The same error again: still the first time it was seen.
        health.note(failing, at: t0 + 60)
        #expect(status(health).lastError?.at == t0)
        // A state without an error: cleared, once.
        health.note(SampleStates.weather(code: 0), at: t0 + 120)
        health.note(SampleStates.weather(code: 0), at: t0 + 180)
        #expect(status(health).lastError?.clearedAt == t0 + 120)
        // The same error after it cleared is a new one.
        health.note(failing, at: t0 + 240)
        #expect(status(health).lastError == .init(code: "http-500", message: "HTTP 500", at: t0 + 240))
    }
}
