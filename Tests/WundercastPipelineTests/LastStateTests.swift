import Foundation
import Testing
import WundercastTestSupport

@testable import WundercastModel
@testable import WundercastPipeline

/// The file format of the kept weather: what is written reads back the same, and anything
/// else — a torn or foreign file, another version, values no state has, control characters,
/// a huge file — is refused with a reason.
@Suite struct LastStateTests {
    static let fetchedAt = Date(timeIntervalSince1970: 1_800_000_000)

    /// Records of different shapes, built as the daemon builds them.
    static let records: [LastState] = {
        var sample = SampleStates.weather(fetchedAgo: 0, now: fetchedAt).weather!
        sample.forecast = SampleStates.forecast(observed: fetchedAt)
        let metric = LastState(
            provider: "open-meteo", fetchedAt: fetchedAt, clockSynchronized: true,
            location: .init(latitude: 49.12, longitude: 12.2, source: .gpsd), weather: sample)
        var fallback = metric
        fallback.location = .init(latitude: -33.9, longitude: 18.4, source: .fallback, name: "Cape Town")
        fallback.clockSynchronized = false
        var none = metric
        none.location = nil
        none.provider = "metno"
        var imperial = metric
        imperial.weather = sample.converted(to: UnitPreferences(.imperial))
        imperial.weather.condition = "Überwiegend bewölkt ☁️ 雨"
        return [metric, fallback, none, imperial]
    }()

    @Test(arguments: records.indices)
    func whatIsWrittenReadsBackTheSame(_ index: Int) throws {
        let record = Self.records[index]
        let bytes = record.encoded()
        #expect(bytes.last == UInt8(ascii: "\n"))
        #expect(try LastState.decode(bytes) == record)
        // Encoding is deterministic: the same record gives the same bytes (no needless write).
        #expect(try LastState.decode(bytes).encoded() == bytes)
    }

    @Test func fetchedAtIsKeptInWholeSeconds() throws {
        let record = LastState(
            provider: "open-meteo", fetchedAt: Self.fetchedAt.addingTimeInterval(0.75), clockSynchronized: true,
            location: nil, weather: makeWeather(3))
        #expect(record.fetchedAt == Self.fetchedAt)
        #expect(try LastState.decode(record.encoded()).fetchedAt == Self.fetchedAt)
    }

    /// A file cut anywhere (what a write without rename could leave) is never taken for a state.
    @Test func everyTornPrefixIsRefused() throws {
        let bytes = Self.records[0].encoded()
        for cut in stride(from: 0, to: bytes.count - 1, by: max(1, bytes.count / 97)) {
            #expect(throws: LastStateError.self, "cut at \(cut)") { try LastState.decode(Array(bytes[..<cut])) }
        }
    }

    /// The record's JSON object with `edit` applied.
    static func edited(_ edit: (inout [String: Any]) -> Void) throws -> [UInt8] {
        var object = try #require(
            try JSONSerialization.jsonObject(with: Data(records[0].encoded())) as? [String: Any])
        edit(&object)
        return Array(try JSONSerialization.data(withJSONObject: object))
    }

    static func weatherEdited(_ edit: @escaping (inout [String: Any]) -> Void) throws -> [UInt8] {
        try edited { object in
            var weather = object["weather"] as! [String: Any]
            edit(&weather)
            object["weather"] = weather
        }
    }

    static func locationEdited(_ key: String, _ value: Any) throws -> [UInt8] {
        try edited { object in
            var location = object["location"] as! [String: Any]
            location[key] = value
            object["location"] = location
        }
    }

    @Test func refusals() throws {
        let cases: [(String, [UInt8], LastStateError)] = [
            ("empty", [], .notJSON),
            ("an array", Array("[1,2]".utf8), .notJSON),
            ("binary", [0xFF, 0xFE, 0x00, 0x7B], .notJSON),
            ("another format", try Self.edited { $0["format"] = "gpsd" }, .otherFormat),
            ("no format", try Self.edited { $0["format"] = nil }, .otherFormat),
            ("version 2", try Self.edited { $0["version"] = 2 }, .unsupportedVersion(2)),
            ("version 0", try Self.edited { $0["version"] = 0 }, .unsupportedVersion(0)),
            ("no version", try Self.edited { $0["version"] = nil }, .unsupportedVersion(0)),
            ("no weather", try Self.edited { $0["weather"] = nil }, .invalid("members missing or of the wrong type")),
            (
                "a date as number", try Self.edited { $0["fetchedAt"] = 3 },
                .invalid("members missing or of the wrong type")
            ),
            ("unknown provider", try Self.edited { $0["provider"] = "acme" }, .invalid("unknown provider")),
            ("latitude 91", try Self.locationEdited("latitude", 91), .invalid("position out of range")),
            ("longitude -180.5", try Self.locationEdited("longitude", -180.5), .invalid("position out of range")),
            ("unknown source", try Self.locationEdited("source", "lookup"), .invalid("unknown position source")),
            ("unrecognized source", try Self.locationEdited("source", "glonass"), .invalid("unknown position source")),
            (
                "humidity 250", try Self.weatherEdited { $0["relativeHumidity"] = 250 },
                .invalid("weather values out of range")
            ),
            ("wind -5", try Self.weatherEdited { $0["windSpeed"] = -5 }, .invalid("weather values out of range")),
            ("200 °C", try Self.weatherEdited { $0["temperature"] = 200 }, .invalid("weather values out of range")),
        ]
        for (what, bytes, expected) in cases {
            #expect(throws: expected, "\(what)") { try LastState.decode(bytes) }
        }
    }

    /// Text that reaches bars and terminals: no control characters, no endless strings, at
    /// any depth (the forecast's hours, the place name).
    @Test(arguments: ["\u{1B}[2J", "a\nb", "\u{0}", "\u{9B}1m", "\u{202E}evil", String(repeating: "x", count: 201)])
    func textThatNoStateHasIsRefused(_ text: String) throws {
        let text = text
        let invalid = LastStateError.invalid("text with control characters or over 200 characters")
        #expect(throws: invalid) { try LastState.decode(try Self.weatherEdited { $0["condition"] = text }) }
        #expect(throws: invalid) { try LastState.decode(try Self.locationEdited("name", text)) }
        #expect(throws: invalid) {
            try LastState.decode(
                try Self.weatherEdited { weather in
                    var forecast = weather["forecast"] as! [String: Any]
                    var hours = forecast["hours"] as! [[String: Any]]
                    hours[3]["condition"] = text
                    forecast["hours"] = hours
                    weather["forecast"] = forecast
                })
        }
    }

    @Test func aFileOverTheLimitIsRefusedBeforeItIsParsed() {
        let huge = Array("{\"format\":\"".utf8) + [UInt8](repeating: UInt8(ascii: "x"), count: LastState.sizeLimit)
        #expect(throws: LastStateError.tooLarge(limit: LastState.sizeLimit)) { try LastState.decode(huge) }
    }

    @Test func reasonsReadAsPhrases() {
        #expect(LastStateError.unsupportedVersion(2).description == "format version 2 (this daemon reads 1)")
        #expect(LastStateError.notJSON.description == "not a JSON object")
        #expect(LastStateError.tooLarge(limit: 1_048_576).description == "larger than 1048576 bytes")
    }
}
