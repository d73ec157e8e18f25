#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Turns positions into published weather: rounds each position to the configured
/// precision, fetches, and publishes into a ``StateStore``.
///
/// - Latest wins (`flatMapLatest`): ``submit(_:)`` cancels the fetch in flight for an older position.
/// - A failure keeps the last good weather, marks the state `stale` (or `offline`/`error`
///   when there is none yet) with the error, and retries after ``Backoff`` — or after the
///   provider's `Retry-After`, whichever is longer. It never loops tight.
/// - After a success the same position is fetched again every `refreshInterval` (`MaxAge`),
///   so a receiver that stops moving, or the fallback place, keeps fresh weather.
/// - Cancellation: ``stop()`` cancels the job in flight; the state is left as it is.
public actor WeatherPipeline<C: Clock> where C.Duration == Swift.Duration {
    public let provider: any WeatherProvider
    public let store: StateStore
    let clock: C
    let precision: Int
    let refreshInterval: Duration
    let backoff: Backoff
    let logger: Logger
    let wallClock: @Sendable () -> Date
    private var job: Task<Void, Never>?
    private var generation = 0

    /// - Parameters:
    ///   - precision: decimals of latitude/longitude sent to the provider (`Precision=`).
    ///   - refreshInterval: re-fetch period for an unchanged position (`MaxAge=`).
    ///   - wallClock: source of `fetchedAt`/`receivedAt` timestamps (UTC).
    public init(
        provider: any WeatherProvider, store: StateStore, clock: C, precision: Int, refreshInterval: Duration,
        backoff: Backoff = Backoff(initial: .seconds(5), maximum: .seconds(600)), logger: Logger = .discard,
        wallClock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.provider = provider
        self.store = store
        self.clock = clock
        self.precision = precision
        self.refreshInterval = refreshInterval
        self.backoff = backoff
        self.logger = logger
        self.wallClock = wallClock
    }

    /// Starts fetching for `position`, cancelling any fetch for an earlier one.
    public func submit(_ position: Position) {
        // A caller whose task was cancelled (a stream for an authorization that no longer
        // holds) must not replace what the current one submitted.
        guard !Task.isCancelled else { return }
        job?.cancel()
        generation += 1
        let generation = generation
        let rounded = position.coordinate.rounded(toDecimals: precision)
        store.publishPosition(position, rounded: rounded, receivedAt: wallClock())
        job = Task { await self.fetchLoop(rounded, generation: generation) }
    }

    /// Cancels the job in flight, if any.
    public func stop() {
        job?.cancel()
        job = nil
    }

    private func fetchLoop(_ coordinate: Coordinate, generation: Int) async {
        // Only a new position shows `fetching` (see ``StateStore``); retries stay `stale` and
        // refreshes stay `fresh`, so watchers and the journal see real changes only.
        var failures = 0
        while !Task.isCancelled {
            let result: Result<Weather, WeatherError>
            do {
                result = .success(try await provider.currentWeather(at: coordinate))
            } catch {
                result = .failure(error)
            }
            // A newer position may have won while this fetch was in flight.
            guard !Task.isCancelled, generation == self.generation else { return }
            let wait: Duration
            switch result {
            case .success(let weather):
                failures = 0
                store.publishWeather(weather, fetchedAt: wallClock())
                wait = refreshInterval
            case .failure(.cancelled):
                return
            case .failure(let error):
                failures += 1
                store.publishFailure(error)
                var delay = backoff.delay(attempt: failures)
                if let retryAfter = error.retryAfter, retryAfter > 0 {
                    // Honoured up to an hour: a huge or hostile value must neither trap the
                    // conversion nor stop retries for good.
                    delay = max(delay, .milliseconds(Int64(min(retryAfter, 3600) * 1000)))
                }
                logger.log(
                    .warning, "weather fetch failed: \(error.message); retry in \(delay)",
                    fields: [("MESSAGE_ID", MessageID.fetchFailed), ("WUNDERCAST_ERROR", error.code)])
                wait = delay
            }
            do {
                try await clock.sleep(for: wait)
            } catch {
                return
            }
        }
    }
}
