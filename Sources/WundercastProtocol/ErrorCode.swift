extension SocketProtocol {
    /// The stable `code` of an `ERROR` response (docs/PROTOCOL.md). Errors a provider gave
    /// for a one-off lookup carry the provider's code instead (`http-NNN`, `transport`,
    /// `decoding`), as the state's `error.code` does.
    public enum ErrorCode: String, Sendable, Codable, CaseIterable {
        /// The first word is not a request (or the line is empty).
        case unknownRequest = "unknown-request"
        /// The request's arguments are wrong; the message names which.
        case badArgument = "bad-argument"
        /// The request line is longer than ``SocketProtocol/maxRequestLength``; reading stops.
        case tooLong = "too-long"
        /// The request line is not UTF-8 text.
        case notUTF8 = "not-utf8"
        /// The request needs a precise reader (root, the daemon's user, `PreciseGroup=`).
        case notPermitted = "not-permitted"
        /// No place of that name, on the machine nor (when enabled) online.
        case noSuchPlace = "no-such-place"
        /// Names cannot be looked up online (`OnlineGeocoding=no`, or the service failed).
        case geocodingUnavailable = "geocoding-unavailable"
        /// `around` without a place while the daemon has no position.
        case noLocation = "no-location"
        /// This user's one-off lookups exceed `[Socket] LookupsPerMinute=`.
        case rateLimited = "rate-limited"
        /// The provider asked us to wait (`Retry-After`, a named request limit); lookups are
        /// refused until then, without a request.
        case providerBackoff = "provider-backoff"
        /// `[Socket] MaxClients=` are connected; the connection is closed.
        case tooManyClients = "too-many-clients"
        /// No request within `[Socket] IdleTimeout=`; the connection is closed.
        case idleTimeout = "idle-timeout"
        /// The daemon is shutting down.
        case shuttingDown = "shutting-down"
    }
}
