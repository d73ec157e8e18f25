extension WeatherState.Location {
    /// Where a published position came from: its `location.source` on the wire.
    ///
    /// Encodes as the same strings as ever: `"gpsd"`, `"fallback"`, `"lookup"`. A string this
    /// build does not know (a newer daemon's) decodes as ``unrecognized(_:)`` and encodes back
    /// unchanged, so a reader still reads the state; the daemon never publishes one, and a
    /// kept state file with one is refused (``LastState``).
    public enum Source: Sendable, Hashable, Codable, RawRepresentable, CustomStringConvertible {
        /// A fix from gpsd.
        case gpsd
        /// The configured `Fallback=` place.
        case fallback
        /// The place a one-off `weather` request named or gave.
        case lookup
        /// Any other string (never `"gpsd"`, `"fallback"` or `"lookup"`: those are the cases above).
        case unrecognized(String)

        /// The kind of source of a position the daemon has: a GPS fix is `gpsd`, the fallback place `fallback`.
        public init(_ source: Position.Source) {
            self = if case .gps = source { .gpsd } else { .fallback }
        }

        public init(rawValue: String) {
            self =
                switch rawValue {
                case "gpsd": .gpsd
                case "fallback": .fallback
                case "lookup": .lookup
                default: .unrecognized(rawValue)
                }
        }

        /// The wire string.
        public var rawValue: String {
            switch self {
            case .gpsd: "gpsd"
            case .fallback: "fallback"
            case .lookup: "lookup"
            case .unrecognized(let text): text
            }
        }

        public var description: String { rawValue }

        public init(from decoder: any Decoder) throws {
            self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(rawValue)
        }
    }
}

extension WeatherState.ErrorInfo {
    /// The codes the daemon gives the state's `error` itself: why there is no position or why it
    /// is not current, and weather kept from before a restart. A fetch's failure carries the
    /// provider's code instead (``WeatherError/code``: `http-NNN`, `dns`, `timeout`, …), so
    /// ``WeatherState/ErrorInfo/code`` stays the wire string and ``known`` reads it as one of these.
    public enum Code: String, Sendable, CaseIterable {
        /// No fix yet, or none for `MaxFixAge`.
        case noFix = "no-fix"
        /// gpsd cannot be reached.
        case gpsdUnreachable = "gpsd-unreachable"
        /// gpsd reports the receiver gone.
        case deviceGone = "device-gone"
        /// GPS use denied and no fallback place.
        case denied
        /// GPS use not decided yet (`ask`).
        case notDetermined = "not-determined"
        /// `Fallback=` names a place that could not be resolved.
        case fallbackName = "fallback-name"
        /// The weather is kept from before the restart.
        case cached
    }

    /// An error of one of the daemon's own codes.
    public init(_ code: Code, message: String) {
        self.init(code: code.rawValue, message: message)
    }

    /// ``code`` as one of the daemon's own codes; `nil` for a provider's (``WeatherError/code``).
    public var known: Code? { Code(rawValue: code) }
}
