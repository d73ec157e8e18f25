import WundercastSupport

/// Why a weather fetch failed. Each case has a ``kind`` (what the daemon does about it: the
/// state, the back-off, the log priority) and a stable ``code`` for the state's `error.code`
/// (docs/PROTOCOL.md, "Error codes").
///
/// Messages never contain an API key: a provider with a key redacts its answers and its client's
/// errors where they enter (``RedactingHTTPClient``, which uses ``redacted(by:)``), before any
/// text is cut. Provider or transport text
/// reaches ``message`` only through ``UntrustedText/sanitized(_:limit:)`` (at most 200
/// scalars, no control characters).
public enum WeatherError: Error, Sendable, Equatable {
    /// The transfer failed before a complete answer arrived. `code` is libcurl's `CURLcode`,
    /// which names the ``TransportFailure`` (DNS, connect, timeout, TLS, a body cut short, …);
    /// `message` is libcurl's text, its URLs without their query.
    case transport(code: Int, message: String)
    /// The answer's body was larger than `limit` bytes (after gzip decoding): the transfer was
    /// aborted at that size, so memory stays bounded.
    case tooLarge(limit: Int)
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
    /// The body is not JSON at all (an HTML page from a captive portal or a proxy, garbage).
    /// `status` is the HTTP status, `bytes` the body's length, `contentType` the `Content-Type`
    /// header when sent.
    case notJSON(status: Int, bytes: Int, contentType: String?)
    /// A success status whose body is the provider's error report (Open-Meteo
    /// `{"error":true,"reason":…}` under 200; OpenWeatherMap's `cod` other than 200): never
    /// trust the status line alone (PITFALLS). `providerCode` is the body's own code when it has
    /// one (OpenWeatherMap `cod`), `reason` its text. Provider decoders throw this.
    case errorBody(status: Int, providerCode: String?, reason: String?)
    /// The body is JSON but could not be decoded; `message` names the member that was wrong.
    case decoding(message: String)
    /// The fetch was cancelled (a newer position won).
    case cancelled

    /// What kind of failure this is (state, back-off, log priority).
    public var kind: FailureKind {
        switch self {
        case .transport(let code, _): TransportFailure(curlCode: code).kind
        case .tooLarge: .tooLarge
        case .http(let status, _, _): FailureKind(httpStatus: status)
        case .limited: .rateLimited
        case .notJSON: .notJSON
        case .errorBody: .errorBody
        case .decoding: .decoding
        case .cancelled: .cancelled
        }
    }

    /// Stable machine-readable code for the state's `error.code`: `http-NNN` for an HTTP status
    /// (also a named request limit under an error status), `error-body` for a named request limit
    /// under a success status (Open-Meteo's limit body with HTTP 200: an error report in a success
    /// answer, like ``errorBody(status:providerCode:reason:)``), else the kind's code (`dns`,
    /// `connect`, `timeout`, `tls`, `transport`, `truncated`, `too-large`, `not-json`,
    /// `error-body`, `decoding`, `cancelled`).
    public var code: String {
        switch self {
        case .limited(let status, _, _, _) where Self.isSuccess(status): FailureKind.errorBody.code
        case .http(let status, _, _), .limited(let status, _, _, _): "http-\(status)"
        default: kind.code
        }
    }

    /// Whether `status` is a success status (2xx): an error report under it is an `error-body`.
    static func isSuccess(_ status: Int) -> Bool { (200..<300).contains(status) }

    /// One human line, e.g. `HTTP 500: internal error`; for 401, 403 and 404 it says what to
    /// fix. Outside text in it (a provider's reason, libcurl's error, a member name from the
    /// body, a content type) is sanitised (``UntrustedText/sanitized(_:limit:)``): bounded,
    /// without control characters.
    public var message: String {
        func clean(_ text: String) -> String { UntrustedText.sanitized(text) }
        func reasoned(_ head: String, _ reason: String?) -> String {
            head + (reason.map { ": \(clean($0))" } ?? "")
        }
        return switch self {
        case .transport(let code, let message):
            "\(TransportFailure(curlCode: code).summary) (curl \(code)): \(clean(message))"
        case .tooLarge(let limit):
            "answer larger than \(limit) bytes: transfer aborted"
        case .http(let status, let reason, _):
            reasoned("HTTP \(status)", reason) + (Self.hint(status: status).map { " — \($0)" } ?? "")
        case .limited(let status, _, let reason, _) where Self.isSuccess(status):
            "error report in an HTTP \(status) answer: \(clean(reason))"
        case .limited(let status, _, let reason, _):
            "HTTP \(status): \(clean(reason))"
        case .notJSON(let status, let bytes, let contentType):
            "answer is not JSON (HTTP \(status), \(bytes) bytes"
                + (contentType.map { ", \(UntrustedText.sanitized($0, limit: 40))" } ?? "")
                + "): a captive portal or proxy?"
        case .errorBody(let status, let providerCode, let reason):
            reasoned(
                "error report in an HTTP \(status) answer"
                    + (providerCode.map { " (code \(UntrustedText.sanitized($0, limit: 20)))" } ?? ""), reason)
        case .decoding(let message):
            "bad response body: \(clean(message))"
        case .cancelled:
            "cancelled"
        }
    }

    /// What to fix, for the statuses that will not go away by waiting.
    static func hint(status: Int) -> String? {
        switch status {
        case 401:
            "the provider refused the API key: check it (APIKeyFile=) and restart wundercast"
        case 403:
            "access refused: a wrong or blocked API key, or a User-Agent or address the provider has banned; "
                + "check APIKeyFile= and [Weather] Contact=, then restart wundercast"
        case 404:
            "nothing at that address: check [Weather] URL="
        default: nil
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

    /// The error with every secret value in its texts replaced (``Secrets/redact(_:)``).
    public func redacted(by secrets: Secrets) -> WeatherError {
        guard !secrets.isEmpty else { return self }
        let r: (String) -> String = secrets.redact
        return switch self {
        case .transport(let code, let message): .transport(code: code, message: r(message))
        case .http(let status, let reason, let retryAfter):
            .http(status: status, reason: reason.map(r), retryAfter: retryAfter)
        case .limited(let status, let window, let reason, let retryAfter):
            .limited(status: status, window: window, reason: r(reason), retryAfter: retryAfter)
        case .notJSON(let status, let bytes, let contentType):
            .notJSON(status: status, bytes: bytes, contentType: contentType.map(r))
        case .errorBody(let status, let providerCode, let reason):
            .errorBody(status: status, providerCode: providerCode.map(r), reason: reason.map(r))
        case .decoding(let message): .decoding(message: r(message))
        case .tooLarge, .cancelled: self
        }
    }
}

/// A provider's rate-limit window: its limit is counted per minute, hour or day (UTC).
public enum LimitWindow: Sendable, Equatable {
    case minute, hour, day
}
