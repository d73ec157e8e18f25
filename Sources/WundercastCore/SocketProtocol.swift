#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The line protocol of the daemon's Unix socket, in gpsd's style: a request is one short
/// line of words; every response is one JSON object on one line with a `"class"` member.
/// Full description: docs/PROTOCOL.md.
public enum SocketProtocol {
    /// Longest request line accepted, in bytes (without the newline).
    public static let maxRequestLength = 1024

    /// A parsed request.
    public enum Request: Sendable, Equatable {
        /// `now`: the current state, at once.
        case now
        /// `watch`: the current state, then one line per change, until the client leaves.
        case watch
        /// `version`: release and protocol revision.
        case version
        /// `help`: the list of requests.
        case help
        /// `authorize` (show) or `authorize always|when-in-use|denied|ask` (decide).
        case authorize(AuthorizationStatus?)
    }

    /// The requests and their argument shapes, as `help` lists them.
    public static let requestSummaries = [
        "now", "watch", "version", "help", "authorize [always|when-in-use|denied|ask]",
    ]

    /// Why a request line was refused; `message` names the offending text.
    public struct RequestError: Error, Sendable, Equatable {
        public var message: String
    }

    /// Parses one request line (without its newline; a trailing `\r` and surrounding blanks
    /// are ignored). Throws ``RequestError`` naming what was wrong.
    public static func parse(_ line: String) throws(RequestError) -> Request {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).map(String.init)
        guard let word = words.first else {
            throw RequestError(message: "empty request (known: \(requestSummaries.joined(separator: ", ")))")
        }
        func noArguments(_ request: Request) throws(RequestError) -> Request {
            guard words.count == 1 else {
                throw RequestError(message: "'\(word)' takes no arguments, got '\(words[1...].joined(separator: " "))'")
            }
            return request
        }
        switch word {
        case "now": return try noArguments(.now)
        case "watch": return try noArguments(.watch)
        case "version": return try noArguments(.version)
        case "help", "?": return try noArguments(.help)
        case "authorize":
            guard words.count <= 2 else {
                throw RequestError(message: "'authorize' takes one argument, got \(words.count - 1)")
            }
            guard words.count == 2 else { return .authorize(nil) }
            guard let status = AuthorizationStatus(configName: words[1]) else {
                throw RequestError(message: "'authorize \(words[1])': expected always, when-in-use, denied or ask")
            }
            return .authorize(status)
        default:
            let shown = word.count > 40 ? String(word.prefix(40)) + "…" : word
            throw RequestError(
                message: "unknown request '\(shown)' (known: \(requestSummaries.joined(separator: ", ")))")
        }
    }

    /// `{"class":"VERSION",...}`
    public struct VersionResponse: Codable, Sendable, Equatable {
        public var `class` = "VERSION"
        public var release: String = Wundercast.version
        public var proto: Int = Wundercast.protocolVersion
        public init() {}
    }

    /// `{"class":"HELP","requests":[...]}`
    public struct HelpResponse: Codable, Sendable, Equatable {
        public var `class` = "HELP"
        public var requests: [String] = SocketProtocol.requestSummaries
        public init() {}
    }

    /// `{"class":"AUTHORIZATION","status":"authorizedAlways","config":"always"}`
    public struct AuthorizationResponse: Codable, Sendable, Equatable {
        public var `class` = "AUTHORIZATION"
        public var status: AuthorizationStatus
        public var config: String
        public init(_ status: AuthorizationStatus) {
            self.status = status
            self.config = status.configName
        }
    }

    /// `{"class":"ERROR","message":"..."}`
    public struct ErrorResponse: Codable, Sendable, Equatable {
        public var `class` = "ERROR"
        public var message: String
        public init(message: String) { self.message = message }
    }

    /// One response line: compact JSON, ISO 8601 dates, no escaped slashes, then `\n`.
    /// Members come in a fixed order: `"class"` first (as gpsd does), then the rest sorted.
    public static func line<T: Encodable>(_ value: T) -> [UInt8] {
        guard let encoded = try? encoder.encode(value) else {
            return Array(#"{"class":"ERROR","message":"encoding failed"}"#.utf8) + [UInt8(ascii: "\n")]
        }
        var bytes = [UInt8](encoded)
        // With sorted keys, the top level's `"class":"NAME",` can be lifted to the front: no
        // member sorted before it holds an object with a "class" of its own, and inside a
        // string value the quotes would be escaped.
        let marker = Array(#""class":""#.utf8)
        if bytes.first == UInt8(ascii: "{"), let start = firstIndex(of: marker, in: bytes), start > 1,
            let end = bytes[(start + marker.count)...].firstIndex(of: UInt8(ascii: "\"")),
            end + 1 < bytes.count, bytes[end + 1] == UInt8(ascii: ",")
        {
            let member = Array(bytes[start...(end + 1)])
            bytes.removeSubrange(start...(end + 1))
            bytes.insert(contentsOf: member, at: 1)
        }
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }

    private static func firstIndex(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for i in 0...(haystack.count - needle.count) where haystack[i] == needle[0] {
            if Array(haystack[i..<(i + needle.count)]) == needle { return i }
        }
        return nil
    }

    /// Decodes a `WEATHER` line (clients).
    public static func decodeState(_ line: some Collection<UInt8>) throws -> WeatherState {
        try decoder.decode(WeatherState.self, from: Data(line))
    }

    static let encoder: JSONEncoder = {
        let e = JSONEncoder()
        e.dateEncodingStrategy = .iso8601
        e.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        return e
    }()

    static let decoder: JSONDecoder = {
        let d = JSONDecoder()
        d.dateDecodingStrategy = .iso8601
        return d
    }()
}
