#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WundercastSupport
import WundercastModel

extension SocketProtocol {
    /// `{"class":"STATUS",...}`: the daemon's health for `status` and `wundercastctl status`.
    /// Members without a value are left out.
    public struct StatusResponse: Codable, Sendable, Equatable {
        public var `class` = "STATUS"
        /// Release (``Wundercast/version``) and protocol revision.
        public var release: String = Wundercast.version
        public var proto: Int = Wundercast.protocolVersion
        /// Seconds since the daemon started.
        public var uptimeSeconds: Int
        /// The connection to gpsd.
        public var gpsd: GPSD
        /// The newest fix, when there was one.
        public var fix: Fix?
        /// GPS authorization status in force.
        public var authorization: AuthorizationStatus
        /// The saved decision file exists but could not be read or parsed at start-up: GPS use
        /// counted as `denied` since, until an `authorize` replaced the file. Absent otherwise.
        public var unreadableDecision: UnreadableDecision?
        /// Provider name, e.g. `open-meteo`.
        public var provider: String
        /// The state's `status` (`fresh`, `stale`, …).
        public var state: WeatherState.Status
        /// The last error the daemon met (location or provider), with when (wall clock).
        public var lastError: LastError?
        public var counters: Counters
        /// The MQTT broker the daemon publishes to; absent without `[MQTT] Broker=`.
        public var mqtt: MQTT?

        public init(
            uptimeSeconds: Int, gpsd: GPSD, fix: Fix? = nil, authorization: AuthorizationStatus,
            unreadableDecision: UnreadableDecision? = nil, provider: String,
            state: WeatherState.Status, lastError: LastError? = nil, counters: Counters
        ) {
            self.uptimeSeconds = uptimeSeconds
            self.gpsd = gpsd
            self.fix = fix
            self.authorization = authorization
            self.unreadableDecision = unreadableDecision
            self.provider = provider
            self.state = state
            self.lastError = lastError
            self.counters = counters
        }

        /// The MQTT broker as the daemon sees it (issue 16).
        public struct MQTT: Codable, Sendable, Equatable {
            /// `mqtt://host:port` or `mqtts://host:port`.
            public var broker: String
            /// Whether the broker accepted the connection (CONNACK) and it is up.
            public var connected: Bool
            /// When it was last connected or lost (wall clock); absent before the first attempt ended.
            public var since: Date?
            /// The last failure: connecting, a refusal, a loss, a message the broker refused.
            public var lastError: String?
            /// Messages the broker took since start (acknowledged at QoS 1, written at QoS 0).
            public var messagesSent: Int
            public init(
                broker: String, connected: Bool, since: Date? = nil, lastError: String? = nil, messagesSent: Int
            ) {
                self.broker = broker
                self.connected = connected
                self.since = since
                self.lastError = lastError
                self.messagesSent = messagesSent
            }
        }

        /// gpsd as the daemon sees it.
        public struct GPSD: Codable, Sendable, Equatable {
            /// `host:port` the daemon connects to.
            public var server: String
            /// `true` while a gpsd connection is up and watched (`false` also while GPS use is
            /// not authorized and nobody asked for a fix).
            public var connected: Bool
            /// The receiver's device path gpsd reported (`DEVICE`/TPV `device`), when known.
            public var device: String?
            public init(server: String, connected: Bool, device: String? = nil) {
                self.server = server
                self.connected = connected
                self.device = device
            }
        }

        /// The newest fix: gpsd mode (2 = 2D, 3 = 3D) and seconds since it arrived.
        public struct Fix: Codable, Sendable, Equatable {
            public var mode: Int?
            public var ageSeconds: Int
            public init(mode: Int?, ageSeconds: Int) {
                self.mode = mode
                self.ageSeconds = ageSeconds
            }
        }

        /// A saved decision file that could not be used.
        public struct UnreadableDecision: Codable, Sendable, Equatable {
            /// The file, e.g. `/var/lib/wundercast/authorization` (`$STATE_DIRECTORY/authorization`).
            public var path: String
            /// Why it could not be used, one phrase, e.g. `the file is empty`, `Permission denied`.
            public var reason: String
            public init(path: String, reason: String) {
                self.path = path
                self.reason = reason
            }
        }

        /// An error with the wall-clock time it happened.
        public struct LastError: Codable, Sendable, Equatable {
            public var code: String
            public var message: String
            /// When it was first seen (wall clock).
            public var at: Date
            /// When a state without an error was first published after it; omitted while the
            /// error still holds.
            public var clearedAt: Date?
            public init(code: String, message: String, at: Date, clearedAt: Date? = nil) {
                self.code = code
                self.message = message
                self.at = at
                self.clearedAt = clearedAt
            }
        }

        /// Counts since start: provider requests (the daemon's own and one-off lookups) and
        /// how many failed; one-off lookups answered (cache hits included); clients and
        /// `watch` clients connected now.
        public struct Counters: Codable, Sendable, Equatable {
            public var requests: Int
            public var failures: Int
            public var lookups: Int
            public var clients: Int
            public var watchers: Int
            public init(requests: Int = 0, failures: Int = 0, lookups: Int = 0, clients: Int = 0, watchers: Int = 0) {
                self.requests = requests
                self.failures = failures
                self.lookups = lookups
                self.clients = clients
                self.watchers = watchers
            }
        }
    }

    /// `{"class":"AROUND","center":{...},"step":1,"cells":[...]}`: the 3×3 grid around a
    /// position (the book's `currentWeatherAround`). `cells` has nine entries, row by row from
    /// north-west to south-east (`cells[4]` is the centre); each has the weather or the error
    /// for its own position. Latitudes are clamped to ±90, longitudes wrapped into -180...180.
    public struct AroundResponse: Codable, Sendable, Equatable {
        public var `class` = "AROUND"
        public var center: Cell
        /// Degrees between neighbouring cells.
        public var step: Double
        public var cells: [Cell]
        public init(center: Cell, step: Double, cells: [Cell]) {
            self.center = center
            self.step = step
            self.cells = cells
        }

        /// One grid point: its position (degrees, rounded to the reader's precision), nearest
        /// place, and the weather or why there is none.
        public struct Cell: Codable, Sendable, Equatable {
            public var latitude: Double
            public var longitude: Double
            public var place: WeatherState.Place?
            public var weather: Weather?
            public var error: WeatherState.ErrorInfo?
            public init(
                latitude: Double, longitude: Double, place: WeatherState.Place? = nil, weather: Weather? = nil,
                error: WeatherState.ErrorInfo? = nil
            ) {
                self.latitude = latitude
                self.longitude = longitude
                self.place = place
                self.weather = weather
                self.error = error
            }
        }
    }
}
