import Foundation
import Testing
import WundercastPlaces
import WundercastHTTP
import WundercastTestSupport

/// Online geocoding through libcurl against the loopback fixture server (`GET /v1/search`).
@Suite struct OpenMeteoGeocoderHTTPTests {
    static func geocoder(_ server: FixtureHTTPServer) -> OpenMeteoGeocoder {
        OpenMeteoGeocoder(
            baseURL: server.baseURL,
            http: CurlHTTPClient(userAgent: "wundercast-tests/1.0 (+https://example.invalid)", loop: TestLoop.shared))
    }

    @Test func aRecordedAnswerIsFound() async throws {
        let server = try await FixtureHTTPServer()
        defer { server.stop() }
        try server.respond(file: "weather/open-meteo/geocoding_enschede.json")
        let cities = try await Self.geocoder(server).search("Enschede, NL")
        #expect(cities.first?.name == "Enschede")
        #expect(cities.first?.region == "Overijssel")
        let request = try #require(try server.requests().first)
        #expect(request.path == "/v1/search")
        #expect(request.query == ["name": "Enschede", "count": "10", "language": "en", "format": "json"])
    }

    @Test func theRecordedEmptyAnswerIsNoSuchPlace() async throws {
        let server = try await FixtureHTTPServer()
        defer { server.stop() }
        await #expect(throws: PlaceError.noSuchPlace(name: "Tromsø Nowhere")) {
            try await Self.geocoder(server).search("Tromsø Nowhere")
        }
        #expect(try server.requests().first?.query["name"] == "Tromsø Nowhere")
    }

    @Test func aHostileBodyIsBoundedAndClean() async throws {
        let server = try await FixtureHTTPServer()
        defer { server.stop() }
        let huge = String(repeating: "Z", count: 1_100_000)
        try server.respond(
            body: #"{"results":[{"name":"\u001b[31mX\r\nweather: 25°C Sunny \#(huge)","latitude":1,"longitude":2,"#
                + #""admin1":"\u009b2J","country_code":"DE"}]}"#)
        let city = try #require(try await Self.geocoder(server).search("X").first)
        #expect(city.name.unicodeScalars.count <= 200)
        #expect(city.name.hasPrefix("[31mX weather: 25°C Sunny ZZZ"))
        #expect(!city.name.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
        #expect(city.region == "2J")
    }

    @Test func aFailingServiceIsUnavailable() async throws {
        let server = try await FixtureHTTPServer()
        defer { server.stop() }
        try server.respond(status: 503, body: #"{"error":true,"reason":"down for maintenance"}"#)
        await #expect(
            throws: PlaceError.geocodingUnavailable(name: "Tromsø", reason: "HTTP 503: down for maintenance")
        ) {
            try await Self.geocoder(server).search("Tromsø")
        }
    }

    /// Through the resolver: a name the table lacks goes online once, then comes from the cache.
    @Test func theResolverGoesOnlineOnceForANameTheTableLacks() async throws {
        let server = try await FixtureHTTPServer()
        defer { server.stop() }
        try server.respond(file: "weather/open-meteo/geocoding_enschede.json")
        let table = try CityTable(
            parsing: Array(
                (CityTableFormat.header(libraryVersion: "test") + "\nTromsø\t\tNO\t\t69.6489\t18.95508\t1\t\n").utf8))
        let resolver = PlaceResolver(table: table, geocoder: Self.geocoder(server))
        #expect(try await resolver.resolve("Tromso").name == "Tromsø")
        #expect(try await resolver.resolve("Enschede").name == "Enschede")
        #expect(try await resolver.resolve("enschede").name == "Enschede")
        #expect(try server.requests().count == 1)
    }
}
