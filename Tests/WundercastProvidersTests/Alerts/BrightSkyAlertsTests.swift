import Foundation
import Testing
import WundercastModel
import WundercastProviders
import WundercastTestSupport

/// Bright Sky `/alerts` answers: the recorded ones read value by value, the language chosen,
/// then edits of them (labelled), error statuses, bodies that are not JSON or not the shape.
@Suite struct BrightSkyAlertsTests {
    typealias R = AlertRecordings

    static func decode(_ body: [UInt8], status: Int = 200) throws(WeatherError) -> [Alert] {
        try BrightSkyAlerts.decode(status: status, body: body, contentType: "application/json")
    }

    /// The Münster answer with member `key` of its alert set (`nil` removes it).
    static func muenster(_ key: String, _ value: Any?) throws -> [UInt8] {
        try R.entry(R.muenster, list: "alerts", 0, member: nil, key, value)
    }

    @Test func thePathTakesAtMostFourDecimalsWithoutTrailingZeros() {
        #expect(BrightSkyAlerts.path(at: Coordinate(latitude: 52.52, longitude: 13.4)) == "/alerts?lat=52.52&lon=13.4")
        #expect(
            BrightSkyAlerts.path(at: Coordinate(latitude: 49.632270, longitude: 12.056186))
                == "/alerts?lat=49.6323&lon=12.0562")
    }

    @Test func theMuensterAnswerGivesOneMinorWindGustAlertInEnglish() throws {
        let alerts = try Self.decode(Fixtures.bytes(R.muenster))
        try #require(alerts.count == 1)
        let gusts = alerts[0]
        #expect(gusts.id == "2.49.0.0.276.0.DWD.PVW.1691344680000.2cf9fad6-dc83-44ba-9e88-f2827439da59")
        #expect(gusts.source == .brightSky && gusts.authority == "Deutscher Wetterdienst")
        #expect(gusts.event == "wind gusts" && gusts.language == "en")
        #expect(gusts.headline == "Official WARNING of WIND GUSTS")
        #expect(
            gusts.description?.hasPrefix("There is a risk of wind gusts (level 1 of 4). Max. gusts: 50-60 km/h;")
                == true)
        #expect(gusts.instruction == nil, "\"instruction_en\": null")
        #expect(gusts.severity == .minor && gusts.urgency == .immediate && gusts.certainty == .likely)
        #expect(gusts.onset == (try R.utc("2023-08-07T08:00:00Z")))
        #expect(gusts.expires == (try R.utc("2023-08-07T19:00:00Z")))
        #expect(gusts.sent == nil && gusts.level == nil && gusts.link == nil)
        #expect(gusts.messageType == .alert && gusts.references.isEmpty)
        #expect(gusts.areaDescription == "Münster-Nord", "location.name")
    }

    @Test func theWeiherhammerAnswersWithoutStatusAreKept() throws {
        let rain = try Self.decode(Fixtures.bytes(R.rain))
        try #require(rain.count == 1)
        #expect(rain[0].id == "2.49.0.0.276.0.DWD.PVW.1693046460000.3e4c31d9-f407-42f8-bff6-83e020f584c3")
        #expect(rain[0].event == "persistent rain" && rain[0].severity == .moderate)
        #expect(
            rain[0].description == "There is a risk of persistent rain (Level 2 of 4). Precipitation amounts: ~ 60 l/m²"
        )
        #expect(rain[0].onset == (try R.utc("2023-08-26T22:00:00Z")))
        #expect(rain[0].expires == (try R.utc("2023-08-29T16:00:00Z")))
        #expect(rain[0].areaDescription == "Mitgliedsgemeinde in Verwaltungsgemeinschaft Weiherhammer")

        let heat = try Self.decode(Fixtures.bytes(R.heat))
        try #require(heat.count == 1)
        #expect(
            heat[0].event == "strong heat" && heat[0].severity == .minor
                && heat[0].headline == "Official WARNING of STRONG HEAT")
        #expect(
            heat[0].instruction?.hasPrefix("NOTE: be aware that this is an automatically generated product.") == true)
        #expect(heat[0].onset == (try R.utc("2023-08-22T09:00:00Z")))

        #expect(try Self.decode(Fixtures.bytes(R.none)).isEmpty)
    }

    @Test func withoutAnEnglishEventEveryTextIsGermanAndLanguagesAreNeverMixed() throws {
        // Edited: the Münster alert without its English texts.
        let german = try R.edited(R.muenster) { json in
            var alerts = json["alerts"] as! [[String: Any]]
            for key in ["event_en", "headline_en", "description_en", "instruction_en"] { alerts[0][key] = nil }
            json["alerts"] = alerts
        }
        let alert = try #require(try Self.decode(german).first)
        #expect(
            alert.language == "de" && alert.event == "WINDBÖEN" && alert.headline == "Amtliche WARNUNG vor WINDBÖEN")
        #expect(alert.description?.hasPrefix("Es treten Windböen mit Geschwindigkeiten zwischen 50 km/h") == true)
        // Edited: English event but no English description: the German one is not taken.
        let mixed = try #require(try Self.decode(try Self.muenster("description_en", nil)).first)
        #expect(mixed.language == "en" && mixed.description == nil)
        // Edited: no event in either language.
        let noEvent = try R.edited(R.muenster) { json in
            var alerts = json["alerts"] as! [[String: Any]]
            alerts[0]["event_en"] = nil
            alerts[0]["event_de"] = NSNull()
            json["alerts"] = alerts
        }
        #expect(try Self.decode(noEvent).isEmpty)
    }

    @Test func aTestAlertOrOneWithoutIdIsSkippedAndTheOthersKept() throws {
        for (key, value) in [("status", "test"), ("alert_id", nil), ("alert_id", "")] as [(String, Any?)] {
            // Edited: the rain alert added after the changed Münster one.
            let body = try R.edited(R.muenster) { json in
                var alerts = json["alerts"] as! [[String: Any]]
                alerts[0][key] = value
                let rain = try JSONSerialization.jsonObject(with: Data(Fixtures.bytes(R.rain))) as! [String: Any]
                alerts.append((rain["alerts"] as! [[String: Any]])[0])
                json["alerts"] = alerts
            }
            #expect(try Self.decode(body).map(\.event) == ["persistent rain"], "\(key) = \(String(describing: value))")
        }
    }

    @Test func unknownAndMissingValuesAreUnknownOrLeftOut() throws {
        #expect(try Self.decode(try Self.muenster("severity", "red"))[0].severity == .unknown)
        #expect(try Self.decode(try Self.muenster("severity", NSNull()))[0].severity == .unknown)
        #expect(try Self.decode(try Self.muenster("urgency", "soon"))[0].urgency == nil)
        #expect(try Self.decode(try Self.muenster("expires", NSNull()))[0].expires == nil)
        #expect(
            try Self.decode(try Self.muenster("onset", nil))[0].onset == (try R.utc("2023-08-06T17:58:00Z")),
            "effective")
        #expect(try Self.decode(try R.edited(R.muenster) { $0["location"] = nil })[0].areaDescription == nil)
    }

    @Test func errorStatusesAreHTTPErrorsWithBrightSkysReason() throws {
        // Built from Bright Sky's source (brightsky/web/app.py `not_found`: {"detail": str(exc)};
        // brightsky/query.py: "Requested position is not covered by the DWD"), not recorded.
        let notCovered = try JSONSerialization.data(withJSONObject: [
            "detail": "Requested position is not covered by the DWD"
        ])
        #expect(
            R.error { () throws(WeatherError) in try Self.decode([UInt8](notCovered), status: 404) }
                == .http(status: 404, reason: "Requested position is not covered by the DWD", retryAfter: nil))
        let page = Array("<html>502 Bad Gateway</html>".utf8)
        #expect(
            R.error { () throws(WeatherError) in try Self.decode(page, status: 502) }
                == .http(status: 502, reason: nil, retryAfter: nil))
        #expect(
            R.error { () throws(WeatherError) in
                try BrightSkyAlerts.decode(status: 200, body: page, contentType: "text/html")
            }
                == .notJSON(status: 200, bytes: page.count, contentType: "text/html"))
    }

    @Test func wrongShapesAreDecodingErrorsNamingTheMember() throws {
        func message(_ body: [UInt8]) -> String? {
            R.decodingError { () throws(WeatherError) in try Self.decode(body) }
        }
        #expect(message(Array("\"alerts\"".utf8)) == "body is a string, expected an object")
        #expect(message(try R.edited(R.none) { $0["alerts"] = nil }) == "missing member 'alerts'")
        #expect(message(try R.edited(R.none) { $0["alerts"] = ["id": 1] }) == "alerts is an object, expected an array")
        #expect(message(try R.edited(R.none) { $0["alerts"] = [1] }) == "alerts[0] is a number, expected an object")
        #expect(
            message(try R.edited(R.none) { $0["location"] = "Weiherhammer" })
                == "location is a string, expected an object")
        #expect(message(try Self.muenster("onset", 1_691_395_200)) == "alerts[0].onset is a number, expected a string")
        #expect(
            message(try Self.muenster("headline_en", true)) == "alerts[0].headline_en is a boolean, expected a string")
        #expect(message(try Self.muenster("expires", "2023-08-07 19:00"))?.hasPrefix("alerts[0].expires is") == true)
    }

    @Test func htmlAndControlCharactersAreStrippedAndALongTextIsBounded() throws {
        // Edited: the Münster alert's English texts replaced by hostile and absurdly long ones.
        #expect(
            try Self.decode(try Self.muenster("headline_en", R.hostile))[0].headline
                == "Flash flood warning & x [31mred end")
        let long = String(repeating: "Böen ", count: 200_000)
        let alert = try Self.decode(try Self.muenster("description_en", long))[0]
        #expect(
            alert.description?.unicodeScalars.count == Alert.Limit.description
                && alert.description?.hasSuffix("…") == true)
        let instruction = try Self.decode(try Self.muenster("instruction_en", long))[0].instruction
        #expect(instruction?.unicodeScalars.count == Alert.Limit.instruction)
    }
}
