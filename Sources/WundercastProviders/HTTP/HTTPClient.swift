#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WundercastModel

/// An HTTP response: status, headers (names lower-cased), body.
public struct HTTPResponse: Sendable {
    public var status: Int
    /// Header names in lower case; the last value wins for repeated headers.
    public var headers: [String: String]
    public var body: [UInt8]
    /// The `Retry-After` header in seconds from the moment the response arrived, when the client
    /// parsed it (both RFC 9110 forms: delta-seconds, or an HTTP-date, negative → 0); `nil`
    /// when absent or unreadable. A client that does not parse it leaves `nil`, and
    /// ``RetryAfter/seconds(_:now:httpDate:)`` reads the delta-seconds form from `headers`.
    public var retryAfter: Double?
    /// The `Date` header (when the server made the answer), `Expires` (when it goes stale)
    /// and `Last-Modified`, as instants, when the client parsed them (libcurl's `curl_getdate`,
    /// the three HTTP-date forms); `nil` when absent or unreadable. `Last-Modified` is sent
    /// back in `If-Modified-Since` exactly as received, from ``headers``.
    public var date: Date?
    public var expires: Date?
    public var lastModified: Date?

    public init(
        status: Int, headers: [String: String], body: [UInt8], retryAfter: Double? = nil, date: Date? = nil,
        expires: Date? = nil, lastModified: Date? = nil
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.retryAfter = retryAfter
        self.date = date
        self.expires = expires
        self.lastModified = lastModified
    }
}

/// The `Retry-After` response header (RFC 9110 §10.2.3): `delay-seconds` or an `HTTP-date`.
public enum RetryAfter {
    /// Seconds to wait: the delta-seconds form as is (`"120"`; a fraction such as `"1.5"` is
    /// accepted too), or the HTTP-date form (`"Wed, 21 Oct 2015 07:28:00 GMT"`) minus `now`,
    /// at least 0 (a date in the past means "now"). `httpDate` turns a date into seconds since
    /// 1970 (libcurl's `curl_getdate` in `WundercastHTTP`), `nil` when it cannot; `now` is in
    /// seconds since 1970. `nil` for an empty, negative, infinite or unreadable value.
    public static func seconds(_ value: String, now: Double, httpDate: (String) -> Double?) -> Double? {
        let trimmed = value.trimmingASCIIWhitespace()
        guard !trimmed.isEmpty else { return nil }
        if trimmed.first.map({ $0.isASCII && ($0.isNumber || $0 == ".") }) == true {
            // Digits with at most one decimal point: not Swift's hex (`0x1p30`) or exponent forms.
            let digits = trimmed.utf8.filter { $0 != UInt8(ascii: ".") }
            guard trimmed.utf8.count - digits.count <= 1, !digits.isEmpty,
                digits.allSatisfy({ (48...57).contains($0) }),
                let seconds = Double(trimmed), seconds.isFinite
            else { return nil }
            return seconds
        }
        guard let date = httpDate(trimmed), date.isFinite else { return nil }
        return max(0, date - now)
    }
}

/// A minimal HTTP GET client, implemented over libcurl in `WundercastHTTP`.
public protocol HTTPClient: Sendable {
    /// GETs `url` with extra request `headers` (e.g. `If-Modified-Since`). Follows redirects within
    /// `url`'s origin only (each request sent, hops too, counted in ``RequestTally/current``), accepts gzip, sends
    /// the client's User-Agent. Throws ``WeatherError/transport(code:message:)`` when no
    /// complete answer arrived (its code names the ``TransportFailure``), `http(status:…)` for a
    /// redirect not followed,
    /// ``WeatherError/tooLarge(limit:)`` for a body over the client's cap, and
    /// ``WeatherError/cancelled`` when the task was cancelled. Any status (304 included) is
    /// returned, not thrown. Secrets are redacted by the provider that holds them
    /// (``RedactingHTTPClient``).
    func get(_ url: String, headers: [String: String]) async throws(WeatherError) -> HTTPResponse
}
