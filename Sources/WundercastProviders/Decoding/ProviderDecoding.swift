import WundercastSupport
import WundercastModel

/// The typed reads every provider's decoder makes of a ``JSONValue`` (Open-Meteo, OpenWeatherMap,
/// MET Norway): each names the member's path in the ``WeatherError/decoding(message:)`` it throws.
enum ProviderDecoding {
    /// `value` as an object, `nil` when missing or `null`; `name` is its path for the error.
    static func object(_ value: JSONValue?, name: String) throws(WeatherError) -> [String: JSONValue]? {
        switch value {
        case nil, .null: return nil
        case .object(let members): return members
        case let other?: throw .decoding(message: "\(name) is \(other.kind), expected an object")
        }
    }

    /// The unit label `block.key` (`"mp/h"` as `"mph"`); `nil` when missing, empty or `"undefined"`.
    static func unit(_ labels: [String: JSONValue], _ block: String, _ key: String) throws(WeatherError) -> String? {
        switch labels[key] {
        case nil, .null: return nil
        case .string(let text):
            let trimmed = text.trimmingASCIIWhitespace()
            let label = UntrustedText.sanitized(trimmed, limit: 16)
            return label.isEmpty || label == "undefined" ? nil : normalisedUnit(label)
        case let other?:
            throw .decoding(message: "\(block).\(key) is \(other.kind), expected a string")
        }
    }

    /// A number or `null` at `path`. No value of a weather answer (a quantity in any unit, a time
    /// in seconds since 1970) reaches 10¹²: a larger magnitude (`1e300`) is a broken answer, and
    /// refusing it keeps every later conversion to an integer safe.
    static func number(_ value: JSONValue?, _ path: String) throws(WeatherError) -> Double? {
        switch value {
        case nil, .null: return nil
        case .number(let value):
            guard value.isFinite, abs(value) < 1e12 else {
                throw .decoding(message: "\(path) is \(value), beyond any plausible value")
            }
            return value
        case let other?: throw .decoding(message: "\(path) is \(other.kind), expected a number")
        }
    }

    /// Open-Meteo spells miles per hour `"mp/h"`.
    static func normalisedUnit(_ unit: String) -> String {
        unit == "mp/h" ? "mph" : unit
    }
}
