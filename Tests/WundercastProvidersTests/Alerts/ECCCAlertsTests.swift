import Foundation
import Testing
import WundercastModel
import WundercastProviders
import WundercastTestSupport

/// ECCC's `weather-alerts` decoder. **No recorded ECCC answer was found**: the one fixture is
/// env_canada's published test body (`Tests/Fixtures/alerts/ORIGINS-b.md`), written by hand by
/// its authors in the collection's vocabulary, without `id`s. Variants are edited from it in code
/// and say so; nothing here proves agreement with a live answer.
@Suite struct ECCCAlertsTests {
    static let fixture = "alerts/eccc/alerts_wfs_env_canada_handwritten.json"
    /// Inside the fixture's square (-76…-75, 45…46): Ottawa.
    static let ottawa = Coordinate(latitude: 45.42, longitude: -75.69)

    static func json() throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(Fixtures.bytes(fixture))) as? [String: Any])
    }

    /// The fixture, **edited**: each feature's properties given an `id` and `feature_id` in the
    /// collection's form (`<alert>_<feature>`), then `edit` applied to the features.
    static func withIDs(_ edit: (inout [[String: Any]]) -> Void = { _ in }) throws -> [UInt8] {
        var json = try json()
        var features = json["features"] as! [[String: Any]]
        for index in features.indices {
            var properties = features[index]["properties"] as! [String: Any]
            properties["feature_id"] = "fea1-\(index)"
            properties["id"] = "2025020523070\(index)_fea1-\(index)"
            features[index]["properties"] = properties
        }
        edit(&features)
        json["features"] = features
        return [UInt8](try JSONSerialization.data(withJSONObject: json))
    }

    static func decode(
        _ body: [UInt8], at point: Coordinate = ottawa, status: Int = 200
    ) throws(WeatherError) -> [Alert] {
        try ECCCAlerts.decode(status: status, body: body, contentType: "application/geo+json", at: point)
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

    @Test func theFixtureAsPublishedHasNoIdsSoNothingIsKept() throws {
        #expect(try Self.decode(Fixtures.bytes(Self.fixture)).isEmpty)
    }

    @Test func withIdsBothAlertsAtOttawa() throws {
        let alerts = try Self.decode(Self.withIDs())
        #expect(alerts.map(\.id) == ["20250205230700", "20250205230701"])
        let advisory = try #require(alerts.first)
        #expect(advisory.event == "Weather Advisory")
        #expect(advisory.level == "advisory" && advisory.severity == .unknown)
        #expect(advisory.source == .eccc && advisory.authority == "Environment and Climate Change Canada")
        #expect(advisory.description == "A weather advisory is in effect for the Ottawa region.")
        #expect(advisory.areaDescription == "Ottawa")
        #expect(advisory.sent == Date(timeIntervalSince1970: 1_738_796_820))  // 2025-02-05T23:07:00Z
        #expect(advisory.expires == Date(timeIntervalSince1970: 1_738_854_420))  // 2025-02-06T15:07:00Z
        #expect(advisory.onset == nil && advisory.headline == nil && advisory.certainty == nil)
        #expect(advisory.language == "en" && advisory.messageType == .alert)  // status_en "active"
        #expect(alerts[1].level == "warning" && alerts[1].event == "Winter Storm Warning")
    }

    @Test func outsideTheAreaNothingInsideAnEdgeOrCornerEverything() throws {
        let body = try Self.withIDs()
        #expect(try Self.decode(body, at: Coordinate(latitude: 46.5, longitude: -75.5)).isEmpty)
        #expect(try Self.decode(body, at: Coordinate(latitude: 45.5, longitude: -75.0)).count == 2)  // east edge
        #expect(try Self.decode(body, at: Coordinate(latitude: 46.0, longitude: -76.0)).count == 2)  // corner
        #expect(try Self.decode(body, at: Coordinate(latitude: 45.5, longitude: -74.999)).isEmpty)
    }

    @Test func featuresOfOneAlertBecomeOneAlertWithTheirAreas() throws {
        // Edited: the advisory's feature copied as a second area of the same alert.
        let body = try Self.withIDs { features in
            var copy = features[0]
            var properties = copy["properties"] as! [String: Any]
            properties["feature_id"] = "fea1-9"
            properties["id"] = "20250205230700_fea1-9"
            properties["feature_name_en"] = "Gatineau"
            copy["properties"] = properties
            features.append(copy)
        }
        let alerts = try Self.decode(body)
        #expect(alerts.map(\.id) == ["20250205230700", "20250205230701"])
        #expect(alerts.first?.areaDescription == "Ottawa; Gatineau")
    }

    @Test func aMultiPolygonContainsThePointInItsSecondPolygon() throws {
        // Edited: the advisory's square as the first polygon of a MultiPolygon whose second
        // polygon (the square moved 2° north) holds the point.
        let body = try Self.withIDs { features in
            var geometry = features[0]["geometry"] as! [String: Any]
            let square = geometry["coordinates"] as! [[[Double]]]
            let moved = square.map { ring in ring.map { [$0[0], $0[1] + 2] } }
            geometry = ["type": "MultiPolygon", "coordinates": [square, moved]]
            features[0]["geometry"] = geometry
        }
        let north = Coordinate(latitude: 47.5, longitude: -75.5)
        #expect(try Self.decode(body, at: north).map(\.event) == ["Weather Advisory"])
    }

    @Test func withoutGeometryOrNameAFeatureIsSkipped() throws {
        let body = try Self.withIDs { features in
            features[0]["geometry"] = NSNull()
            var properties = features[1]["properties"] as! [String: Any]
            properties["alert_name_en"] = nil
            features[1]["properties"] = properties
        }
        #expect(try Self.decode(body).isEmpty)
        let point = try Self.withIDs { features in
            features[0]["geometry"] = ["type": "Point", "coordinates": [-75.69, 45.42]]
        }
        #expect(try Self.decode(point).map(\.level) == ["warning"])
    }

    @Test func statusWordsAsMessageTypes() throws {
        func type(_ status: String) throws -> Alert.MessageType? {
            let body = try Self.withIDs { features in
                var properties = features[0]["properties"] as! [String: Any]
                properties["status_en"] = status
                features[0]["properties"] = properties
            }
            return try Self.decode(body).first?.messageType
        }
        #expect(try type("issued") == .alert)
        #expect(try type("updated") == .update && type("continued") == .update)
        #expect(try type("ended") == .cancel && type("cancelled") == .cancel)
    }

    @Test func htmlAndControlCharactersAreStrippedAndLongTextIsBounded() throws {
        func alert(_ key: String, _ value: String) throws -> Alert? {
            try Self.decode(
                Self.withIDs { features in
                    var properties = features[0]["properties"] as! [String: Any]
                    properties[key] = value
                    features[0]["properties"] = properties
                }
            ).first
        }
        #expect(
            try alert("alert_text_en", "Snow&amp;ice <br/>expected.\r\n\t###")?.description == "Snow&ice expected. ###")
        let long = try alert("alert_text_en", String(repeating: "snow ", count: 5_000))
        #expect(long?.description?.unicodeScalars.count == Alert.Limit.description)
        #expect(try alert("feature_name_en", String(repeating: "x", count: 900))?.areaDescription?.count == 500)
    }

    @Test func errors() throws {
        #expect(throws: WeatherError.http(status: 404, reason: nil, retryAfter: nil)) {
            try Self.decode(Self.withIDs(), status: 404)
        }
        #expect(throws: WeatherError.notJSON(status: 200, bytes: 0, contentType: "application/geo+json")) {
            try Self.decode([])
        }
        #expect(Self.decodingError(Array("null".utf8)) == "body is null, expected an object")
        let badRing = try Self.withIDs { features in
            features[1]["geometry"] = ["type": "Polygon", "coordinates": [[[-76.0, 45.0], [-75.0], [-75.0, 46.0]]]]
        }
        #expect(
            Self.decodingError(badRing)
                == "features[1].geometry.coordinates[0][1] has 1 numbers, expected [longitude, latitude]")
        let badTime = try Self.withIDs { features in
            var properties = features[0]["properties"] as! [String: Any]
            properties["expiration_datetime"] = "tomorrow"
            features[0]["properties"] = properties
        }
        #expect(
            Self.decodingError(badTime)?.hasPrefix("features[0].properties.expiration_datetime is \"tomorrow\"") == true
        )
    }

    @Test func thePathAsksForASmallBoxAroundThePoint() {
        let path = ECCCAlerts.path(around: Coordinate(latitude: 45.42, longitude: -75.69))
        #expect(path == "/collections/weather-alerts/items?f=json&limit=100&bbox=-75.7,45.41,-75.68,45.43")
        let pole = ECCCAlerts.path(around: Coordinate(latitude: 90, longitude: 180))
        #expect(pole.hasSuffix("bbox=179.99,89.99,180,90"))
    }
}
