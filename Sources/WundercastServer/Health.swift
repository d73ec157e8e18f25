#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization
import WundercastSupport
import WundercastModel
import WundercastProtocol
import WundercastPipeline

/// What `status` reports beyond the state: uptime, the gpsd connection, the last error, counts.
/// Fed by the gpsd source's connection events and by the published states.
final class Health: Sendable {
    private struct Facts {
        var gpsdServer: String
        var gpsdConnected = false
        var lastError: SocketProtocol.StatusResponse.LastError?
        var unreadableDecision: SocketProtocol.StatusResponse.UnreadableDecision?
    }

    let started = ContinuousClock.now
    private let facts: Mutex<Facts>

    init(gpsdServer: String) {
        facts = Mutex(Facts(gpsdServer: gpsdServer))
    }

    /// A reload changed `GPSD=`: the new gpsd is not connected yet.
    func configure(gpsdServer: String) {
        facts.withLock { f in
            if f.gpsdServer != gpsdServer { f.gpsdConnected = false }
            f.gpsdServer = gpsdServer
        }
    }

    /// From `GPSDFixSource.onConnectionChange`.
    func gpsd(connected: Bool) {
        facts.withLock { $0.gpsdConnected = connected }
    }

    /// The saved authorization decision cannot be read (start-up), or was replaced (`nil`).
    func unreadableDecision(_ problem: SocketProtocol.StatusResponse.UnreadableDecision?) {
        facts.withLock { $0.unreadableDecision = problem }
    }

    /// Every published state: a new error is remembered with the time it was first seen.
    func note(_ state: WeatherState, at now: Date) {
        guard let error = state.error else {
            // The error no longer holds: said once, with when.
            facts.withLock { f in
                if f.lastError != nil, f.lastError?.clearedAt == nil { f.lastError?.clearedAt = now }
            }
            return
        }
        // `status` is for every reader: as in the public state, no number of the provider's text.
        let message = state.location == nil ? error.message : UntrustedText.hidingNumbers(error.message)
        facts.withLock { f in
            if f.lastError?.code != error.code || f.lastError?.message != message || f.lastError?.clearedAt != nil {
                f.lastError = .init(code: error.code, message: message, at: now)
            }
        }
    }

    /// The `STATUS` object; the socket fills in its client counts. The fix's age counts by the
    /// monotonic clock (`monotonicNow`, ``WundercastSupport/Uptime``) where the fix has a moment on it.
    func status(
        state: WeatherState, authorization: AuthorizationStatus, queue: ProviderQueue, lookups: Int, now: Date,
        monotonicNow: Duration? = nil
    ) -> SocketProtocol.StatusResponse {
        let f = facts.withLock { $0 }
        let uptime = ContinuousClock.now - started
        var fix: SocketProtocol.StatusResponse.Fix?
        if let location = state.location, location.source == .gpsd, location.receivedAt != nil {
            let age = WeatherState.age(
                since: location.receivedAt, location.receivedUptime, given: nil, now: now, uptime: monotonicNow)
            fix = .init(mode: location.mode, ageSeconds: age ?? 0)
        }
        let counts = queue.counts
        return SocketProtocol.StatusResponse(
            uptimeSeconds: Int(uptime.components.seconds),
            gpsd: .init(server: f.gpsdServer, connected: f.gpsdConnected),
            fix: fix, authorization: authorization, unreadableDecision: f.unreadableDecision, provider: queue.name,
            state: state.status, lastError: f.lastError,
            counters: .init(requests: counts.requests, failures: counts.failures, lookups: lookups))
    }
}
