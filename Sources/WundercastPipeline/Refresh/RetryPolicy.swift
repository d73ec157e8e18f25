#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WundercastModel

/// How long to wait after a failed weather fetch: one policy per provider, so that its
/// memory of failures survives new positions (a moving receiver must not restart the
/// back-off at every fix and hammer a provider that said "too many requests").
///
/// The wait after failure number `n` (1-based) is the longest of:
/// - the exponential back-off `backoff.delay(attempt: n)` (5 s, 10 s, 20 s … 10 min by default);
/// - the least back-off of the failure's kind (``WeatherError/minimumBackoff``) after `k`
///   failures of that kind in a row: 401/403 wait 1 h doubling to 24 h, 404 10 min doubling to
///   6 h, 429 without `Retry-After` 1 min doubling to 1 h;
/// - the provider's `Retry-After` (``WeatherError/retryAfter``, seconds; either form of the
///   header, converted by the HTTP client);
/// - for a named request limit (``WeatherError/limitWindow``, e.g. Open-Meteo's "Daily API
///   request limit exceeded"), the time until the next UTC minute, hour or day begins;
///
/// and never more than ``maximumWait`` (a huge or hostile `Retry-After` neither traps nor
/// stops fetching for good). A success resets the count.
public struct RetryPolicy: Sendable, Equatable {
    public let backoff: Backoff
    /// Upper bound of any wait: 24 h by default (a daily limit waits at most that long).
    public let maximumWait: Duration
    /// Failed fetches since the last success.
    public private(set) var failures = 0
    /// The kind of the last failure, and how many failures of that kind came in a row.
    public private(set) var streak: (kind: FailureKind, count: Int)?

    public static func == (a: RetryPolicy, b: RetryPolicy) -> Bool {
        a.backoff == b.backoff && a.maximumWait == b.maximumWait && a.failures == b.failures
            && a.streak?.kind == b.streak?.kind && a.streak?.count == b.streak?.count
    }

    public init(
        backoff: Backoff = Backoff(initial: .seconds(5), maximum: .seconds(600)),
        maximumWait: Duration = .seconds(86_400)
    ) {
        self.backoff = backoff
        self.maximumWait = maximumWait
    }

    /// A fetch succeeded: the next failure starts the back-off from the beginning.
    public mutating func succeeded() {
        failures = 0
        streak = nil
    }

    /// Records a failed fetch that ended at wall-clock `now` (UTC) and returns how long to
    /// wait before the next attempt.
    public mutating func failed(_ error: WeatherError, now: Date) -> Duration {
        failures += 1
        var wait = backoff.delay(attempt: failures)
        let kind = error.kind
        let inARow = streak?.kind == kind ? (streak?.count ?? 0) + 1 : 1
        streak = (kind, inARow)
        if let floor = error.minimumBackoff {
            wait = max(wait, floor.delay(attempt: inARow))
        }
        if let seconds = error.retryAfter, seconds > 0 {
            wait = max(wait, Self.duration(seconds: seconds, cap: maximumWait))
        }
        if let window = error.limitWindow {
            wait = max(wait, Self.untilNext(window, after: now))
        }
        return min(wait, maximumWait)
    }

    /// Time from `now` until the next UTC `window` boundary (the next minute, hour or day).
    public static func untilNext(_ window: LimitWindow, after now: Date) -> Duration {
        let length: Double =
            switch window {
            case .minute: 60
            case .hour: 3600
            case .day: 86_400
            }
        let t = now.timeIntervalSince1970
        let next = (t / length).rounded(.down) * length + length
        return .milliseconds(Int64(((next - t) * 1000).rounded(.up)))
    }

    /// `seconds` as a `Duration`, at most `cap` (checked before converting, so a huge value cannot trap).
    static func duration(seconds: Double, cap: Duration) -> Duration {
        let capSeconds = Double(cap.components.seconds)
        guard seconds.isFinite, seconds < capSeconds else { return cap }
        return .milliseconds(Int64((seconds * 1000).rounded(.up)))
    }
}
