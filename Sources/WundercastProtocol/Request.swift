import WundercastSupport
import WundercastModel

/// Requests of protocol revision 1 (docs/PROTOCOL.md), parsed from one line of words.
extension SocketProtocol {
    /// A parsed request.
    public enum Request: Sendable, Equatable {
        /// `now`: the current state, at once.
        case now
        /// `watch [weather] [every SPAN]`: the current state, then one line per change, until
        /// the client leaves.
        case watch(WatchOptions)
        /// `weather PLACE` or `weather LAT,LON`: a one-off lookup for anywhere, answered as a
        /// `WEATHER` object; the daemon's own state does not change.
        case weather(PlaceQuery)
        /// `around [PLACE|LAT,LON] [STEP]`: the 3×3 grid around the daemon's position (or the
        /// given one), `step` degrees apart (default 1), as one `AROUND` object.
        case around(center: PlaceQuery?, step: Double)
        /// `status`: the daemon's health, as one `STATUS` object.
        case status
        /// `refresh`: fetch the weather for the daemon's position as soon as the throttle allows.
        case refresh
        /// `authorize` (show) or `authorize always|when-in-use|denied|ask` (decide).
        case authorize(AuthorizationStatus?)
        /// `version`: release and protocol revision.
        case version
        /// `help`: the list of requests.
        case help

        /// Whether the request may change the daemon (refused to public readers).
        public var isPrivileged: Bool {
            switch self {
            case .refresh: true
            case .authorize(let status): status != nil
            default: false
            }
        }
    }

    /// Options of `watch`.
    public struct WatchOptions: Sendable, Equatable {
        /// `watch weather`: only changes of the weather (and its status) are sent, not every
        /// new position or age.
        public var weatherOnly: Bool
        /// `watch every SPAN`: at most one line per span (the newest state at its end).
        public var every: Duration?
        public init(weatherOnly: Bool = false, every: Duration? = nil) {
            self.weatherOnly = weatherOnly
            self.every = every
        }
    }

    /// Where a one-off lookup is for.
    public enum PlaceQuery: Sendable, Equatable, Hashable {
        /// Decimal degrees (`48.14,11.58`).
        case coordinate(Coordinate)
        /// A place name, optionally narrowed by a region or country after a comma
        /// (`Los Angeles, CA`), resolved on the machine first.
        case name(String)
    }

    /// The longest place name accepted, in characters.
    public static let maxPlaceNameLength = 100
    /// Default and limits of `around`'s step, in degrees.
    public static let defaultAroundStep = 1.0
    public static let aroundStepRange: ClosedRange<Double> = 0.01...10

    /// The requests and their argument shapes, as `help` lists them.
    public static let requestSummaries = [
        "now", "watch [weather] [every SPAN]", "weather PLACE|LAT,LON", "around [PLACE|LAT,LON] [STEP]", "status",
        "refresh", "authorize [always|when-in-use|denied|ask]", "version", "help",
    ]

    /// Why a request line was refused; `message` names the offending text.
    public struct RequestError: Error, Sendable, Equatable {
        public var code: ErrorCode
        public var message: String
        public init(_ code: ErrorCode, _ message: String) {
            self.code = code
            self.message = message
        }
    }

    /// Parses one request line (without its newline; a trailing `\r` and surrounding blanks
    /// are ignored). Throws ``RequestError`` naming what was wrong.
    public static func parse(_ line: String) throws(RequestError) -> Request {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).map(String.init)
        guard let word = words.first else {
            throw RequestError(.unknownRequest, "empty request (known: \(requestSummaries.joined(separator: ", ")))")
        }
        let arguments = Array(words.dropFirst())
        func noArguments(_ request: Request) throws(RequestError) -> Request {
            guard arguments.isEmpty else {
                throw RequestError(
                    .badArgument, "'\(word)' takes no arguments, got '\(shown(arguments.joined(separator: " ")))'")
            }
            return request
        }
        switch word {
        case "now": return try noArguments(.now)
        case "status": return try noArguments(.status)
        case "refresh": return try noArguments(.refresh)
        case "version": return try noArguments(.version)
        case "help", "?": return try noArguments(.help)
        case "watch": return .watch(try watchOptions(arguments))
        case "weather":
            guard !arguments.isEmpty else {
                throw RequestError(.badArgument, "'weather' needs a PLACE or LAT,LON (example: weather Tromsø)")
            }
            return .weather(try placeQuery(arguments.joined(separator: " ")))
        case "around":
            var rest = arguments
            var step = defaultAroundStep
            if let last = rest.last, rest.count >= 1, let value = plainNumber(last), !last.contains(",") {
                guard aroundStepRange.contains(value) else {
                    throw RequestError(
                        .badArgument,
                        "'around': step \(shown(last)) is outside \(aroundStepRange.lowerBound)...\(aroundStepRange.upperBound) degrees"
                    )
                }
                step = value
                rest.removeLast()
            }
            let center = rest.isEmpty ? nil : try placeQuery(rest.joined(separator: " "))
            return .around(center: center, step: step)
        case "authorize":
            guard arguments.count <= 1 else {
                throw RequestError(.badArgument, "'authorize' takes one argument, got \(arguments.count)")
            }
            guard let name = arguments.first else { return .authorize(nil) }
            guard let status = AuthorizationStatus(configName: name) else {
                throw RequestError(
                    .badArgument, "'authorize \(shown(name))': expected always, when-in-use, denied or ask")
            }
            return .authorize(status)
        default:
            throw RequestError(
                .unknownRequest, "unknown request '\(shown(word))' (known: \(requestSummaries.joined(separator: ", ")))"
            )
        }
    }

    private static func watchOptions(_ arguments: [String]) throws(RequestError) -> WatchOptions {
        var options = WatchOptions()
        var rest = arguments[...]
        while let word = rest.popFirst() {
            switch word {
            case "weather" where !options.weatherOnly:
                options.weatherOnly = true
            case "every" where options.every == nil:
                // The span may be written with blanks (`every 1 min`): the rest of the line.
                let text = rest.joined(separator: " ")
                rest = []
                guard let span = TimeSpan.parse(text), span >= .seconds(1), span <= .seconds(86_400) else {
                    throw RequestError(
                        .badArgument, "'watch every \(shown(text))': expected a time span from 1s to 1d (example: 60s)")
                }
                options.every = span
            default:
                throw RequestError(
                    .badArgument, "'watch \(shown(word))': expected 'watch [weather] [every SPAN]'")
            }
        }
        return options
    }

    /// `LAT,LON` in decimal degrees (blanks allowed after the comma), else a place name.
    public static func placeQuery(_ text: String) throws(RequestError) -> PlaceQuery {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map {
            String($0.drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
        }
        let looksNumeric = text.allSatisfy {
            $0.isASCII && ($0.isNumber || $0 == "." || $0 == "," || $0 == "-" || $0 == "+" || $0 == " ")
        }
        if parts.count == 2, let latitude = plainNumber(parts[0]), let longitude = plainNumber(parts[1]) {
            guard (-90...90).contains(latitude), (-180...180).contains(longitude) else {
                throw RequestError(
                    .badArgument, "'\(shown(text))': latitude must be in -90...90, longitude in -180...180")
            }
            return .coordinate(Coordinate(latitude: latitude, longitude: longitude))
        }
        if looksNumeric {
            throw RequestError(.badArgument, "'\(shown(text))' is neither LAT,LON in decimal degrees nor a place name")
        }
        guard text.count <= maxPlaceNameLength else {
            throw RequestError(.badArgument, "place name longer than \(maxPlaceNameLength) characters")
        }
        guard !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw RequestError(.badArgument, "place name contains control characters")
        }
        return .name(text)
    }

    /// `[+-]digits[.digits]` as a finite Double (no exponent, no `nan`): the reading of decimal
    /// degrees that `Fallback=` has too (``Coordinate/decimalDegrees(_:)``).
    static func plainNumber(_ text: String) -> Double? {
        Coordinate.decimalDegrees(Substring(text))
    }

    /// Outside text as it may appear in an error: at most 40 characters, no control characters.
    static func shown(_ text: String) -> String {
        let clean = UntrustedText.sanitized(text, limit: 40)
        return clean
    }
}
