import WundercastCore

/// When a gpsd connection counts as healthy, and how long to wait before the next attempt.
///
/// Pure and deterministic: the reader passes in what happened and how long the connection has
/// been up; nothing here reads a clock or sleeps.
///
/// The rule: failures (a refused `gps_open`, a refused `?WATCH`, a lost connection) count up,
/// and the delay before attempt `n + 1` is ``Backoff/delay(attempt:)`` of the `n` failures so far.
/// The count is reset only when a connection becomes *healthy*:
/// - it delivered a TPV report (gpsd is reading a receiver and writing reports), or
/// - it stayed up without error for ``healthyAfter`` (a gpsd without a receiver sends nothing
///   after its greeting, and silence is not a disconnect: PITFALLS, libgps).
///
/// The VERSION banner, DEVICES, WATCH or any other first line do *not* make a connection
/// healthy: a broken gpsd that greets and then sends a line over libgps's buffer (which makes
/// `gps_read` drop the connection; gpsd's largest JSON report is 9,216 bytes) caused 39
/// reconnects in 10 s when the banner reset the back-off (PITFALLS, found on wundercast).
struct ReconnectSchedule: Sendable, Equatable {
    /// Delays: `initial`, doubling, at most `maximum`.
    let backoff: Backoff
    /// How long a connection must stay up without error to count as healthy without a TPV.
    let healthyAfter: Duration

    /// Failed attempts since the last healthy connection.
    private(set) var failures = 0
    /// Whether the current connection is healthy (false while closed or backing off).
    private(set) var isHealthy = false

    init(backoff: Backoff, healthyAfter: Duration) {
        self.backoff = backoff
        self.healthyAfter = healthyAfter
    }

    /// What the current connection delivered.
    enum Evidence: Sendable, Equatable {
        /// A TPV report (with or without a position).
        case tpv
        /// Any other line (VERSION, DEVICES, WATCH, SKY, DEVICE), or nothing (a quiet poll).
        case other
    }

    /// A connection was opened: it is not healthy until ``observe(_:upFor:)`` says so.
    mutating func opened() {
        isHealthy = false
    }

    /// Something (or nothing: a quiet poll) happened on the open connection, which has been up
    /// for `upFor`. Returns `true` exactly once per connection: when this made it healthy; the
    /// caller then reports `.connected`. The failure count is reset at that moment.
    mutating func observe(_ evidence: Evidence, upFor: Duration) -> Bool {
        guard !isHealthy else { return false }
        guard evidence == .tpv || upFor >= healthyAfter else { return false }
        isHealthy = true
        failures = 0
        return true
    }

    /// An attempt failed or the connection was lost. Counts the failure and returns the delay
    /// before the next attempt: `initial` after a healthy connection, growing with each
    /// failure that follows without a healthy connection in between.
    mutating func failed() -> Duration {
        isHealthy = false
        failures += 1
        return backoff.delay(attempt: failures)
    }
}
