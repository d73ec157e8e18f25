#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Compact one-line JSON for the bar formats: sorted members, `/` unescaped; control
/// characters in strings are escaped by the encoder (and already removed by ``UntrustedText``).
enum JSONText {
    static func line<T: Encodable>(_ value: T) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}
