#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The one value wundercast publishes, replayed to every new reader: `now` answers it,
/// `watch` streams it, the journal records each change. Encodes as a `"class":"WEATHER"`
/// JSON object (docs/PROTOCOL.md); members without a value are omitted, not `null`.
public struct WeatherState: Sendable, Equatable, Codable {
    /// What the state means for a reader.
    public enum Status: String, Sendable, Codable, CaseIterable {
        /// Weather fetched for the current position within `MaxAge`.
        case fresh
        /// Weather is kept from an earlier fetch; the last attempt failed (see `error`).
        case stale
        /// No weather yet, and the provider could not be reached (transfer failed).
        case offline
        /// No weather yet, and the provider answered with an error (see `error`).
        case error
        /// A fetch is under way (the book's `running` indicator); any old weather is kept.
        case fetching
        /// No position to fetch weather for: no fix yet, GPS not authorized, or no fallback.
        case noLocation
    }

    /// Where the position came from and how good it is.
    public struct Location: Sendable, Equatable, Codable {
        /// Whether the position is where the machine is now.
        public enum Status: String, Sendable, Codable, CaseIterable {
            /// The newest fix is at most `MaxFixAge` old and gpsd reports normally (or the
            /// position is the configured fallback place).
            case current
            /// The last known position: no fix within `MaxFixAge`, gpsd unreachable, or its
            /// receiver gone; the state's `error` says which.
            case lastKnown
        }

        /// Degrees north/east, rounded to the configured `Precision`. Source: gpsd TPV or `Fallback=`.
        public var latitude: Double
        public var longitude: Double
        /// gpsd fix mode (2 = 2D, 3 = 3D); absent for the fallback place.
        public var mode: Int?
        /// `current` or `lastKnown` (see ``Status``).
        public var status: Status?
        /// `"gpsd"`, `"fallback"`, or `"lookup"` (a one-off `weather` answer); see ``Source``.
        public var source: Source
        /// Place name, when known (the fallback's name as configured).
        public var name: String?
        /// The nearest city, with distance and bearing from it; for a reader of rounded positions
        /// the city named for the rounded position, name only (see ``WeatherState/Place``).
        public var place: Place?
        /// For a `weather PLACE` answer whose name other places share too: those places (at most
        /// ``Alternative/limit``, the best matches first); absent when the name is not ambiguous.
        public var alternatives: [Alternative]?
        /// GPS time of the fix (ISO 8601 UTC), when the receiver reported one. Not wall-clock time.
        public var time: Date?
        /// Horizontal error estimate, metres (gpsd `eph`), when known.
        public var eph: Double?
        /// Whether the machine moves, and (for precise readers) its speed and course over ground
        /// (``Motion``); absent while the position is not a current GPS fix.
        public var motion: Motion?
        /// Wall-clock time the daemon received its newest GPS fix (for the fallback place: when
        /// it was taken into use); ``ageSeconds`` derives from it.
        public var receivedAt: Date?
        /// Seconds since ``receivedAt``, computed when the state is sent (by ``receivedUptime``
        /// when the daemon has it).
        public var ageSeconds: Int?
        /// When the newest fix was received by the daemon's monotonic clock (``Uptime``); not
        /// encoded. Ages count from it when present, so a wall clock step does not change them.
        public var receivedUptime: Duration?

        public init(
            latitude: Double, longitude: Double, mode: Int? = nil, source: Source, name: String? = nil,
            time: Date? = nil, eph: Double? = nil, receivedAt: Date? = nil
        ) {
            self.latitude = latitude
            self.longitude = longitude
            self.mode = mode
            self.source = source
            self.name = name
            self.time = time
            self.eph = eph
            self.receivedAt = receivedAt
        }

        private enum CodingKeys: String, CodingKey {
            case latitude, longitude, mode, status, source, name, place, alternatives, time, eph, motion, receivedAt
            case ageSeconds
        }
    }

    /// The last error, without secrets.
    public struct ErrorInfo: Sendable, Equatable, Codable {
        /// Machine-readable, e.g. `http-500`, `connect`, `timeout`, `not-json`, `no-fix` (docs/PROTOCOL.md lists them).
        public var code: String
        /// One human line.
        public var message: String
        public init(code: String, message: String) {
            self.code = code
            self.message = message
        }
    }

    /// Always `"WEATHER"` (gpsd-style class tag).
    public var `class`: String = "WEATHER"
    public var status: Status
    /// The position the weather is for (or the newest one, while fetching).
    public var location: Location?
    /// The last good weather; kept across failures (never replaced by a dummy).
    public var weather: Weather?
    /// Provider name, e.g. `"open-meteo"`.
    public var provider: String
    /// When ``weather`` was fetched (ISO 8601 UTC).
    public var fetchedAt: Date?
    /// Seconds since ``fetchedAt``, computed when the state is sent (by ``fetchedUptime`` when the
    /// daemon has it); absent while ``ageUnknown``.
    public var ageSeconds: Int?
    /// When ``weather`` was fetched by the daemon's monotonic clock (``Uptime``); not encoded.
    /// Ages count from it when present, so a wall clock step does not change them; absent for
    /// weather kept from before a restart (its age counts by the wall clock).
    public var fetchedUptime: Duration?
    /// `true` while the age of ``weather`` cannot be told: it was kept on disk from before the
    /// daemon's restart and the wall clock is not known to be right yet (no clock
    /// synchronisation, and no GPS time that agrees with the clock). ``ageSeconds`` is then
    /// absent, never a wrong number. Absent (never `false`) otherwise.
    public var ageUnknown: Bool?
    /// GPS authorization status (`authorizedAlways`, …).
    public var authorization: AuthorizationStatus?
    /// Why the state is not `fresh`, when there is a reason.
    public var error: ErrorInfo?
    /// Official alerts for the position (``AlertsState``); absent while `[Alerts] Sources=none`.
    public var alerts: AlertsState?
    /// The Moon over the position on the local day the state was published (``MoonDay``),
    /// computed for each reader class at the position it sees; absent without a position.
    public var moon: MoonDay?

    public init(status: Status, provider: String, authorization: AuthorizationStatus? = nil) {
        self.status = status
        self.provider = provider
        self.authorization = authorization
    }

    /// A copy with the `ageSeconds` members filled in for wall-clock `now` and monotonic `uptime`
    /// (never negative; the weather's left out while ``ageUnknown``). Each age counts by the
    /// monotonic clock when both its moment and `uptime` are known (``fetchedUptime``,
    /// ``Location/receivedUptime``), else by the wall clock. An age already present without a
    /// moment to count from (a state decoded from the daemon's line) is kept: the daemon's age is
    /// the true one, a reader's own wall clock may have stepped.
    public func stamped(now: Date, uptime: Duration? = nil) -> WeatherState {
        var copy = self
        copy.ageSeconds =
            ageUnknown == true
            ? nil : Self.age(since: fetchedAt, fetchedUptime, given: ageSeconds, now: now, uptime: uptime)
        if let location = copy.location {
            copy.location?.ageSeconds = Self.age(
                since: location.receivedAt, location.receivedUptime, given: location.ageSeconds, now: now,
                uptime: uptime)
        }
        return copy
    }

    /// Whole seconds since a moment (monotonic when both readings are there), ≥ 0; `given` when
    /// no moment of ours is known. The one rule of every published age (``stamped(now:uptime:)``
    /// and the socket server's pre-encoded lines use it).
    public static func age(since wall: Date?, _ monotonic: Duration?, given: Int?, now: Date, uptime: Duration?) -> Int?
    {
        if let monotonic, let uptime { return max(0, Int((uptime - monotonic).components.seconds)) }
        if monotonic == nil, let given { return given }
        guard let wall else { return nil }
        return max(0, Int(now.timeIntervalSince(wall).rounded(.down)))
    }

    private enum CodingKeys: String, CodingKey {
        case `class`, status, location, weather, provider, fetchedAt, ageSeconds, ageUnknown, authorization, error,
            alerts, moon
    }
}
