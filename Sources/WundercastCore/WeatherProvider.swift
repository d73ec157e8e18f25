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

/// Why a weather fetch failed. Messages never contain an API key.
public enum WeatherError: Error, Sendable, Equatable {
    /// The transfer failed before an HTTP status arrived (DNS, connect, timeout, TLS).
    /// `code` is libcurl's `CURLcode`.
    case transport(code: Int, message: String)
    /// The provider answered with a non-success HTTP status. `retryAfter` is the
    /// `Retry-After` header in seconds, when given; `reason` is the provider's own text.
    case http(status: Int, reason: String?, retryAfter: Double?)
    /// The body could not be decoded; `message` names the member that was wrong.
    case decoding(message: String)
    /// The fetch was cancelled (a newer position won).
    case cancelled

    /// Stable machine-readable code for the state's `error.code`, e.g. `"http-500"`.
    public var code: String {
        switch self {
        case .transport: "transport"
        case .http(let status, _, _): "http-\(status)"
        case .decoding: "decoding"
        case .cancelled: "cancelled"
        }
    }

    /// One human line, e.g. `HTTP 500 from provider`.
    public var message: String {
        switch self {
        case .transport(let code, let message): "transfer failed (curl \(code)): \(message)"
        case .http(let status, let reason, _): "HTTP \(status)" + (reason.map { ": \($0)" } ?? "")
        case .decoding(let message): "bad response body: \(message)"
        case .cancelled: "cancelled"
        }
    }

    /// Seconds the provider asked us to wait (`Retry-After`), if it did.
    public var retryAfter: Double? {
        if case .http(_, _, let retryAfter) = self { return retryAfter }
        return nil
    }

    /// The provider's request limit that was exceeded, when its answer names one
    /// (Open-Meteo: "Daily API request limit exceeded. Please try again tomorrow.").
    /// The retry policy waits until the next such window starts.
    public var limitWindow: LimitWindow? { nil }
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

    public init(status: Int, headers: [String: String], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
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
