import WundercastModel

/// When a gpsd connection counts as connected, when it is stable enough to start the back-off
/// over, and how long to wait before the next attempt.
///
/// Pure and deterministic: the reader passes in what happened and how long the connection has
/// been up; nothing here reads a clock or sleeps.
///
/// Failures (a refused `gps_open`, a refused `?WATCH`, a lost connection) count up, and the
/// delay before attempt `n + 1` is ``Backoff/delay(attempt:)`` of the `n` failures so far.
///
/// A connection is *connected* (the caller reports `.connected`) once it delivered a TPV
/// report, or stayed up without error for ``connectedAfter`` (a gpsd without a receiver sends
/// nothing after its greeting, and silence is not a disconnect: PITFALLS, libgps).
///
/// The failure count is reset only when a connection is *stable*: it has stayed open at least
/// ``stableAfter`` — or the back-off delay that preceded it, if longer — and delivered an
/// accepted fix. A banner, a DEVICE report or one TPV before a close is not stable: a gpsd
/// that greets and then sends a line over libgps's buffer caused 39 reconnects in 10 s when
/// the banner reset the back-off (PITFALLS, found on wundercast), and one that sends a TPV and
/// closes (a crash loop, a flaky link) was reconnected every 250 ms when any TPV reset it
/// (issue 14, M1: 100 connections in 30 s).
struct ReconnectSchedule: Sendable, Equatable {
    /// Delays: `initial`, doubling, at most `maximum`.
    let backoff: Backoff
    /// How long a connection must stay up without error to count as connected without a TPV.
    let connectedAfter: Duration
    /// How long a connection with an accepted fix must stay up before the back-off starts over
    /// (the delay that preceded it, if that is longer).
    let stableAfter: Duration

    /// Failed attempts since the last stable connection.
    private(set) var failures = 0
    /// Whether the current connection has been reported connected (false while closed or backing off).
    private(set) var isConnected = false
    /// Whether the current connection has reset the failure count.
    private(set) var isStable = false
    /// Whether the current connection delivered an accepted fix.
    private var sawFix = false

    init(backoff: Backoff, connectedAfter: Duration, stableAfter: Duration) {
        self.backoff = backoff
        self.connectedAfter = connectedAfter
        self.stableAfter = stableAfter
    }

    /// What the current connection delivered.
    enum Evidence: Sendable, Equatable {
        /// A TPV report that was accepted as a fix (``Fix/init(report:)``).
        case fix
        /// A TPV report that is not a fix (no position yet, or one that fails the rules).
        case tpv
        /// Any other line (VERSION, DEVICES, WATCH, SKY, DEVICE), or nothing (a connection
        /// timer: the connection has been up that long).
        case other
    }

    /// How long the current connection must stay up (with an accepted fix) to be stable:
    /// ``stableAfter``, or the delay that preceded this connection if that is longer.
    var stableFor: Duration {
        failures == 0 ? stableAfter : max(stableAfter, backoff.delay(attempt: failures))
    }

    /// A connection was opened: it is neither connected nor stable until ``observe(_:upFor:)``
    /// says so.
    mutating func opened() {
        isConnected = false
        isStable = false
        sawFix = false
    }

    /// Something (or nothing: a connection timer) happened on the open connection, which has
    /// been up for `upFor`. Returns `true` exactly once per connection: when this made it
    /// connected; the caller then reports `.connected`. Resets the failure count once the
    /// connection is stable.
    mutating func observe(_ evidence: Evidence, upFor: Duration) -> Bool {
        if evidence == .fix { sawFix = true }
        let stable = sawFix && upFor >= stableFor
        if stable, !isStable {
            isStable = true
            failures = 0
        }
        guard !isConnected else { return false }
        guard evidence != .other || upFor >= connectedAfter else { return false }
        isConnected = true
        return true
    }

    /// An attempt failed or the connection was lost. Counts the failure and returns the delay
    /// before the next attempt: `initial` after a stable connection, growing with each failure
    /// that follows without a stable connection in between.
    mutating func failed() -> Duration {
        isConnected = false
        isStable = false
        sawFix = false
        failures += 1
        return backoff.delay(attempt: failures)
    }
}
