#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The `alerts` member of the WEATHER object: what the alert source for the position said, or
/// why nothing can be said. It never claims more than the source answered:
///
/// - `{"source":"nws","status":"ok","items":[…],"fetchedAt":…}`: the source answered;
///   `items` are the alerts in force there (possibly none).
/// - `{"source":"nws","status":"unavailable","error":{"code":"alerts-unavailable",…},"items":[…]}`:
///   the source did not answer (or not yet); `items`, when present, are the alerts it listed
///   before that are still in force (not expired) — the list may be incomplete.
/// - `{"status":"uncovered"}`: no configured source covers the position (the country of the
///   nearest city, README "Alerts"), or there is no position.
///
/// The state's top-level `error` stays the weather's.
public struct AlertsState: Sendable, Equatable, Codable {
    public enum Status: String, Sendable, Codable {
        case ok, unavailable, uncovered
    }

    /// The source asked; absent when ``status`` is `uncovered`.
    public var source: AlertSourceID?
    public var status: Status
    /// The alerts in force, most severe first, then by onset; absent when uncovered, or when
    /// unavailable with none known.
    public var items: [Alert]?
    /// Why the source is unavailable (`code` `alerts-unavailable`, `message` naming the source
    /// and the failure).
    public var error: WeatherState.ErrorInfo?
    /// When the source last answered (a successful answer, ISO 8601 UTC).
    public var fetchedAt: Date?

    public init(
        source: AlertSourceID?, status: Status, items: [Alert]? = nil, error: WeatherState.ErrorInfo? = nil,
        fetchedAt: Date? = nil
    ) {
        self.source = source
        self.status = status
        self.items = items
        self.error = error
        self.fetchedAt = fetchedAt
    }

    /// No source covers the position.
    public static let uncovered = AlertsState(source: nil, status: .uncovered)

    /// The `error.code` of an unavailable source.
    public static let unavailableCode = "alerts-unavailable"

    /// The most severe alert in force (the first in ``ordered(_:)``'s order), if any.
    public var mostSevere: Alert? { items.flatMap { Self.ordered($0).first } }

    /// `alerts` in the published order: most severe first, then the earliest onset, then id.
    public static func ordered(_ alerts: [Alert]) -> [Alert] {
        alerts.sorted {
            if $0.severity != $1.severity { return $0.severity < $1.severity }
            let (a, b) = ($0.onset ?? .distantPast, $1.onset ?? .distantPast)
            if a != b { return a < b }
            return $0.id < $1.id
        }
    }
}
