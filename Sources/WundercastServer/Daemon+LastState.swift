#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WundercastSupport
import WundercastModel
import WundercastConfiguration
import WundercastPipeline
import WundercastPOSIX

/// What start-up restored from the kept state file, for the services that keep it
/// (``Daemon/Instance/lastStateServices(_:)``).
struct LastStateStart: Sendable {
    /// The file, or `nil` when nothing is kept (`[Cache] Enabled=no`, or no path).
    let file: LastStateFile?
    /// The valid file read, if any.
    let restored: LastState?
    let clock: ClockSync
}

extension Daemon.Instance {
    /// The kept state file: `[Cache] Path=`, else `state.json` in the first directory of
    /// `$CACHE_DIRECTORY`; `nil` with `Enabled=no` or neither.
    static func lastStatePath(_ settings: Configuration.CacheSettings, cacheDirectory: String?) -> String? {
        guard settings.enabled else { return nil }
        if let path = settings.path { return path }
        guard let first = cacheDirectory?.split(separator: ":").first, first.hasPrefix("/") else { return nil }
        return first.hasSuffix("/") ? first + "state.json" : first + "/state.json"
    }

    /// Reads the kept state file and publishes its weather into the store at once (before
    /// `READY=1`): `stale`, error `cached`, its true age — or no age while the clock is not
    /// known to be right. A refused file is set aside with one log line; nothing here stops
    /// the daemon.
    func restoreLastState() -> LastStateStart {
        let clock = ClockSync(file: configuration.cache.clockSyncFile, kernelState: TestHooks.kernelClockState)
        guard
            let path = Self.lastStatePath(configuration.cache, cacheDirectory: Environment.value("CACHE_DIRECTORY"))
        else {
            logger.info(
                configuration.cache.enabled
                    ? "the last weather is not kept across restarts: no [Cache] Path= and no $CACHE_DIRECTORY (systemd's CacheDirectory= sets it)"
                    : "the last weather is not kept across restarts ([Cache] Enabled=no)")
            return LastStateStart(file: nil, restored: nil, clock: clock)
        }
        if let problem = configuration.cache.path.flatMap(Configuration.cachePathProblem) {
            logger.error(
                "the last weather is not kept across restarts: [Cache] Path=\(path) \(problem); it is left alone")
            return LastStateStart(file: nil, restored: nil, clock: clock)
        }
        let file = LastStateFile(path: path)
        switch file.load(redacting: weather.queue.secrets) {
        case .absent:
            logger.debug("no kept weather in \(path) yet")
            return LastStateStart(file: file, restored: nil, clock: clock)
        case .notAFile(let kind):
            logger.error(
                "the last weather is not kept across restarts: \(path) ([Cache] Path=) is \(kind), not a regular file; it is left alone"
            )
            return LastStateStart(file: nil, restored: nil, clock: clock)
        case .unreadable(let reason):
            logger.warning("cannot read the kept weather in \(path): \(reason)")
            return LastStateStart(file: file, restored: nil, clock: clock)
        case .refused(let reason, let setAside):
            logger.log(
                .warning,
                setAside
                    ? "the kept weather in \(path) was set aside as \(file.asidePath): \(reason)"
                    : "the kept weather in \(path) is not used: \(reason)",
                fields: [("MESSAGE_ID", MessageID.cacheSetAside), ("WUNDERCAST_CACHE_FILE", path)])
            return LastStateStart(file: file, restored: nil, clock: clock)
        case .valid(let loaded):
            // Never shown finer than the precision configured now.
            let kept = loaded.positionRounded(
                toDecimals: min(configuration.cache.precision, configuration.weather.precision))
            guard kept.provider == store.current.provider else {
                logger.info(
                    "the kept weather in \(path) is from provider \(kept.provider), not \(store.current.provider): not shown"
                )
                return LastStateStart(file: file, restored: nil, clock: clock)
            }
            let location = kept.location.map {
                WeatherState.Location(latitude: $0.latitude, longitude: $0.longitude, source: $0.source, name: $0.name)
            }
            let now = Date()
            let ageKnown = clock.isSynchronized && Self.fetchedAtTrusted(kept, now: now)
            store.restore(kept.weather, fetchedAt: kept.fetchedAt, location: location, ageKnown: ageKnown)
            logger.log(
                .info,
                "showing the weather kept in \(path), fetched \(kept.fetchedAt.formatted(.iso8601))"
                    + Self.unknownAgeReason(kept, clockSynchronized: clock.isSynchronized, now: now),
                fields: [
                    ("MESSAGE_ID", MessageID.cacheLoaded), ("WUNDERCAST_CACHE_FILE", path),
                    ("WUNDERCAST_AGE_KNOWN", ageKnown ? "yes" : "no"),
                ])
            return LastStateStart(file: file, restored: kept, clock: clock)
        }
    }

    /// Why the age of `kept` is unknown, as the end of the start-up log line (`""` when known).
    static func unknownAgeReason(_ kept: LastState, clockSynchronized: Bool, now: Date) -> String {
        if !kept.clockSynchronized {
            return " (fetched while the clock was not known to be right: its age is unknown until new weather)"
        }
        if !clockSynchronized { return " (its age is unknown until the clock is synchronised)" }
        if kept.fetchedAt > now {
            return " (fetched at a time ahead of this clock: its age is unknown until new weather)"
        }
        return ""
    }

    /// Whether `kept.fetchedAt` was taken by a synchronised clock and is not in the future.
    static func fetchedAtTrusted(_ kept: LastState, now: Date) -> Bool {
        kept.clockSynchronized && kept.fetchedAt <= now
    }

    /// The services that keep the state file and learn when the clock is right; empty when
    /// nothing is kept.
    func lastStateServices(_ start: LastStateStart) -> [any DaemonService] {
        guard let file = start.file else { return [] }
        let trusted = start.restored.map { Self.fetchedAtTrusted($0, now: Date()) } ?? false
        return [
            LastStateWriter(
                store: store, file: file,
                recorder: LastStateRecorder(precision: configuration.cache.precision, restored: start.restored),
                clock: start.clock, logger: logger),
            ClockSyncWatch(
                store: store, clock: start.clock, restoredAgeTrusted: trusted, loop: reactor, logger: logger),
        ]
    }
}
