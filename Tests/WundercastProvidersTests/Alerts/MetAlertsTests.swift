import Foundation
import Testing
import WundercastModel
import WundercastProviders
import WundercastTestSupport

/// The recorded MetAlerts answers in `Tests/Fixtures/alerts/metalerts/` (origins in
/// `Tests/Fixtures/alerts/ORIGINS-b.md`), decoded and compared with the same body read here with
/// `JSONSerialization`; variants are **edited in code** from a recording, never written whole.
@Suite struct MetAlertsTests {
    /// Three marine gale warnings off Vestland, June 2025, `lang` `no`; the first a MultiPolygon.
    static let marine = "alerts/metalerts/current_marine_gale_3_multipolygon_no.json"
    /// One land forest-fire feature (a `Feature`, not a collection), Lofoten, August 2023.
    static let landFeature = "alerts/metalerts/feature_land_forestfire_lofoten_1.1.json"

    static func json(_ file: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(Fixtures.bytes(file))) as? [String: Any])
    }

    /// The marine recording, **edited**: `edit` changes the collection.
    static func edited(_ edit: (inout [String: Any]) -> Void) throws -> [UInt8] {
        var json = try json(marine)
        edit(&json)
        return [UInt8](try JSONSerialization.data(withJSONObject: json))
    }

    /// The marine recording with property `key` of feature `index` set to `value` (`nil` removes).
    static func property(_ index: Int, _ key: String, _ value: Any?) throws -> [UInt8] {
        try edited { json in
            var features = json["features"] as! [[String: Any]]
            var properties = features[index]["properties"] as! [String: Any]
            properties[key] = value
            features[index]["properties"] = properties
            json["features"] = features
        }
    }

    static func decode(_ body: [UInt8], status: Int = 200) throws(WeatherError) -> [Alert] {
        try MetAlerts.decode(status: status, body: body, contentType: "application/json")
    }

    static func decodingError(_ body: [UInt8]) -> String? {
        do {
            _ = try decode(body)
            return nil
        } catch {
            if case .decoding(let message) = error { return message }
            return "\(error)"
        }
    }

    static func date(_ text: String) throws -> Date { try Date(text, strategy: .iso8601) }

    @Test func theRecordedMarineAnswerGivesItsThreeAlertsInOrder() throws {
        let alerts = try Self.decode(Fixtures.bytes(Self.marine))
        let features = try #require(Self.json(Self.marine)["features"] as? [[String: Any]])
        #expect(alerts.count == 3)
        for (alert, feature) in zip(alerts, features) {
            let properties = try #require(feature["properties"] as? [String: Any])
            let interval = try #require((feature["when"] as? [String: Any])?["interval"] as? [String])
            #expect(alert.id == properties["id"] as? String)
            #expect(alert.event == properties["eventAwarenessName"] as? String)
            #expect(alert.level == properties["awareness_level"] as? String)
            #expect(alert.headline == properties["title"] as? String)
            #expect(alert.areaDescription == properties["area"] as? String)
            #expect(alert.link == properties["web"] as? String)
            #expect(alert.onset == (try Self.date(interval[0])))
            #expect(alert.expires == (try Self.date(interval[1])))
            #expect(alert.source == .metAlerts && alert.authority == "Meteorologisk institutt")
            #expect(alert.language == "no" && alert.messageType == .update && alert.severity == .moderate)
            #expect(alert.urgency == nil && alert.sent == nil && alert.references.isEmpty)
        }
    }

    @Test func theFirstMarineAlertConcretely() throws {
        let alert = try #require(try Self.decode(Fixtures.bytes(Self.marine)).first)
        #expect(alert.id == "2.49.0.1.578.0.20250604171130.040")
        #expect(alert.event == "Kuling")
        #expect(alert.level == "2; yellow; Moderate")
        #expect(alert.certainty == .observed)
        #expect(alert.onset == Date(timeIntervalSince1970: 1_748_970_000))  // 2025-06-03T17:00:00Z
        #expect(alert.expires == Date(timeIntervalSince1970: 1_749_146_400))  // 2025-06-05T18:00:00Z
        #expect(
            alert.description
                == "Onsdag fortsatt sørlig stiv til sterk kuling 20 m/s, torsdag formiddag dreiende sørvest.")
        // Sent with a trailing space: trimmed.
        #expect(alert.instruction?.hasSuffix("Ved motorstopp kan man drive raskt mot land.") == true)
        #expect(alert.areaDescription == "Måløy - Svinøy")
        let second = try #require(try Self.decode(Fixtures.bytes(Self.marine)).dropFirst().first)
        #expect(second.certainty == .likely)
    }

    @Test func theLandFeatureInACollectionBuiltHere() throws {
        // Edited: the recorded single land feature put in a collection without `lang`.
        let feature = try Self.json(Self.landFeature)
        let body = [UInt8](
            try JSONSerialization.data(withJSONObject: ["type": "FeatureCollection", "features": [feature]]))
        let alert = try #require(try Self.decode(body).first)
        #expect(alert.id == "2.49.0.1.578.0.20230811073606.016")
        #expect(alert.event == "Skogbrannfare")
        #expect(alert.level == "2; yellow; Moderate" && alert.severity == .moderate && alert.certainty == .likely)
        #expect(alert.areaDescription == "Lofoten, Vesterålen, og deler av Salten, Ofoten og Sør-Troms")
        #expect(alert.onset == (try Self.date("2023-08-10T22:00:00Z")))
        // Not given: no `web`, no `lang`.
        #expect(alert.link == nil && alert.language == nil)
    }

    @Test func anEmptyCollectionHasNoAlerts() throws {
        // Edited: the marine recording with its features removed (MET answers so for a quiet place).
        let body = try Self.edited { $0["features"] = [Any]() }
        #expect(try Self.decode(body).isEmpty)
    }

    @Test func withoutIdOrEventAFeatureIsSkipped() throws {
        #expect(try Self.decode(Self.property(1, "id", nil)).map(\.area) == ["Måløy - Svinøy", "Fedje - Bulandet"])
        var body = try Self.property(0, "eventAwarenessName", nil)
        #expect(try Self.decode(body).first?.event == "gale")  // the event code instead
        body = try Self.edited { json in
            var features = json["features"] as! [[String: Any]]
            var properties = features[0]["properties"] as! [String: Any]
            properties["eventAwarenessName"] = NSNull()
            properties["event"] = nil
            features[0]["properties"] = properties
            json["features"] = features
        }
        #expect(try Self.decode(body).count == 2)
    }

    @Test func aTestAlertIsSkipped() throws {
        #expect(try Self.decode(Self.property(2, "status", "Test")).count == 2)
    }

    @Test func unknownWordsReadAsUnknownOrTheDefault() throws {
        var alert = try #require(try Self.decode(Self.property(0, "severity", "Catastrophic")).first)
        #expect(alert.severity == .unknown)
        alert = try #require(try Self.decode(Self.property(0, "severity", nil)).first)
        #expect(alert.severity == .unknown)
        alert = try #require(try Self.decode(Self.property(0, "certainty", "Sure")).first)
        #expect(alert.certainty == .unknown)
        alert = try #require(try Self.decode(Self.property(0, "certainty", nil)).first)
        #expect(alert.certainty == nil)
        alert = try #require(try Self.decode(Self.property(0, "type", "Cancel")).first)
        #expect(alert.messageType == .cancel)
        alert = try #require(try Self.decode(Self.property(0, "type", "Whatever")).first)
        #expect(alert.messageType == .alert)
        alert = try #require(try Self.decode(Self.property(0, "web", "javascript:alert(1)")).first)
        #expect(alert.link == nil)
    }

    @Test func htmlAndControlCharactersAreStrippedAndLongTextIsBounded() throws {
        var alert = try #require(
            try Self.decode(Self.property(0, "description", "<b>Sterk</b>&nbsp;kuling\u{7}\n\n20&amp;nbsp;m/s")).first)
        #expect(alert.description == "Sterk kuling 20&nbsp;m/s")
        let long = String(repeating: "kuling ", count: 2_000)
        alert = try #require(try Self.decode(Self.property(0, "title", long)).first)
        #expect(alert.headline?.unicodeScalars.count == Alert.Limit.headline)
        #expect(alert.headline?.hasSuffix("…") == true)
        alert = try #require(try Self.decode(Self.property(0, "description", long)).first)
        #expect(alert.description?.unicodeScalars.count == Alert.Limit.description)
        alert = try #require(try Self.decode(Self.property(0, "title", "  \u{1}\u{2} ")).first)
        #expect(alert.headline == nil)
    }

    @Test func errors() throws {
        #expect(throws: WeatherError.http(status: 500, reason: nil, retryAfter: nil)) {
            try Self.decode(Fixtures.bytes(Self.marine), status: 500)
        }
        #expect(throws: WeatherError.notJSON(status: 200, bytes: 15, contentType: "application/json")) {
            try Self.decode(Array("<html>502</html".utf8))
        }
        #expect(Self.decodingError(Array("[]".utf8)) == "body is an array, expected an object")
        #expect(Self.decodingError(Array(#"{"type":"FeatureCollection"}"#.utf8)) == "missing member 'features'")
        #expect(Self.decodingError(Array(#"{"features":{}}"#.utf8)) == "features is an object, expected an array")
        #expect(
            Self.decodingError(try Self.property(1, "title", 12))
                == "features[1].properties.title is a number, expected a string")
        let badTime = try Self.edited { json in
            var features = json["features"] as! [[String: Any]]
            features[2]["when"] = ["interval": ["2025-06-03T03:00:00", "2025-06-05T09:00:00+00:00"]]
            json["features"] = features
        }
        #expect(
            Self.decodingError(badTime)?.hasPrefix("features[2].when.interval[0] is \"2025-06-03T03:00:00\"") == true)
    }

    @Test func timesWithAnotherOffsetOrFractionNameTheSameInstant() throws {
        // Edited: the first interval written with offsets other than +00:00.
        let body = try Self.edited { json in
            var features = json["features"] as! [[String: Any]]
            features[0]["when"] = ["interval": ["2025-06-03T19:00:00+02:00", "2025-06-05T13:30:00.5-04:30"]]
            json["features"] = features
        }
        let alert = try #require(try Self.decode(body).first)
        #expect(alert.onset == Date(timeIntervalSince1970: 1_748_970_000))  // 17:00Z
        #expect(alert.expires == Date(timeIntervalSince1970: 1_749_146_400.5))  // 18:00:00.5Z
    }

    @Test func thePathAsksInEnglishWithFourDecimals() {
        let path = MetAlerts.path(at: Coordinate(latitude: 62.123456, longitude: 5.0))
        #expect(path == "/weatherapi/metalerts/2.0/current.json?lat=62.1235&lon=5&lang=en")
    }
}

extension Alert {
    /// The area, for short expectations.
    var area: String? { areaDescription }
}
