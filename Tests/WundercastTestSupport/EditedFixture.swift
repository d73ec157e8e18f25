import Foundation

extension Fixtures {
    /// A sentinel number given to ``edited(_:replacing:_:)`` is not in the serialised JSON.
    public struct MissingSentinel: Error, CustomStringConvertible {
        public var sentinel: String
        public var description: String { "sentinel \(sentinel) is not in the edited JSON" }
    }

    /// A variant of the recorded JSON object at `path`: parsed, changed by `edit`, serialised
    /// again (keys sorted), then each sentinel number in `literals` replaced by literal JSON text
    /// that `JSONSerialization` would not write (`-0`, `3.0`). The fixture file is never changed.
    /// Throws ``MissingSentinel`` when a sentinel does not occur.
    public static func edited(
        _ path: String, replacing literals: [String: String] = [:], _ edit: (inout [String: Any]) -> Void
    ) throws -> [UInt8] {
        guard var json = try JSONSerialization.jsonObject(with: Data(bytes(path))) as? [String: Any] else {
            throw CocoaError(.propertyListReadCorrupt)
        }
        edit(&json)
        var text = String(
            decoding: try JSONSerialization.data(withJSONObject: json, options: [.sortedKeys]), as: UTF8.self)
        for (sentinel, literal) in literals {
            guard text.contains(sentinel) else { throw MissingSentinel(sentinel: sentinel) }
            text = text.replacingOccurrences(of: sentinel, with: literal)
        }
        return Array(text.utf8)
    }
}
