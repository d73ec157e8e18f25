#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization
import WundercastSupport
import WundercastModel
import WundercastProviders

/// The one weather cache of the daemon, shared by its own fetches (``WeatherService``) and the
/// one-off lookups (`weather PLACE|LAT,LON`, `around`; ``LookupService``). It decides whether
/// a fetch needs the network; the ``RefreshStateMachine`` decides when the daemon fetches.
///
/// - Key: the provider's name + the position rounded to ``precision`` (`[Weather] Precision=`),
///   so a move inside one rounding cell finds the same answer.
/// - Age: each answer is stored with the moment its request was started (monotonic clock), and
///   each caller passes the oldest it accepts (`maxAge`: its rule's, `[Throttle] MaxAge=` as
///   ``ThrottlePolicy`` owns it); the cache has no age of its own. So the daemon's own refresh
///   `MaxAge` after its last fetch always finds that answer expired and asks again: one request
///   per `MaxAge` while stationary, as before.
/// - Join: a request for a key whose fetch is in flight waits for that fetch (the daemon's own
///   fetch, `weather`, `around` alike): no second request.
/// - Bounded: at most ``capacity`` answers; those older than the storing request's `maxAge` go
///   first, then the least recently used.
/// - Truthful: an answer served again keeps its provider's observation time and its
///   ``CachedWeather/fetchedAt``; failures are not stored.
/// - Batches: positions that all need a request go to the provider in one request when it is a
///   ``BatchWeatherProvider`` (Open-Meteo behind the ``ProviderQueue``), else one request each.
///
/// Cancellation: a cancelled waiter is answered ``WeatherError/cancelled`` at once and the fetch
/// goes on for the others; when the last waiter of a fetch leaves, the fetch is cancelled and that
/// waiter returns once it has ended, so a caller that cancels and awaits knows its request is over
/// (a refresh session that ends leaves no request behind). One provider request at a time is not
/// the cache's rule: the ``ProviderQueue`` behind it owns that.
public final class WeatherCache: Sendable {
    /// How a position may be served.
    public enum Freshness: Sendable, Equatable {
        /// A stored answer younger than the caller's `maxAge`, else a fetch in flight, else a new request.
        case cached
        /// Not a stored answer: a fetch in flight or a new request (a reader's `refresh`).
        case reload
    }

    /// The outcome of one position of ``weather(atEach:freshness:admit:)``.
    public enum Outcome<Refusal: Sendable>: Sendable {
        case weather(CachedWeather)
        case failure(WeatherError)
        /// `admit` refused the request this position needed.
        case refused(Refusal)
    }

    /// Where requests go: the daemon's ``ProviderQueue``.
    public let provider: any WeatherProvider
    /// Decimals the positions are rounded to before they are keys and requests.
    public let precision: Int
    public var capacity: Int { state.withLock { $0.table.capacity } }

    private struct State {
        var table: WeatherCacheTable
        var tasks: [Int: Task<Void, Never>] = [:]
    }

    private let uptime: @Sendable () -> Duration
    private let wallClock: @Sendable () -> Date
    private let logger: Logger
    private let state: Mutex<State>

    /// - Parameters:
    ///   - capacity: answers kept at most (a full answer with its forecast is a few KB).
    ///   - uptime: a monotonic clock (time since any fixed origin), for the answers' ages.
    ///   - wallClock: the time stamped on answers (`fetchedAt`, UTC).
    ///   - logger: one debug line per decision (served, joined, requested); no positions.
    public init(
        provider: any WeatherProvider, precision: Int, capacity: Int = 512,
        uptime: @escaping @Sendable () -> Duration, wallClock: @escaping @Sendable () -> Date = { Date() },
        logger: Logger = .discard
    ) {
        self.provider = provider
        self.precision = precision
        self.uptime = uptime
        self.wallClock = wallClock
        self.logger = logger
        state = Mutex(State(table: WeatherCacheTable(capacity: capacity)))
    }

    /// A cache whose answers age on `clock` (the daemon's `ContinuousClock`, a test's manual clock).
    public convenience init<C: Clock>(
        provider: any WeatherProvider, precision: Int, capacity: Int = 512, clock: C,
        wallClock: @escaping @Sendable () -> Date = { Date() }, logger: Logger = .discard
    ) where C.Duration == Swift.Duration {
        let origin = clock.now
        self.init(
            provider: provider, precision: precision, capacity: capacity,
            uptime: { origin.duration(to: clock.now) }, wallClock: wallClock, logger: logger)
    }

    /// Answers stored now (expired ones included until they are dropped).
    public var count: Int { state.withLock { $0.table.entries.count } }

    /// The weather at `position` (rounded here to ``precision``): stored (its request started
    /// less than `maxAge` ago), joined or fetched.
    /// Throws the provider's ``WeatherError`` (not stored), or ``WeatherError/cancelled``.
    public func weather(
        at position: Coordinate, maxAge: Duration, freshness: Freshness = .cached
    ) async throws(WeatherError) -> CachedWeather {
        switch await weather(atEach: [position], maxAge: maxAge, freshness: freshness, admit: { Never?.none })[0] {
        case .weather(let answer): return answer
        case .failure(let error): throw error
        }
    }

    /// The weather at each of `positions` (rounded here), in order; a stored answer is served when
    /// its request started less than `maxAge` ago. Positions that need a new
    /// request are first offered to `admit` (once each; e.g. a per-user limit); a refusal is that
    /// position's outcome. The admitted ones are fetched together (``BatchWeatherProvider``), up
    /// to its `batchLimit` per request. `admit` runs under the cache's lock: it must not call the cache.
    public func weather<Refusal: Sendable>(
        atEach positions: [Coordinate], maxAge: Duration, freshness: Freshness = .cached,
        admit: () -> Refusal?
    ) async -> [Outcome<Refusal>] {
        let keys = positions.map {
            WeatherCacheTable.Key(provider: provider.name, position: $0.rounded(toDecimals: precision))
        }
        let batchLimit = (provider as? any BatchWeatherProvider)?.batchLimit ?? 1
        let now = uptime()
        let (tickets, requests) = state.withLock { s in
            let (tickets, starts) = s.table.plan(
                keys, reload: freshness == .reload, maxAge: maxAge, now: now, batchLimit: batchLimit, admit: admit)
            for (fetch, keys) in starts {
                // The task cannot finish before it is recorded: finishing takes this lock.
                s.tasks[fetch] = Task { await self.run(fetch, keys) }
            }
            return (tickets, starts.map(\.keys.count))
        }
        log(tickets, requests)
        var outcomes: [Outcome<Refusal>] = []
        for ticket in tickets {
            let answer: WeatherCacheTable.Answer
            switch ticket {
            case .refused(let refusal):
                outcomes.append(.refused(refusal))
                continue
            case .answer(let ready): answer = ready
            case .wait(let slot, _): answer = await wait(slot)
            }
            switch answer {
            case .success(let weather): outcomes.append(.weather(weather))
            case .failure(let error): outcomes.append(.failure(error))
            }
        }
        return outcomes
    }

    /// One debug line for a plan: how many positions were served, joined, refused, requested.
    private func log<Refusal: Sendable>(_ tickets: [WeatherCacheTable.Ticket<Refusal>], _ requests: [Int]) {
        var served = 0
        var joined = 0
        var refused = 0
        for ticket in tickets {
            switch ticket {
            case .answer: served += 1
            case .wait(_, joined: true): joined += 1
            case .wait: break
            case .refused: refused += 1
            }
        }
        var parts: [String] = []
        if served > 0 { parts.append("\(served) served from the cache") }
        if joined > 0 { parts.append("\(joined) joined a request in flight") }
        if refused > 0 { parts.append("\(refused) refused") }
        if !requests.isEmpty {
            parts.append("\(requests.reduce(0, +)) asked in \(requests.count) request\(requests.count == 1 ? "" : "s")")
        }
        logger.debug("weather cache: " + parts.joined(separator: ", "))
    }

    private func wait(_ slot: UInt64) async -> WeatherCacheTable.Answer {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (waiter: WeatherCacheTable.Waiter) in
                if let ready = state.withLock({ $0.table.attach(slot, waiter) }) { waiter.resume(returning: ready) }
            }
        } onCancel: {
            let (cancelled, abandon) = state.withLock { s in
                let (cancelled, abandon) = s.table.leave(slot)
                return (cancelled, abandon.flatMap { s.tasks[$0] })
            }
            cancelled?.resume(returning: .failure(.cancelled))
            abandon?.cancel()
        }
    }

    /// Fetch `fetch`: asks the provider for `keys` and hands the results to the table.
    private func run(_ fetch: Int, _ keys: [WeatherCacheTable.Key]) async {
        let results = await Self.request(provider, keys.map(\.position))
        var byKey: [WeatherCacheTable.Key: Result<Weather, WeatherError>] = [:]
        for (key, result) in zip(keys, results) { byKey[key] = result }
        let fetchedAt = wallClock()
        let now = uptime()
        let resume = state.withLock { s in
            s.tasks[fetch] = nil
            return s.table.finish(fetch, byKey, fetchedAt: fetchedAt, now: now)
        }
        for (waiter, answer) in resume { waiter.resume(returning: answer) }
    }

    /// One request for `positions`: a batch when there are several (the caller only batches for
    /// a ``BatchWeatherProvider``), else a single one. One result per position.
    static func request(
        _ provider: any WeatherProvider, _ positions: [Coordinate]
    ) async -> [Result<Weather, WeatherError>] {
        do throws(WeatherError) {
            if positions.count > 1, let batch = provider as? any BatchWeatherProvider {
                let results = try await batch.currentWeather(atEach: positions)
                guard results.count == positions.count else {
                    throw .decoding(message: "\(results.count) answers for \(positions.count) positions")
                }
                return results
            }
            var results: [Result<Weather, WeatherError>] = []
            for position in positions {
                do throws(WeatherError) {
                    results.append(.success(try await provider.currentWeather(at: position)))
                } catch {
                    results.append(.failure(error))
                }
            }
            return results
        } catch {
            return Array(repeating: .failure(error), count: positions.count)
        }
    }
}
