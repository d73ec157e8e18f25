#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization
import WundercastSupport
import WundercastModel
import WundercastProviders

/// The one door to the weather provider: the daemon's own fetches and one-off lookups
/// (`weather`, `around`) wait here in arrival order, so the provider never sees two requests
/// from this machine at once. Counts requests and failures (`status`), and remembers a wait
/// the provider asked for (`Retry-After`, a named request limit) so that lookups are refused
/// without a request until it is over (``blockedUntil``); the daemon's own fetches follow
/// their ``RetryPolicy``.
///
/// A provider that batches (``BatchWeatherProvider``) keeps that ability behind the queue: a
/// list of coordinates takes one turn and counts as one request (``batchLimit`` is 1 otherwise).
/// The ``WeatherCache`` in front of the queue decides what needs a request at all.
///
/// Secrets are not its business: a provider with a key redacts its answers where they enter
/// (``RedactingHTTPClient``), before anything is decoded or cut; a second pass here could only
/// find what that one missed, and not a key already cut in half.
public final class ProviderQueue: BatchWeatherProvider, Sendable {
    private struct State {
        var busy = false
        var waiters: [(id: UInt64, continuation: CheckedContinuation<Bool, Never>)] = []
        var cancelled: Set<UInt64> = []
        var nextID: UInt64 = 0
        var requests = 0
        var failures = 0
        var blockedUntil: Date?
    }

    private let provider: any WeatherProvider
    private let wallClock: @Sendable () -> Date
    private let state = Mutex(State())

    /// - Parameter wallClock: wall-clock time, for ``blockedUntil`` (UTC windows).
    public init(_ provider: any WeatherProvider, wallClock: @escaping @Sendable () -> Date = { Date() }) {
        self.provider = provider
        self.wallClock = wallClock
    }

    public var name: String { provider.name }
    public var secrets: Secrets { provider.secrets }

    /// Requests sent to the provider since start (redirect hops included), and how many of them failed.
    public var counts: (requests: Int, failures: Int) { state.withLock { ($0.requests, $0.failures) } }

    /// Until when the provider asked not to be asked (wall clock), if that is in the future.
    public var blockedUntil: Date? {
        let now = wallClock()
        return state.withLock { $0.blockedUntil.flatMap { $0 > now ? $0 : nil } }
    }

    /// Waits for its turn (FIFO; cancellation leaves the line with ``WeatherError/cancelled``),
    /// then asks the provider. Throws what the provider throws; the provider has left out values
    /// no weather has, in its own units (``Weather/published(in:)``), and an answer with no value
    /// left is a ``WeatherError/decoding(message:)`` error (``Weather/checkedHasWeather()``).
    public func currentWeather(at coordinate: Coordinate) async throws(WeatherError) -> Weather {
        try await perform { () async throws(WeatherError) in
            try await provider.currentWeather(at: coordinate).checkedHasWeather()
        }
    }

    /// The provider's batch size (``BatchWeatherProvider``), 1 when it cannot batch.
    public var batchLimit: Int { (provider as? any BatchWeatherProvider)?.batchLimit ?? 1 }

    /// One turn, one request for all `coordinates` when the provider can batch; else one turn
    /// per coordinate, as ``currentWeather(at:)``.
    public func currentWeather(
        atEach coordinates: [Coordinate]
    ) async throws(WeatherError) -> [Result<Weather, WeatherError>] {
        guard let batch = provider as? any BatchWeatherProvider, coordinates.count > 1 else {
            var results: [Result<Weather, WeatherError>] = []
            for coordinate in coordinates {
                do throws(WeatherError) {
                    results.append(.success(try await currentWeather(at: coordinate)))
                } catch {
                    if error == .cancelled { throw error }
                    results.append(.failure(error))
                }
            }
            return results
        }
        return try await perform { () async throws(WeatherError) in
            try await batch.currentWeather(atEach: coordinates).map {
                $0.flatMap { weather in Result { () throws(WeatherError) in try weather.checkedHasWeather() } }
            }
        }
    }

    /// Waits for the turn, runs `request` and counts the HTTP requests it sent (``RequestTally``:
    /// OpenWeatherMap's two, each redirect followed; at least one); a failure is noted.
    private func perform<T>(_ request: () async throws(WeatherError) -> T) async throws(WeatherError) -> T {
        try await acquire()
        defer { release() }
        let tally = RequestTally()
        defer { state.withLock { $0.requests += max(1, tally.count) } }
        let result: Result<T, WeatherError> = await RequestTally.$current.withValue(tally) {
            do throws(WeatherError) {
                return .success(try await request())
            } catch {
                return .failure(error)
            }
        }
        do {
            return try result.get()
        } catch {
            if error != .cancelled { noteFailure(error) }
            throw error
        }
    }

    private func noteFailure(_ error: WeatherError) {
        let now = wallClock()
        let wait: Double? =
            if let window = error.limitWindow {
                Double(RetryPolicy.untilNext(window, after: now).components.seconds)
            } else {
                error.retryAfter.map { min($0, 86_400) }
            }
        state.withLock { s in
            s.failures += 1
            if let wait, wait > 0 { s.blockedUntil = now.addingTimeInterval(wait) }
        }
    }

    private func acquire() async throws(WeatherError) {
        let id = state.withLock { s in
            s.nextID += 1
            return s.nextID
        }
        let granted = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                state.withLock { s in
                    if s.cancelled.remove(id) != nil {
                        continuation.resume(returning: false)
                    } else if !s.busy {
                        s.busy = true
                        continuation.resume(returning: true)
                    } else {
                        s.waiters.append((id, continuation))
                    }
                }
            }
        } onCancel: {
            state.withLock { s in
                if let index = s.waiters.firstIndex(where: { $0.id == id }) {
                    s.waiters.remove(at: index).continuation.resume(returning: false)
                } else {
                    s.cancelled.insert(id)  // not in line yet; or already granted (removed below)
                }
            }
        }
        state.withLock { _ = $0.cancelled.remove(id) }
        guard granted else { throw .cancelled }
        if Task.isCancelled {
            release()
            throw .cancelled
        }
    }

    private func release() {
        state.withLock { s in
            if s.waiters.isEmpty {
                s.busy = false
            } else {
                s.waiters.removeFirst().continuation.resume(returning: true)  // the turn passes on
            }
        }
    }
}
