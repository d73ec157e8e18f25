#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WundercastSupport

/// Reading the daemon's answer lines: an `ERROR` object becomes ``CtlError/refused(code:message:)``,
/// anything else must decode as the expected class.
enum Answer {
    private struct ClassProbe: Decodable {
        var `class`: String?
    }

    private struct ErrorAnswer: Decodable {
        var code: String?
        var message: String?
    }

    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()

    /// Decodes `line` as `T` (whose JSON `class` is `expected`).
    static func decode<T: Decodable>(_ line: [UInt8], as type: T.Type, expected: String) throws(CtlError) -> T {
        let data = Data(line)
        let probe = try? decoder.decode(ClassProbe.self, from: data)
        if probe?.class == "ERROR" {
            let error = try? decoder.decode(ErrorAnswer.self, from: data)
            throw .refused(code: error?.code ?? "unknown", message: error?.message ?? "no message")
        }
        guard probe?.class == expected, let value = try? decoder.decode(T.self, from: data) else {
            throw .unreadable("unreadable answer from wundercastd (expected \(expected)): \(shown(line))")
        }
        return value
    }

    /// The start of an unreadable line, safe to print.
    static func shown(_ line: [UInt8]) -> String {
        UntrustedText.sanitized(String(decoding: line.prefix(400), as: UTF8.self), limit: 120)
    }
}
