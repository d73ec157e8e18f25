#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WundercastSupport
import WundercastModel

/// What both OpenWeatherMap 2.5 endpoints share: a JSON object with `cod` (the API's own
/// status, a number on success and on 401/429 but a string on 400/404: `200`, `"200"`,
/// `"404"`) and `message` (the error text; on a forecast success a number instead).
enum OpenWeatherMapBody {
    /// The top-level object of an answer that is a success by its status line *and* its `cod`.
    ///
    /// - A status outside 200–299 throws ``WeatherError/http(status:reason:retryAfter:)`` with
    ///   the body's `message` as reason when it is a non-empty string (sanitised), whatever
    ///   else the body is; `retryAfter` is `nil` (the provider adds the header's).
    /// - A success status with a body that is not JSON throws
    ///   ``WeatherError/notJSON(status:bytes:contentType:)``; JSON that is not an object throws
    ///   ``WeatherError/decoding(message:)``.
    /// - A `cod` other than 200 under a success status throws
    ///   ``WeatherError/errorBody(status:providerCode:reason:)`` (PITFALLS: never trust the
    ///   status line alone; `{"cod":"404","message":""}` has been recorded under HTTP 200). A
    ///   missing or `null` `cod` is no error; one that is neither a number nor a string is a
    ///   decoding error.
    static func object(_ response: HTTPResponse) throws(WeatherError) -> JSONObject {
        let (status, body) = (response.status, response.body)
        let parsed = try? JSONDecoder().decode(JSONValue.self, from: Data(body))
        var members: [String: JSONValue]? = nil
        if case .object(let object)? = parsed { members = object }
        let reason = members.flatMap { message($0["message"]) }
        guard (200..<300).contains(status) else { throw .http(status: status, reason: reason, retryAfter: nil) }
        guard let parsed else {
            throw .notJSON(status: status, bytes: body.count, contentType: response.headers["content-type"])
        }
        guard let members else { throw .decoding(message: "body is \(parsed.kind), expected a JSON object") }
        switch members["cod"] {
        case nil, .null?:
            break
        case .number(let code)?:
            if code != 200 { throw .errorBody(status: status, providerCode: Self.text(code), reason: reason) }
        case .string(let text)?:
            let code = text.trimmingASCIIWhitespace()
            if code != "200" { throw .errorBody(status: status, providerCode: code, reason: reason) }
        case let other?:
            throw .decoding(message: "cod is \(other.kind), expected a number or a string")
        }
        return JSONObject(members: members, path: "")
    }

    /// `message` when it is a string with something in it, sanitised; `nil` otherwise (a
    /// forecast success sends a number there).
    static func message(_ value: JSONValue?) -> String? {
        guard case .string(let text)? = value else { return nil }
        let clean = UntrustedText.sanitized(text)
        return clean.isEmpty ? nil : clean
    }

    /// `404` for 404.0; other numbers as Swift prints them.
    static func text(_ number: Double) -> String {
        number.rounded() == number && abs(number) < 1e9 ? String(Int(number)) : String(number)
    }
}

/// A JSON object and its path in the body, so that every error names the member
/// (`list[3].main.temp is a string, expected a number`). A missing member and `null` read as
/// `nil`; a member of the wrong type throws ``WeatherError/decoding(message:)``.
struct JSONObject {
    let members: [String: JSONValue]
    /// `""` for the body itself, else e.g. `list[3].main`.
    let path: String

    func path(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    func object(_ key: String) throws(WeatherError) -> JSONObject? {
        try ProviderDecoding.object(members[key], name: path(key)).map { JSONObject(members: $0, path: path(key)) }
    }

    func number(_ key: String) throws(WeatherError) -> Double? {
        try ProviderDecoding.number(members[key], path(key))
    }

    func string(_ key: String) throws(WeatherError) -> String? {
        switch members[key] {
        case nil, .null?: return nil
        case .string(let text)?: return text
        case let other?: throw .decoding(message: "\(path(key)) is \(other.kind), expected a string")
        }
    }

    func array(_ key: String) throws(WeatherError) -> [JSONValue]? {
        switch members[key] {
        case nil, .null?: return nil
        case .array(let values)?: return values
        case let other?: throw .decoding(message: "\(path(key)) is \(other.kind), expected an array")
        }
    }

    /// The objects of array `key`, each with its path (`list[0]`); `nil` when missing.
    func objects(_ key: String) throws(WeatherError) -> [JSONObject]? {
        guard let values = try array(key) else { return nil }
        var out: [JSONObject] = []
        out.reserveCapacity(values.count)
        for (index, value) in values.enumerated() {
            guard case .object(let members) = value else {
                throw .decoding(message: "\(path(key))[\(index)] is \(value.kind), expected an object")
            }
            out.append(JSONObject(members: members, path: "\(path(key))[\(index)]"))
        }
        return out
    }

    /// A whole number at `key` within ±`limit` (an id, an offset); a fraction or a larger
    /// number throws, naming `expected`.
    func integer(_ key: String, limit: Double, expected: String) throws(WeatherError) -> Int? {
        guard let value = try number(key) else { return nil }
        guard value.rounded() == value, abs(value) <= limit else {
            throw .decoding(message: "\(path(key)) is \(value), expected \(expected)")
        }
        return Int(value)
    }

    /// Unix seconds at `key` as an instant (±10¹¹ s, about ±3,000 years).
    func instant(_ key: String) throws(WeatherError) -> Date? {
        guard let seconds = try number(key) else { return nil }
        guard abs(seconds) < 1e11 else { throw .decoding(message: "\(path(key)) is \(seconds), expected unix seconds") }
        return Date(timeIntervalSince1970: seconds)
    }
}

extension JSONObject {
    /// This object as `{"lat": …, "lon": …}`; `nil` unless both are numbers in range.
    func coordinate() throws(WeatherError) -> Coordinate? {
        guard let latitude = try number("lat"), let longitude = try number("lon"), (-90...90).contains(latitude),
            (-180...180).contains(longitude)
        else { return nil }
        return Coordinate(latitude: latitude, longitude: longitude)
    }
}

/// The place's offset from UTC and its sunrise and sunset, as an answer gives them (instants).
public struct OpenWeatherMapClock: Sendable, Equatable {
    /// Seconds east of UTC (`timezone`): whole seconds within ±18 h, the offsets on Earth.
    public var utcOffsetSeconds: Int?
    public var sunrise: Date?
    public var sunset: Date?

    public init(utcOffsetSeconds: Int? = nil, sunrise: Date? = nil, sunset: Date? = nil) {
        self.utcOffsetSeconds = utcOffsetSeconds
        self.sunrise = sunrise
        self.sunset = sunset
    }

    /// `offsetIn.timezone`, `sunIn.sunrise`, `sunIn.sunset`.
    init(offsetIn offset: JSONObject?, sunIn sun: JSONObject?) throws(WeatherError) {
        utcOffsetSeconds = try offset?.integer("timezone", limit: 18 * 3600, expected: "whole seconds within ±18 h")
        sunrise = try sun?.instant("sunrise")
        sunset = try sun?.instant("sunset")
    }
}
