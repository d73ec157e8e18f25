#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One stored answer and what conditional requests need of it (RFC 9110 §13.1.3, RFC 9111
/// §4.2; MET Norway's terms of service): its body, its `Last-Modified` exactly as received,
/// and until when it may be used without asking again (`Expires`).
///
/// - ``fresh(at:)``: before `Expires` the stored answer is used and no request is made.
/// - ``requestHeaders``: after it, the request carries `If-Modified-Since` with the stored
///   `Last-Modified`, byte for byte.
/// - ``receive(_:at:wallNow:)``: 200 and 203 replace the stored answer (203 "Non-Authoritative
///   Information" counts as success; MET Norway sends it for a deprecated product, and the caller
///   warns once); 304 keeps the stored body and takes the new `Expires`; any other status
///   leaves the cache as it is.
///
/// Time: the freshness lifetime is `Expires` minus the answer's `Date` (the server's own clock,
/// so a machine whose clock is off neither hammers nor starves the provider; without `Date`,
/// the wall clock at arrival), counted on the caller's monotonic clock from arrival, and at most
/// ``maximumLifetime``.
public struct ConditionalCache<Instant: InstantProtocol>: Sendable where Instant.Duration == Swift.Duration {
    /// The stored answer.
    public struct Entry: Sendable, Equatable {
        /// HTTP status of the stored answer: 200 or 203.
        public var status: Int
        /// Response headers (names in lower case) of the answer that brought the body.
        public var headers: [String: String]
        public var body: [UInt8]
        /// `Last-Modified` exactly as the server sent it, for `If-Modified-Since`.
        public var lastModified: String?
        /// Until when it may be used without a request; `nil`: always ask (with `If-Modified-Since`).
        public var freshUntil: Instant?
    }

    /// The longest a stored answer is used without asking, whatever `Expires` says: 6 h.
    public let maximumLifetime: Duration
    public private(set) var entry: Entry?

    public init(maximumLifetime: Duration = .seconds(6 * 3600)) {
        self.maximumLifetime = maximumLifetime
    }

    /// The stored answer when it may be used at `now` without a request (before its `Expires`).
    public func fresh(at now: Instant) -> Entry? {
        guard let entry, let until = entry.freshUntil, now < until else { return nil }
        return entry
    }

    /// `If-Modified-Since` with the stored `Last-Modified`, when there is one.
    public var requestHeaders: [String: String] {
        entry?.lastModified.map { ["If-Modified-Since": $0] } ?? [:]
    }

    /// What an answer meant.
    public enum Outcome: Sendable, Equatable {
        /// 200 or 203: stored. `nonAuthoritative` for 203.
        case stored(nonAuthoritative: Bool)
        /// 304 with an answer stored: its body stands, its lifetime is renewed.
        case notModified
        /// Any other status (304 included when nothing is stored): the cache is unchanged.
        case notCached
    }

    /// Takes the answer to a request made with ``requestHeaders``, arrived at `now` on the
    /// monotonic clock and `wallNow` on the wall clock.
    public mutating func receive(_ response: HTTPResponse, at now: Instant, wallNow: Date) -> Outcome {
        let until = freshUntil(response, at: now, wallNow: wallNow)
        switch response.status {
        case 200, 203:
            entry = Entry(
                status: response.status, headers: response.headers, body: response.body,
                lastModified: response.headers["last-modified"], freshUntil: until)
            return .stored(nonAuthoritative: response.status == 203)
        case 304:
            guard var stored = entry else { return .notCached }
            stored.freshUntil = until
            if let lastModified = response.headers["last-modified"] { stored.lastModified = lastModified }
            entry = stored
            return .notModified
        default:
            return .notCached
        }
    }

    /// `Expires` − (`Date` or `wallNow`), from `now`; `nil` without a readable `Expires`.
    private func freshUntil(_ response: HTTPResponse, at now: Instant, wallNow: Date) -> Instant? {
        guard let expires = response.expires else { return nil }
        let seconds = expires.timeIntervalSince(response.date ?? wallNow)
        guard seconds.isFinite, seconds > 0 else { return now }
        let cap = Double(maximumLifetime.components.seconds)
        let lifetime = seconds >= cap ? maximumLifetime : .milliseconds(Int64((seconds * 1000).rounded(.down)))
        return now.advanced(by: lifetime)
    }
}
