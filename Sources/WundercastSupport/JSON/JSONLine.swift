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
    /// With `flat`, no member's value may be an array or an object.
    public static func isObject(_ bytes: some Collection<UInt8>, flat: Bool = false) -> Bool {
        guard case .object(let members)? = try? JSONDecoder().decode(JSONValue.self, from: Data(bytes)) else {
            return false
        }
        return !flat
            || members.values.allSatisfy {
                switch $0 {
                case .array, .object: false
                case .null, .bool, .number, .string: true
                }
            }
    }
}
