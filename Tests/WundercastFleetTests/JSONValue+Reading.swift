import Foundation
import WundercastSupport

/// Reading and editing payloads as JSON in the tests.
extension JSONValue {
    init(payload: [UInt8]) throws { self = try JSONDecoder().decode(JSONValue.self, from: Data(payload)) }

    subscript(_ key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    var object: [String: JSONValue]? {
        if case .object(let members) = self { return members }
        return nil
    }

    var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    var number: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    /// A copy with the member at `path` set to `value`, or removed when `value` is `nil`.
    func setting(_ path: [String], to value: JSONValue?) -> JSONValue {
        guard let key = path.first, case .object(var members) = self else { return self }
        if path.count == 1 {
            members[key] = value
        } else {
            members[key] = (members[key] ?? .object([:])).setting(Array(path.dropFirst()), to: value)
        }
        return .object(members)
    }
}

extension JSONValue: Equatable {
    package static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.number(let a), .number(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)): a == b
        default: false
        }
    }
}
