#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WundercastModel

/// The alerts in force from one source for one position: the one owner of what is in force,
/// what was issued, updated and ended (a state machine as a struct; its owner calls it from one
/// task and journals the events it returns).
///
/// Rules:
/// - An alert is in force from the answer that lists it until the first of: its `expires`
///   passes (``expire(at:)``, fetched again or not), a successful answer no longer lists it, a
///   Cancel in an answer references it.
/// - An Update replaces the alerts it references; when it references none in force, it
///   replaces the one in force with the same event and area description.
/// - An alert listed with an `expires` already past is not taken in.
/// - An alert without `expires` counts as expiring ``unconfirmedLimit`` (24 h) after the last
///   answer that listed it: while its source does not answer, it is not shown for ever.
/// - A failed fetch changes nothing here (its owner shows the source as unavailable).
public struct AlertBook: Sendable, Equatable {
    /// Why an alert left the book.
    public enum EndReason: String, Sendable, Equatable {
        /// Its `expires` passed.
        case expired
        /// A Cancel referenced it.
        case cancelled
        /// A successful answer no longer listed it.
        case noLongerListed = "no-longer-listed"
    }

    /// What changed, for the journal.
    public enum Event: Sendable, Equatable {
        case issued(Alert)
        /// `alert` replaces the alert `replacing` (an id; the same id when the source changed an
        /// alert in place).
        case updated(Alert, replacing: String)
        case ended(Alert, EndReason)
    }

    /// The alerts in force, by id.
    public private(set) var inForce: [String: Alert] = [:]
    /// When each alert in force was last listed by an answer.
    private var listedAt: [String: Date] = [:]

    /// How long an alert without `expires` stays after the last answer that listed it.
    public static let unconfirmedLimit: TimeInterval = 86_400

    public init() {}

    /// The alerts in force in the published order (``AlertsState/ordered(_:)``).
    public var ordered: [Alert] { AlertsState.ordered(Array(inForce.values)) }

    /// When `alert` (in force) stops being shown: its `expires`, else ``unconfirmedLimit`` after
    /// it was last listed.
    func expiry(of alert: Alert) -> Date? {
        alert.expires ?? listedAt[alert.id].map { $0 + Self.unconfirmedLimit }
    }

    /// The earliest expiry of the alerts in force (``expiry(of:)``): when ``expire(at:)`` has work.
    public var nextExpiry: Date? { inForce.values.compactMap(expiry(of:)).min() }

    /// A successful answer listing `alerts` (a source's whole list for the position) at `now`.
    public mutating func answered(_ alerts: [Alert], at now: Date) -> [Event] {
        let cancelled = Set(alerts.filter { $0.messageType == .cancel }.flatMap(\.references))
        var next: [String: Alert] = [:]
        for alert in alerts where alert.messageType != .cancel && !cancelled.contains(alert.id) {
            if let expires = alert.expires, expires <= now { continue }
            next[alert.id] = alert
        }
        // Old id → the update's id.
        var replaced: [String: String] = [:]
        for update in alerts where update.messageType == .update && next[update.id] != nil {
            var references = update.references.filter { $0 != update.id && inForce[$0] != nil }
            if references.isEmpty,
                let same = inForce.values.first(where: {
                    $0.id != update.id && $0.event == update.event && $0.areaDescription == update.areaDescription
                        && next[$0.id] == nil
                })
            {
                references = [same.id]
            }
            for old in references + update.references.filter({ $0 != update.id }) {
                next.removeValue(forKey: old)
                if inForce[old] != nil { replaced[old] = update.id }
            }
        }
        var events: [Event] = []
        let replacing = Dictionary(replaced.map { ($1, $0) }, uniquingKeysWith: min)
        for alert in AlertsState.ordered(Array(next.values)) {
            if let old = inForce[alert.id] {
                if old != alert { events.append(.updated(alert, replacing: alert.id)) }
            } else if let old = replacing[alert.id] {
                events.append(.updated(alert, replacing: old))
            } else {
                events.append(.issued(alert))
            }
        }
        for old in AlertsState.ordered(Array(inForce.values)) where next[old.id] == nil && replaced[old.id] == nil {
            let reason: EndReason =
                cancelled.contains(old.id)
                ? .cancelled : (old.expires.map { $0 <= now } ?? false) ? .expired : .noLongerListed
            events.append(.ended(old, reason))
        }
        inForce = next
        listedAt = Dictionary(uniqueKeysWithValues: next.keys.map { ($0, now) })
        return events
    }

    /// Drops the alerts whose `expires` is at or before `now`.
    public mutating func expire(at now: Date) -> [Event] {
        let gone = AlertsState.ordered(inForce.values.filter { (expiry(of: $0).map { $0 <= now }) ?? false })
        for alert in gone {
            inForce.removeValue(forKey: alert.id)
            listedAt.removeValue(forKey: alert.id)
        }
        return gone.map { .ended($0, .expired) }
    }

    /// Forgets every alert without events (the position moved to another source, or alerts
    /// were switched off).
    public mutating func clear() {
        inForce = [:]
        listedAt = [:]
    }
}
