import Foundation
import Testing
import WundercastModel
import WundercastProviders
import WundercastTestSupport

/// NWS `/alerts/active` answers: the recorded ones read value by value, then edits of them
/// (labelled), the problem JSON, bodies that are not JSON or not the documented shape.
@Suite struct NWSAlertsTests {
    typealias R = AlertRecordings

    static func decode(_ body: [UInt8], status: Int = 200) throws(WeatherError) -> [Alert] {
        try NWSAlerts.decode(status: status, body: body, contentType: "application/geo+json")
    }

    /// The Phoenix answer with member `key` of feature `index`'s `properties` set (`nil` removes it).
    static func phoenix(_ index: Int, _ key: String, _ value: Any?) throws -> [UInt8] {
        try R.entry(R.phoenix, list: "features", index, member: "properties", key, value)
    }

    @Test func thePathTakesAtMostFourDecimalsWithoutTrailingZeros() {
        #expect(
            NWSAlerts.path(at: Coordinate(latitude: 39.7456, longitude: -97.0892))
                == "/alerts/active?point=39.7456,-97.0892")
        #expect(
            NWSAlerts.path(at: Coordinate(latitude: 33.25, longitude: -112.3)) == "/alerts/active?point=33.25,-112.3")
        #expect(
            NWSAlerts.path(at: Coordinate(latitude: 40.123456, longitude: -74.000049))
                == "/alerts/active?point=40.1235,-74")
    }

    @Test func thePhoenixPointAnswerGivesAnUpdateAndAnAlertOfUnknownSeverity() throws {
        let alerts = try Self.decode(Fixtures.bytes(R.phoenix))
        try #require(alerts.count == 2)
        let heat = alerts[0]
        #expect(heat.id == "urn:oid:2.49.0.1.840.0.505a7220d91b00eb1d75a3fb4f339f825496a522.004.1")
        #expect(heat.source == .nws && heat.authority == "NWS Phoenix AZ")
        #expect(heat.event == "Excessive Heat Warning")
        #expect(heat.severity == .severe && heat.urgency == .expected && heat.certainty == .likely)
        #expect(heat.messageType == .update)
        #expect(heat.references == ["urn:oid:2.49.0.1.840.0.2852349b8f25500975c692db29cb2f047ff20a7c.004.2"])
        #expect(heat.sent == (try R.utc("2024-07-18T19:47:00Z")))  // 12:47 MST
        #expect(heat.onset == (try R.utc("2024-07-19T17:00:00Z")))
        // As recorded: this message expires (03:00 MST) before its hazard begins (10:00 MST).
        #expect(heat.expires == (try R.utc("2024-07-19T10:00:00Z")))
        #expect(
            heat.headline
                == "Excessive Heat Warning issued July 18 at 12:47PM MST until July 20 at 8:00PM MST by NWS Phoenix AZ")
        #expect(
            heat.description?.hasPrefix("* WHAT...Dangerously hot conditions. Afternoon temperatures 112 to 116")
                == true)
        #expect(
            heat.description?.hasSuffix(
                "call 2-1-1 to find a free cooling center, transportation, water, and more. https://www.maricopa.gov/heat"
            ) == true)
        #expect(
            heat.instruction?.hasPrefix("An Excessive Heat Warning means that a period of very hot temperatures")
                == true)
        #expect(heat.areaDescription?.hasPrefix("Northwest Valley; Buckeye/Avondale; Deer Valley;") == true)
        #expect(heat.link == nil && heat.language == nil && heat.level == nil, "not in this answer")

        let air = alerts[1]
        #expect(air.id == "urn:oid:2.49.0.1.840.0.32b8fe5b1e8094248fdbb7a32619581ec4e1df14.001.1")
        #expect(air.event == "Air Quality Alert" && air.areaDescription == "Maricopa, AZ")
        #expect(air.severity == .unknown && air.urgency == .unknown && air.certainty == .unknown)
        #expect(air.messageType == .alert && air.references.isEmpty)
        #expect(air.onset == (try R.utc("2024-07-18T15:13:00Z")))
        #expect(air.expires == (try R.utc("2024-07-20T04:00:00Z")))
        #expect(air.instruction == nil, "\"instruction\": null")
        #expect(air.description?.hasPrefix("AQAPSR The Arizona Department of Environmental Quality") == true)
    }

    @Test func thePortlandAnswerNamesTheFourMessagesItUpdates() throws {
        let alerts = try Self.decode(Fixtures.bytes(R.portland))
        try #require(alerts.count == 1)
        let watch = alerts[0]
        #expect(watch.id == "NWS-IDP-PROD-3965873-3369046" && watch.event == "Flood Watch")
        #expect(watch.authority == "NWS Portland OR" && watch.messageType == .update)
        #expect(
            watch.references == [
                "NWS-IDP-PROD-3964821-3368352", "NWS-IDP-PROD-3965324-3368680", "NWS-IDP-PROD-3965155-3368578",
                "NWS-IDP-PROD-3963421-3367361",
            ])
        #expect(watch.severity == .severe && watch.certainty == .possible && watch.urgency == .future)
        #expect(watch.onset == (try R.utc("2019-12-20T21:34:00Z")))  // 13:34 PST
        #expect(watch.expires == (try R.utc("2019-12-21T13:30:00Z")))
    }

    @Test func noFeatureIsNoAlert() throws {
        // Edited: the Phoenix answer with `features` emptied (no recorded empty answer was found).
        let empty = try R.edited(R.phoenix) { $0["features"] = [Any]() }
        #expect(try Self.decode(empty).isEmpty)
    }

    @Test func aProblemIsAnHTTPErrorWithItsDetailOrUnderSuccessAnErrorBody() throws {
        let problem = try Fixtures.bytes(R.problem)
        #expect(
            R.error { () throws(WeatherError) in try Self.decode(problem, status: 500) }
                == .http(status: 500, reason: "An unexpected problem has occurred.", retryAfter: nil))
        #expect(
            R.error { () throws(WeatherError) in try Self.decode(problem, status: 200) }
                == .errorBody(
                    status: 200, providerCode: "https://api.weather.gov/problems/UnexpectedProblem",
                    reason: "An unexpected problem has occurred."))
        // Edited: without `detail` the `title` is the reason.
        let titled = try R.edited(R.problem) { $0["detail"] = nil }
        #expect(
            R.error { () throws(WeatherError) in try Self.decode(titled, status: 503) }
                == .http(status: 503, reason: "Unexpected Problem", retryAfter: nil))
    }

    @Test func aBodyThatIsNotJSONIsNotJSONUnderSuccessAndAnHTTPErrorOtherwise() {
        let page = Array("<html><body>Service Unavailable</body></html>".utf8)
        let decoded = R.error { () throws(WeatherError) in
            try NWSAlerts.decode(status: 200, body: page, contentType: "text/html")
        }
        #expect(decoded == .notJSON(status: 200, bytes: page.count, contentType: "text/html"))
        #expect(
            R.error { () throws(WeatherError) in try Self.decode(page, status: 503) }
                == .http(status: 503, reason: nil, retryAfter: nil))
    }

    @Test func wrongShapesAreDecodingErrorsNamingTheMember() throws {
        func message(_ body: [UInt8]) -> String? {
            R.decodingError { () throws(WeatherError) in try Self.decode(body) }
        }
        #expect(message(Array("[]".utf8)) == "body is an array, expected an object")
        #expect(
            message(try R.edited(R.phoenix) { $0["features"] = ["a": 1] }) == "features is an object, expected an array"
        )
        #expect(message(try R.edited(R.phoenix) { $0["features"] = nil }) == "missing member 'features'")
        #expect(
            message(try R.edited(R.phoenix) { $0["features"] = ["alert"] })
                == "features[0] is a string, expected an object")
        #expect(
            message(try Self.phoenix(1, "expires", 1_721_444_400))
                == "features[1].properties.expires is a number, expected a string")
        #expect(
            message(try Self.phoenix(0, "references", "none"))
                == "features[0].properties.references is a string, expected an array")
        #expect(
            message(try Self.phoenix(0, "event", ["Heat"]))
                == "features[0].properties.event is an array, expected a string")
        #expect(
            message(try Self.phoenix(0, "onset", "2024-07-19T10:00:00"))?.hasPrefix(
                "features[0].properties.onset is \"2024-07-19T10:00:00\"") == true, "no offset")
        #expect(
            message(try Self.phoenix(0, "sent", "tomorrow"))?.hasPrefix("features[0].properties.sent is \"tomorrow\"")
                == true)
    }

    @Test func anAlertWithoutIdOrEventOrNotActualOrNotAMessageTypeIsSkippedAndTheOthersKept() throws {
        for (key, value) in [("id", nil), ("event", nil), ("event", "  "), ("status", "Test"), ("messageType", "Ack")]
            as [(String, Any?)]
        {
            let alerts = try Self.decode(try Self.phoenix(0, key, value))
            #expect(alerts.map(\.event) == ["Air Quality Alert"], "\(key) = \(String(describing: value))")
        }
        let withoutProperties = try R.edited(R.phoenix) { json in
            var features = json["features"] as! [[String: Any]]
            features[0]["properties"] = nil
            json["features"] = features
        }
        #expect(try Self.decode(withoutProperties).map(\.event) == ["Air Quality Alert"])
        let cancel = try Self.decode(try Self.phoenix(0, "messageType", "Cancel"))
        #expect(cancel.first?.messageType == .cancel)
    }

    @Test func unknownValuesAreUnknownOrLeftOutAndMissingOnesAreNotInvented() throws {
        #expect(try Self.decode(try Self.phoenix(0, "severity", "Catastrophic"))[0].severity == .unknown)
        #expect(try Self.decode(try Self.phoenix(0, "severity", nil))[0].severity == .unknown)
        #expect(try Self.decode(try Self.phoenix(0, "urgency", "Soon"))[0].urgency == nil)
        #expect(try Self.decode(try Self.phoenix(0, "certainty", "Very Likely"))[0].certainty == .likely)
        // Edited: without `onset` the hazard begins at `effective` (12:47 MST the day before).
        #expect(try Self.decode(try Self.phoenix(0, "onset", nil))[0].onset == (try R.utc("2024-07-18T19:47:00Z")))
        let bare = try R.edited(R.phoenix) { json in
            var features = json["features"] as! [[String: Any]]
            var properties = features[1]["properties"] as! [String: Any]
            for key in [
                "senderName", "sent", "onset", "effective", "expires", "headline", "description", "areaDesc",
                "messageType", "references",
            ] {
                properties[key] = nil
            }
            features[1]["properties"] = properties
            json["features"] = features
        }
        let air = try Self.decode(bare)[1]
        #expect(air.authority == "National Weather Service" && air.messageType == .alert && air.references.isEmpty)
        #expect(air.sent == nil && air.onset == nil && air.expires == nil)
        #expect(air.headline == nil && air.description == nil && air.areaDescription == nil)
    }

    @Test func webAndLanguageAreTakenWhenSentAndOnlyAWebURLIsALink() throws {
        let sent = try Self.decode(
            try R.edited(R.phoenix) { json in
                var features = json["features"] as! [[String: Any]]
                var properties = features[0]["properties"] as! [String: Any]
                properties["web"] = "http://www.weather.gov"
                properties["language"] = "en-US"
                features[0]["properties"] = properties
                json["features"] = features
            })[0]
        #expect(sent.link == "http://www.weather.gov" && sent.language == "en-US")
        #expect(try Self.decode(try Self.phoenix(0, "web", "javascript:alert(1)"))[0].link == nil)
        #expect(try Self.decode(try Self.phoenix(0, "web", "https://x.test/a b"))[0].link == nil)
    }

    @Test func offsetsZAndFractionsGiveTheSameInstant() throws {
        let expected = try R.utc("2024-07-19T10:00:00Z")
        for text in [
            "2024-07-19T03:00:00-07:00", "2024-07-19T10:00:00Z", "2024-07-19T10:00:00+00:00",
            "2024-07-19T03:00:00-0700", "2024-07-19T12:00+02:00",
        ] {
            #expect(try Self.decode(try Self.phoenix(0, "expires", text))[0].expires == expected, "\(text)")
        }
        let fraction = try Self.decode(try Self.phoenix(0, "expires", "2024-07-19T10:00:00.250Z"))[0].expires
        #expect(fraction == expected.addingTimeInterval(0.25))
        for text in ["2024-02-30T10:00:00Z", "2024-07-19T24:00:00Z", "2024-07-19T10:00:00+19:00", "2024-07-19"] {
            #expect(
                R.decodingError { () throws(WeatherError) in try Self.decode(try! Self.phoenix(0, "expires", text)) }
                    != nil, "\(text)")
        }
    }

    @Test func htmlAndControlCharactersAreStrippedAndALongTextIsBounded() throws {
        // Edited: the heat warning's texts replaced by hostile and by absurdly long ones.
        let hostile = try Self.decode(try Self.phoenix(0, "headline", R.hostile))[0]
        #expect(hostile.headline == "Flash flood warning & x [31mred end")
        let long = String(repeating: "HEAT ", count: 200_000)  // a megabyte
        let bounded = try Self.decode(try Self.phoenix(0, "description", long))[0]
        #expect(bounded.description?.unicodeScalars.count == Alert.Limit.description)
        #expect(bounded.description?.hasSuffix("…") == true)
        let area = try Self.decode(try Self.phoenix(0, "areaDesc", long))[0].areaDescription
        #expect(area?.unicodeScalars.count == Alert.Limit.areaDescription)
        let id = try Self.decode(try Self.phoenix(0, "id", "urn:\u{1B}]0;pwned\u{7}" + long))[0].id
        #expect(id.unicodeScalars.count <= Alert.Limit.id && !id.unicodeScalars.contains { $0.value < 0x20 })
    }
}
