import WundercastSupport

/// What kind of failure a ``WeatherError`` is, and what the daemon does about it
/// (docs/PROTOCOL.md, "Error codes"): the state it leads to when no weather is kept (with weather
/// kept it is always `stale`), the least back-off before the next attempt, and the priority of
/// its one log line.
public enum FailureKind: Sendable, Equatable, CaseIterable {
    /// The provider's host name could not be resolved (libcurl 5, 6).
    case dns
    /// No connection to the provider: refused, unreachable (libcurl 7).
    case connect
    /// The transfer took longer than `[Weather] Timeout=` (libcurl 28).
    case timeout
    /// TLS handshake or certificate check failed (libcurl 35, 53, 54, 58–60, 64, 66, 77, 80, 82, 83, 90, 91, 98).
    case tls
    /// Any other transfer failure (connection reset, a protocol error, a refused redirect, …).
    case network
    /// The answer ended before its announced length (libcurl 18, `CURLE_PARTIAL_FILE`).
    case truncated
    /// The answer's body was over the client's cap (``WeatherError/tooLarge(limit:)``).
    case tooLarge
    /// HTTP 401: the API key is missing or wrong.
    case unauthorized
    /// HTTP 403: a blocked key, or a banned User-Agent or address.
    case forbidden
    /// HTTP 404: the URL is wrong.
    case notFound
    /// HTTP 429, or a named request limit.
    case rateLimited
    /// HTTP 5xx.
    case server
    /// Any other non-success HTTP status.
    case http
    /// The body is not JSON.
    case notJSON
    /// An error report under a success status.
    case errorBody
    /// JSON of the wrong shape.
    case decoding
    /// A newer position won; not a failure of the provider.
    case cancelled

    /// The kind of a non-success HTTP status.
    public init(httpStatus status: Int) {
        self =
            switch status {
            case 401: .unauthorized
            case 403: .forbidden
            case 404: .notFound
            case 429: .rateLimited
            case 500...599: .server
            default: .http
            }
    }

    /// The `error.code` of the kind; HTTP kinds are published as `http-NNN` instead
    /// (``WeatherError/code``), so theirs is only the family name.
    public var code: String {
        switch self {
        case .dns: "dns"
        case .connect: "connect"
        case .timeout: "timeout"
        case .tls: "tls"
        case .network: "transport"
        case .truncated: "truncated"
        case .tooLarge: "too-large"
        case .unauthorized, .forbidden, .notFound, .rateLimited, .server, .http: "http"
        case .notJSON: "not-json"
        case .errorBody: "error-body"
        case .decoding: "decoding"
        case .cancelled: "cancelled"
        }
    }

    /// The provider could not be reached, or the answer did not get through: the state is
    /// `offline` when no weather is kept (else `error`: the provider answered badly).
    public var isNetwork: Bool {
        switch self {
        case .dns, .connect, .timeout, .tls, .network, .truncated: true
        default: false
        }
    }

    /// The least wait before the next attempt after the `n`-th failure of this kind in a row,
    /// on top of the ``RetryPolicy``'s own back-off (5 s … 10 min): `nil` when that suffices.
    /// - 401, 403: 1 h, doubling to 24 h (a wrong key or a ban does not go away by asking;
    ///   asking again can make a ban longer).
    /// - 404: 10 min, doubling to 6 h (the URL is wrong).
    /// - 429 without `Retry-After`: 1 min, doubling to 1 h (``WeatherError/minimumBackoff``).
    public var minimumBackoff: Backoff? {
        switch self {
        case .unauthorized, .forbidden: Backoff(initial: .seconds(3600), maximum: .seconds(86_400))
        case .notFound: Backoff(initial: .seconds(600), maximum: .seconds(21_600))
        case .rateLimited: Backoff(initial: .seconds(60), maximum: .seconds(3600))
        default: nil
        }
    }

    /// The priority of the failure's log line: `error` when only an administrator can fix it.
    public var logPriority: LogPriority {
        switch self {
        case .unauthorized, .forbidden, .notFound: .error
        default: .warning
        }
    }
}

extension WeatherError {
    /// The least back-off of this failure's kind (``FailureKind/minimumBackoff``), except that
    /// a 429 that says how long to wait (`Retry-After`, a named limit) is taken at its word.
    public var minimumBackoff: Backoff? {
        if kind == .rateLimited && (retryAfter != nil || limitWindow != nil) { return nil }
        return kind.minimumBackoff
    }
}

/// A libcurl `CURLcode` sorted into the kinds a reader can act on. The numbers are libcurl's
/// (`include/curl/curl.h`; libcurl never renumbers them); `WundercastHTTP`'s tests check this
/// table against the named constants.
public enum TransportFailure: Sendable, Equatable {
    case dns, connect, timeout, tls, truncated, tooLarge, other

    public init(curlCode code: Int) {
        self =
            switch code {
            case 5, 6: .dns  // COULDNT_RESOLVE_PROXY, COULDNT_RESOLVE_HOST
            case 7: .connect  // COULDNT_CONNECT
            case 28: .timeout  // OPERATION_TIMEDOUT
            case 35, 53, 54, 58, 59, 60, 64, 66, 77, 80, 82, 83, 90, 91, 98: .tls  // SSL_*, PEER_FAILED_VERIFICATION
            case 18: .truncated  // PARTIAL_FILE
            case 63: .tooLarge  // FILESIZE_EXCEEDED
            default: .other
            }
    }

    public var kind: FailureKind {
        switch self {
        case .dns: .dns
        case .connect: .connect
        case .timeout: .timeout
        case .tls: .tls
        case .truncated: .truncated
        case .tooLarge: .tooLarge
        case .other: .network
        }
    }

    /// The head of the error's message.
    var summary: String {
        switch self {
        case .dns: "cannot resolve the provider's host name"
        case .connect: "cannot connect to the provider"
        case .timeout: "the provider did not answer in time"
        case .tls: "TLS with the provider failed"
        case .truncated: "the answer was cut short"
        case .tooLarge: "the answer was too large"
        case .other: "transfer failed"
        }
    }
}
