#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization
import WundercastSupport
import WundercastModel

/// An ``HTTPClient`` that asks another one only when it must: one ``ConditionalCache`` per URL
/// (the last ``capacity`` URLs used), for a provider that wants `Expires` honoured and
/// `If-Modified-Since` sent (MET Norway).
///
/// - A stored answer before its `Expires` is returned without a request.
/// - Otherwise the request carries `If-Modified-Since` with the stored `Last-Modified`; a 304
///   returns the stored answer (its status and body) as if it had come again.
/// - 200 and 203 are stored and returned; the first 203 logs one warning (the product is
///   deprecated or the answer is not authoritative), later ones are silent.
/// - Any other status is returned as it is and leaves the stored answer alone; errors are the
///   inner client's.
///
/// The returned ``HTTPResponse`` of a stored answer carries its stored status, headers and body
/// (not the instants parsed from them, nor `Retry-After`). Time comes from `clock` (monotonic)
/// and `wallClock`.
public final class ConditionalHTTPClient<C: Clock>: HTTPClient, Sendable where C.Duration == Swift.Duration {
    private struct State {
        var caches: [String: ConditionalCache<C.Instant>] = [:]
        /// URLs, least recently used first.
        var order: [String] = []
        var warned = false
    }

    public let http: any HTTPClient
    /// URLs remembered at most (a moving receiver asks for ever new positions).
    public let capacity: Int
    private let clock: C
    private let wallClock: @Sendable () -> Date
    private let logger: Logger
    private let state = Mutex(State())

    public init(
        http: any HTTPClient, clock: C, wallClock: @escaping @Sendable () -> Date = { Date() },
        capacity: Int = 16, logger: Logger = .discard
    ) {
        self.http = http
        self.clock = clock
        self.wallClock = wallClock
        self.capacity = max(1, capacity)
        self.logger = logger
    }

    public func get(_ url: String, headers: [String: String]) async throws(WeatherError) -> HTTPResponse {
        let now = clock.now
        let (stored, conditional) = state.withLock { s in
            let cache = s.caches[url]
            return (cache?.fresh(at: now), cache?.requestHeaders ?? [:])
        }
        if let stored { return Self.response(stored) }
        let response = try await http.get(url, headers: headers.merging(conditional) { _, new in new })
        let arrived = clock.now
        let wallNow = wallClock()
        let (outcome, entry, warn) = state.withLock { s in
            var cache = s.caches[url] ?? ConditionalCache()
            let outcome = cache.receive(response, at: arrived, wallNow: wallNow)
            var warn = false
            if outcome != .notCached {
                s.caches[url] = cache
                s.order.removeAll { $0 == url }
                s.order.append(url)
                while s.order.count > capacity { s.caches[s.order.removeFirst()] = nil }
                if outcome == .stored(nonAuthoritative: true) && !s.warned {
                    s.warned = true
                    warn = true
                }
            }
            return (outcome, cache.entry, warn)
        }
        if warn {
            logger.warning(
                "the weather provider answered 203 Non-Authoritative Information: the API version in use is "
                    + "deprecated or the answer was changed on the way; the answer is used (said once)")
        }
        if outcome == .notModified, let entry { return Self.response(entry) }
        return response
    }

    /// Drops the stored answer of `url`: the caller found it unusable (a body that does not
    /// decode, such as a captive portal's page), so the next request goes to the network,
    /// without `If-Modified-Since`, whatever its `Expires` said.
    public func forget(_ url: String) {
        state.withLock { s in
            s.caches[url] = nil
            s.order.removeAll { $0 == url }
        }
    }

    /// The stored answer as a response (no date parser in WundercastProviders to re-read its headers).
    private static func response(_ entry: ConditionalCache<C.Instant>.Entry) -> HTTPResponse {
        HTTPResponse(status: entry.status, headers: entry.headers, body: entry.body)
    }
}
