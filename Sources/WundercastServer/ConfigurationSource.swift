import Synchronization
import WundercastConfiguration
import WundercastSupport

/// One part of the daemon that a reload may change: it owns some keys of the configuration
/// (``touches(_:_:)``), sets up what can fail before anything changes (``prepare(_:)``) and then
/// takes the new configuration (``commit(_:into:)``). The daemon's one list of parts, in the
/// order they prepare and commit, is ``Daemon/Instance/configurationParts(server:ownedPath:)``.
protocol ConfigurationPart: Sendable {
    /// Whether a reload from `old` (in force) to `new` (as read, `Fallback=` not yet resolved, or
    /// as `old` when it names the place `old` resolved) changes one of the keys this part owns.
    /// A part that is not touched neither prepares nor commits.
    static func touches(_ old: Configuration, _ new: Configuration) -> Bool

    /// Everything of this part's reload that can fail (a provider and its key file), before
    /// any part commits; may set what later parts take (``ConfigurationSource/Change/weather``).
    /// Changes nothing in force. The default does nothing.
    ///
    /// - Throws: ``ConfigurationSource/Rejection``: the reload is rejected, nothing changes.
    func prepare(_ change: inout ConfigurationSource.Change) async throws(ConfigurationSource.Rejection)

    /// Puts `change` in force for this part (it cannot fail): in place, or in `running`, which
    /// the source publishes once every part has committed. Returns what the reload's summary says
    /// it did (`configuration reloaded: changed …; TEXT; …`), in order; none for a change that
    /// says nothing.
    func commit(
        _ change: ConfigurationSource.Change, into running: inout ConfigurationSource.Running
    ) async
        -> [ConfigurationSource.Applied]
}

extension ConfigurationPart {
    func prepare(_ change: inout ConfigurationSource.Change) async throws(ConfigurationSource.Rejection) {}
}

/// The one owner of the configuration in force and of what it made that a reload may replace
/// (``Running``: the configuration, the files as last read, the weather side, the viewers), and
/// the reload engine: ``reload(to:parts:)`` asks each part that a reload touches to prepare,
/// then each to commit, and publishes the new ``Running`` in one step.
final class ConfigurationSource: Sendable {
    /// What the configuration in force made.
    struct Running: Sendable {
        /// As in force: `Fallback=` resolved.
        var configuration: Configuration
        /// The configuration files as last read (start-up or SIGHUP): a reload compares with
        /// this, so that editing a key back to its start-up value applies too.
        var loaded: Configuration
        var weather: Daemon.WeatherSide
        /// Positions as the socket's public readers see them (`[Socket] PublicPrecision=`).
        var viewer: StateViewer
        /// Positions as the journal and `STATUS=` show them (`[Journal] Precision=`).
        var journalViewer: StateViewer
    }

    /// A reload under way, as the parts prepare and commit it.
    struct Change: Sendable {
        /// In force before the reload.
        let old: Configuration
        /// To be in force: `Fallback=` carried over from `old` when it names the place `old`
        /// resolved, and resolved (with ``weather``'s places) once every part has prepared.
        var new: Configuration
        /// The weather side in force after the reload: the running one, or the one the weather
        /// part prepared.
        var weather: Daemon.WeatherSide
        /// Whether part `P` is touched by this reload (``ConfigurationPart/touches(_:_:)``).
        func touches<P: ConfigurationPart>(_ part: P.Type) -> Bool { P.touches(old, unresolved) }
        /// `new` before `Fallback=` was resolved: what ``touches(_:)`` compares.
        let unresolved: Configuration
    }

    /// What a part's commit did, for the summary.
    enum Applied: Sendable, Equatable {
        /// In force now (`a new met-norway provider and weather cache`).
        case done(String)
        /// Read, but in force only after a restart (`[Cache] takes effect after a restart`).
        case needsRestart(String)

        var text: String {
            switch self {
            case .done(let text), .needsRestart(let text): text
            }
        }
    }

    /// A reload that changes nothing: `reason` is one human phrase (the provider's error).
    struct Rejection: Error, Sendable {
        let reason: String
    }

    /// What a taken reload did.
    struct Summary: Sendable, Equatable {
        /// The keys whose values changed, as written in the files (`Weather.Provider`, …).
        var changed: [String]
        var applied: [Applied]
        /// Whether some changed key takes effect only after a restart.
        var restartNeeded: Bool { applied.contains { if case .needsRestart = $0 { true } else { false } } }
        /// `nothing changed`, or `changed KEY, KEY; APPLIED; APPLIED`.
        var text: String {
            changed.isEmpty
                ? "nothing changed"
                : "changed " + changed.joined(separator: ", ")
                    + (applied.isEmpty ? "" : "; " + applied.map(\.text).joined(separator: "; "))
        }
    }

    private let running: Mutex<Running>
    /// Resolves a `Fallback=` place name with the city table (and geocoder) in force.
    private let resolve: @Sendable (Configuration, Daemon.WeatherSide) async -> Configuration

    /// - Parameters:
    ///   - running: what the start-up configuration made.
    ///   - resolve: ``Daemon/resolvingFallback(_:places:logger:)`` with that weather side's
    ///     places and logger.
    init(
        _ running: Running,
        resolve: @escaping @Sendable (Configuration, Daemon.WeatherSide) async -> Configuration = {
            await Daemon.resolvingFallback($0, places: $1.places, logger: $1.logger)
        }
    ) {
        self.running = Mutex(running)
        self.resolve = resolve
    }

    /// What is in force now.
    var current: Running { running.withLock { $0 } }

    /// Takes `fresh` (as read from the files): every part of `parts` (in that order) that it
    /// touches prepares; then, with `Fallback=` resolved, each commits; then the new ``Running``
    /// is in force. One reload at a time (the daemon's SIGHUP loop).
    ///
    /// - Throws: ``Rejection`` from a part's prepare: no part has committed, nothing changed.
    func reload(to fresh: Configuration, parts: [any ConfigurationPart]) async throws(Rejection) -> Summary {
        let before = current
        let old = before.configuration
        var next = fresh
        if case .resolved(let name, _) = old.location.fallback, fresh.location.fallback == .name(name) {
            next.location.fallback = old.location.fallback  // resolved at start-up or at the last reload
        }
        var change = Change(old: old, new: next, weather: before.weather, unresolved: next)
        let touched = parts.filter { type(of: $0).touches(old, next) }
        // Everything that can fail comes first: a rejected reload changes nothing.
        for part in touched { try await part.prepare(&change) }
        if case .name = change.new.location.fallback { change.new = await resolve(change.new, change.weather) }
        var after = before
        after.configuration = change.new
        after.loaded = fresh
        var applied: [Applied] = []
        for part in touched { applied += await part.commit(change, into: &after) }
        running.withLock { [after] in $0 = after }
        return Summary(changed: fresh.changedKeys(from: before.loaded), applied: applied)
    }
}
