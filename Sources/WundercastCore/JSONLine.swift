#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One line of a JSON-lines protocol (gpsd's reports) checked before a parser that cannot be
/// trusted with anything else sees it.
public enum JSONLine {
    /// Whether `bytes` are exactly one JSON object (RFC 8259, UTF-8; blanks and a line end around
    /// it allowed; nothing else before or after it), as Foundation's `JSONDecoder` reads JSON.
    public static func isObject(_ bytes: some Collection<UInt8>) -> Bool {
        guard case .object? = try? JSONDecoder().decode(JSONValue.self, from: Data(bytes)) else { return false }
        return true
    }
}
