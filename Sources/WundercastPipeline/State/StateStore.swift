#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization
import WundercastModel

/// Owns the published ``WeatherState``: the current value, replayed to every new reader,
/// and each change after it.
///
/// Writers report facts (a status began, a position is used, weather arrived, a fetch
/// failed, the position is no longer current); the published `status` and `error` are
/// derived from all facts in one place (``Facts/state``), so that the state never claims
/// more than the daemon knows: `fresh` needs weather fetched for a current position and no
/// failure since.
public final class StateStore: Sendable {
    /// What the daemon knows; the published state is derived from it.
    struct Facts: Equatable {
        var provider: String
        var authorization: AuthorizationStatus
        /// Why the location gate is closed (denied without a fallback, not decided yet).
        var gate: WeatherState.ErrorInfo?
        /// The position the weather is for (or is being fetched for).
        var location: WeatherState.Location?
        /// Why that position is only the last known one; `nil` while it is current.
        var locationProblem: WeatherState.ErrorInfo?
        var weather: Weather?
        var fetchedAt: Date?
        /// ``fetchedAt`` by the daemon's monotonic clock, when known (``WeatherState/fetchedUptime``).
        var fetchedUptime: Duration?
        /// The last fetch failed (cleared by a success); `transport`: the provider could not be
        /// reached or its answer did not get through (``FailureKind/isNetwork``).
        var failure: (info: WeatherState.ErrorInfo, transport: Bool)?
        /// A fetch for a new position is under way or scheduled.
        var fetching = false
        /// ``weather`` is the one kept on disk from before the restart (``StateStore/restore(_:fetchedAt:location:ageKnown:)``);
        /// cleared by new weather.
        var restored: Restored?
        /// What the alert source said (``AlertsState``); `nil` while alerts are off.
        var alerts: AlertsState?
        /// Whether the machine moves (``MotionTracker``); shown only with a current GPS position.
        var motion: WeatherState.Motion?

        static func == (a: Facts, b: Facts) -> Bool {
            a.provider == b.provider && a.authorization == b.authorization && a.gate == b.gate
                && a.location == b.location && a.locationProblem == b.locationProblem && a.weather == b.weather
                && a.fetchedAt == b.fetchedAt && a.fetchedUptime == b.fetchedUptime
                && a.failure?.info == b.failure?.info
                && a.failure?.transport == b.failure?.transport && a.fetching == b.fetching
                && a.restored == b.restored && a.alerts == b.alerts && a.motion == b.motion
        }

        /// The published state. Rules, in order:
        /// - gate closed: no position is shown; `stale` with the kept weather, else `noLocation`;
        /// - no position: `noLocation` (or `stale` with kept weather), error = the location problem;
        /// - the last fetch failed: `stale` with kept weather, else `offline` (transfer) or `error`;
        /// - a fetch for a new position is under way: `fetching`;
        /// - weather: `fresh` only while the position is current and the weather is not the one
        ///   restored from before the restart, else `stale`.
        /// The error is the location problem first (it is why the state is not fresh), then the
        /// failure, then `cached` for restored weather. Restored weather without a position of
        /// this run shows the restored position (if any) as last known, with error `cached`.
        var state: WeatherState {
            var s = WeatherState(status: .noLocation, provider: provider, authorization: authorization)
            s.weather = weather
            s.fetchedAt = fetchedAt
            s.fetchedUptime = fetchedUptime
            s.alerts = alerts
            if restored?.ageKnown == false { s.ageUnknown = true }
            if let gate {
                s.status = weather == nil ? .noLocation : .stale
                s.error = gate
                return s
            }
            s.location = location ?? restored?.location
            s.location?.status = locationProblem == nil && location != nil ? .current : .lastKnown
            // Moving or not is known of where the machine is now, never of a last known place.
            if s.location?.status == .current, s.location?.source == .gpsd { s.location?.motion = motion }
            guard location != nil else {
                s.status = weather == nil ? .noLocation : .stale
                s.error = restored != nil ? Restored.cached : locationProblem ?? (weather == nil ? nil : Self.waiting)
                return s
            }
            s.error = locationProblem ?? failure?.info ?? (restored != nil ? Restored.cached : nil)
            if let failure {
                s.status = weather != nil ? .stale : failure.transport ? .offline : .error
            } else if fetching || weather == nil {
                s.status = .fetching
            } else {
                s.status = locationProblem == nil && restored == nil ? .fresh : .stale
            }
            return s
        }

        static let waiting = WeatherState.ErrorInfo(
            .noFix, message: "waiting for a GPS fix; the weather shown is for an earlier place")
    }

    /// The newest fix's receipt (wall clock, and monotonic when known) is kept beside the facts:
    /// it changes with every fix and publishes nothing by itself.
    let facts: Mutex<(facts: Facts, lastFix: (at: Date, uptime: Duration?)?, pressures: PressureHistory)>
    private let subject: ObservableValue<WeatherState>

    public init(provider: String, authorization: AuthorizationStatus) {
        let initial = Facts(provider: provider, authorization: authorization)
        facts = Mutex((initial, nil, PressureHistory()))
        subject = ObservableValue(initial.state)
    }

    /// The current state (without `ageSeconds`; see ``WeatherState/stamped(now:)``), its
    /// `location.receivedAt` the time of the newest GPS fix.
    public var current: WeatherState {
        let (state, lastFix) = facts.withLock { ($0.facts.state, $0.lastFix) }
        return Self.withNewestFix(state, lastFix)
    }

    /// The current state, then each change.
    public func states() -> AsyncStream<WeatherState> { subject.values() }

    /// Ends every reader's stream (shutdown).
    public func finish() { subject.finish() }

    /// A new authorization status took effect. `gate`: why no position can be had under it
    /// (denied without a fallback, not decided yet), which hides any position; else `nil`.
    /// A position from the other kind of source (GPS vs fallback) is dropped; `position`, when
    /// given (the fallback place under `denied`), is shown in the same change, so no reader sees
    /// the new status without it. `locationProblem`: why the position is not current under the
    /// new status, if it is not.
    public func beginStatus(
        _ status: AuthorizationStatus, gate: WeatherState.ErrorInfo?, locationProblem: WeatherState.ErrorInfo? = nil,
        position: Shown? = nil
    ) {
        change { f in
            f.authorization = status
            f.gate = gate
            f.locationProblem = locationProblem
            f.fetching = false
            // The new status's session tells anew (``MotionTracker``) from its first fix.
            f.motion = nil
            if let source = f.location?.source, gate != nil || !status.allows(source: source) { f.location = nil }
            if let source = f.restored?.location?.source, gate != nil || !status.allows(source: source) {
                f.restored?.location = nil
            }
            if let position, gate == nil { f.show(position) }
        }
    }

    /// A reload changed the provider to `name`: its weather is being fetched (the old
    /// provider's stays shown meanwhile, as `fetching`, or `noLocation`/`stale` without a
    /// position); the old provider's failure no longer holds.
    public func changeProvider(_ name: String) {
        change { f in
            guard f.provider != name else { return }
            f.provider = name
            f.failure = nil
            if f.location != nil { f.fetching = true }
        }
    }

    /// A GPS fix arrived at wall-clock `at`, monotonic `uptime` when known (the age of the
    /// position; publishes nothing by itself).
    public func noteFix(at: Date, uptime: Duration? = nil) {
        facts.withLock { $0.lastFix = (at, uptime) }
    }

    /// A fetch succeeded. Its sea-level pressure is recorded (in hPa, by its unit string; one in a
    /// unit the daemon does not know is not) at its observation time; when the provider gave no
    /// tendency (no series), one computed from these records is filled in, in the pressure's unit
    /// (``PressureHistory``, source `history`).
    /// `fetchedUptime`: the same moment by the daemon's monotonic clock, when it has one.
    public func publishWeather(_ weather: Weather, fetchedAt: Date, fetchedUptime: Duration? = nil) {
        var weather = weather
        facts.withLock { held in
            guard let pressure = weather.forecast?.seaLevelPressure, let time = weather.time,
                let unit = weather.forecast?.units.seaLevelPressure.flatMap(PressureUnit.init(label:))
            else { return }
            held.pressures.record(unit.toBase(pressure), at: time)
            if weather.forecast?.pressureTendency == nil {
                weather.forecast?.pressureTendency = held.pressures.tendency(at: time)?.converted(to: unit)
            }
        }
        change { f in
            f.weather = weather
            // The same answer again (served from the cache) keeps its moment: its monotonic
            // reading, made anew from the cache's `sinceArrival`, differs by nanoseconds, which
            // must not make a change of the state.
            if f.fetchedAt != fetchedAt || f.fetchedUptime == nil { f.fetchedUptime = fetchedUptime }
            f.fetchedAt = fetchedAt
            f.failure = nil
            f.fetching = false
            f.restored = nil
        }
    }

    /// A fetch failed: the last good weather stays.
    public func publishFailure(_ error: WeatherError) {
        change { f in
            f.failure = (.init(code: error.code, message: error.message), error.kind.isNetwork)
            f.fetching = false
        }
    }

    /// What the alert source said for the position (``AlertsService``), or `nil`: alerts off.
    /// Changes nothing else: the state's status and `error` stay the weather's.
    public func publishAlerts(_ alerts: AlertsState?) {
        change { $0.alerts = alerts }
    }

    /// The position is only the last known one (`problem`), or current again (`nil`).
    public func publishLocationProblem(_ problem: WeatherState.ErrorInfo?) {
        change { $0.locationProblem = problem }
    }

    /// Applies `transform` and publishes the derived state when the facts changed.
    func change(_ transform: (inout Facts) -> Void) {
        facts.withLock { held in
            var updated = held.facts
            transform(&updated)
            guard updated != held.facts else { return }
            held.facts = updated
            let state = Self.withNewestFix(updated.state, held.lastFix)
            // Under the lock: readers see changes in the order they were made.
            subject.updateIfChanged { $0 = state }
        }
    }

    static func withNewestFix(_ state: WeatherState, _ lastFix: (at: Date, uptime: Duration?)?) -> WeatherState {
        guard let lastFix, state.location?.source == .gpsd else { return state }
        var copy = state
        // The shown position's own receipt is newer (compared on the monotonic clock when both
        // have it: a wall clock step must not make an older fix look newer).
        let shownIsNewer =
            if let shown = copy.location?.receivedUptime, let last = lastFix.uptime {
                shown > last
            } else if let shown = copy.location?.receivedAt {
                shown > lastFix.at
            } else {
                false
            }
        if shownIsNewer { return copy }
        copy.location?.receivedAt = lastFix.at
        copy.location?.receivedUptime = lastFix.uptime
        return copy
    }
}
