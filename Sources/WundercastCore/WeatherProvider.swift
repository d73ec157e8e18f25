#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A source of current weather for a coordinate (Open-Meteo, OpenWeatherMap, MET Norway).
public protocol WeatherProvider: Sendable {
    /// Short provider name as published in the state's `provider` member, e.g. `"open-meteo"`.
    var name: String { get }
    /// Fetches the current weather at `coordinate`, which the caller has already rounded to
    /// the configured precision. Throws ``WeatherError``; honours task cancellation.
    func currentWeather(at coordinate: Coordinate) async throws(WeatherError) -> Weather
}

/// Why a weather fetch failed. Messages never contain an API key, and provider or transport
/// text reaches ``message`` only through ``UntrustedText/sanitized(_:limit:)`` (at most 200
/// scalars, no control characters).
public enum WeatherError: Error, Sendable, Equatable {
    /// The transfer failed before an HTTP status arrived (DNS, connect, timeout, TLS).
    /// `code` is libcurl's `CURLcode`.
    case transport(code: Int, message: String)
    /// The provider answered with a non-success HTTP status. `retryAfter` is the
    /// `Retry-After` header in seconds from now (delta-seconds, or an HTTP-date converted; never
    /// negative), when given; `reason` is the provider's own text.
    case http(status: Int, reason: String?, retryAfter: Double?)
    /// The provider answered that a request limit counted per `window` is exhausted (Open-Meteo:
    /// HTTP 429 with `"reason":"Daily API request limit exceeded. Please try again tomorrow."`,
    /// also Hourly and Minutely). `status` is the HTTP status (429, or whatever carried the
    /// reason), `reason` the provider's text, `retryAfter` as for ``http(status:reason:retryAfter:)``
    /// (Open-Meteo sends none).
    case limited(status: Int, window: LimitWindow, reason: String, retryAfter: Double?)
    /// The body could not be decoded; `message` names the member that was wrong.
    case decoding(message: String)
    /// The fetch was cancelled (a newer position won).
    case cancelled

    /// Stable machine-readable code for the state's `error.code`, e.g. `"http-500"`.
    public var code: String {
        switch self {
        case .transport: "transport"
        case .http(let status, _, _), .limited(let status, _, _, _): "http-\(status)"
        case .decoding: "decoding"
        case .cancelled: "cancelled"
        }
    }

    /// One human line, e.g. `HTTP 500: internal error`. Outside text in it (a provider's
    /// reason, libcurl's error, a member name from the body) is sanitised
    /// (``UntrustedText/sanitized(_:limit:)``): bounded, without control characters.
    public var message: String {
        func clean(_ text: String) -> String { UntrustedText.sanitized(text) }
        return switch self {
        case .transport(let code, let message): "transfer failed (curl \(code)): \(clean(message))"
        case .http(let status, let reason, _): "HTTP \(status)" + (reason.map { ": \(clean($0))" } ?? "")
        case .limited(let status, _, let reason, _): "HTTP \(status): \(clean(reason))"
        case .decoding(let message): "bad response body: \(clean(message))"
        case .cancelled: "cancelled"
        }
    }

    /// Seconds the provider asked us to wait (`Retry-After`), if it did.
    public var retryAfter: Double? {
        switch self {
        case .http(_, _, let retryAfter), .limited(_, _, _, let retryAfter): retryAfter
        default: nil
        }
    }

    /// The provider's request limit that was exceeded, when its answer names one
    /// (Open-Meteo: "Daily API request limit exceeded. Please try again tomorrow.").
    /// The retry policy waits until the next such window starts.
    public var limitWindow: LimitWindow? {
        if case .limited(_, let window, _, _) = self { return window }
        return nil
    }
}

/// A provider's rate-limit window: its limit is counted per minute, hour or day (UTC).
public enum LimitWindow: Sendable, Equatable {
    case minute, hour, day
}

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

    public init(status: Int, headers: [String: String], body: [UInt8], retryAfter: Double? = nil) {
        self.status = status
        self.headers = headers
        self.body = body
        self.retryAfter = retryAfter
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
            guard let seconds = Double(trimmed), seconds.isFinite, seconds >= 0 else { return nil }
            return seconds
        }
        guard let date = httpDate(trimmed), date.isFinite else { return nil }
        return max(0, date - now)
    }
}

/// A minimal HTTP GET client, implemented over libcurl in `WundercastHTTP`.
public protocol HTTPClient: Sendable {
    /// GETs `url` with extra request `headers`. Follows redirects, accepts gzip, sends the
    /// client's User-Agent. Throws ``WeatherError/transport(code:message:)`` when no status
    /// arrived, ``WeatherError/cancelled`` when the task was cancelled. Any status is returned,
    /// not thrown.
    func get(_ url: String, headers: [String: String]) async throws(WeatherError) -> HTTPResponse
}
