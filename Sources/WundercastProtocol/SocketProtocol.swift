#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WundercastSupport
import WundercastModel

/// The line protocol of the daemon's Unix socket, in gpsd's style: a request is one short
/// line of words; every response is one JSON object on one line with a `"class"` member.
/// Full description: docs/PROTOCOL.md.
public enum SocketProtocol {
    /// Longest request line accepted, in bytes (without the newline).
    public static let maxRequestLength = 1024

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

    /// `{"class":"ERROR","code":"unknown-request","message":"..."}`: `code` is one of
    /// ``ErrorCode`` (stable), `message` one human line naming what was wrong.
    public struct ErrorResponse: Codable, Sendable, Equatable {
        public var `class` = "ERROR"
        public var code: String
        public var message: String
        public init(_ code: ErrorCode, message: String) {
            self.code = code.rawValue
            self.message = message
        }
        /// An error a provider gave for a one-off lookup: its own code (`http-429`, `transport`…).
        public init(providerCode: String, message: String) {
            self.code = providerCode
            self.message = message
        }
        public init(_ error: RequestError) { self.init(error.code, message: error.message) }
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
