import Foundation
import Testing
import WundercastSupport
import WundercastModel
import WundercastProviders
import WundercastPlaces
import WundercastTestSupport

@Suite struct OpenMeteoGeocoderTests {
    static func ok(_ body: String) -> FakeHTTPClient {
        FakeHTTPClient(response: HTTPResponse(status: 200, headers: [:], body: Array(body.utf8)))
    }

    static let losAngeles = """
        {"results":[
         {"name":"Los Angeles","latitude":34.05223,"longitude":-118.24368,"country_code":"US","admin1":"California",
          "timezone":"America/Los_Angeles","population":3971883,"country":"United States"},
         {"name":"Los Ángeles","latitude":-37.46973,"longitude":-72.35366,"country_code":"CL","admin1":"Biobío",
          "timezone":"America/Santiago","population":125430,"country":"Chile"}]}
        """

    @Test func asksForTheNameBeforeTheCommaPercentEncoded() async throws {
        let http = Self.ok(Self.losAngeles)
        let geocoder = OpenMeteoGeocoder(baseURL: "http://127.0.0.1:9/", http: http)
        _ = try? await geocoder.search("São Paulo & Co, BR")
        #expect(
            http.requests.map(\.url)
                == ["http://127.0.0.1:9/v1/search?name=S%C3%A3o%20Paulo%20%26%20Co&count=10&language=en&format=json"])
    }

    @Test func decodesEveryMemberOfTheRecordedAnswer() throws {
        let cities = try OpenMeteoGeocoder.decode(
            status: 200, body: try Fixtures.bytes("weather/open-meteo/geocoding_enschede.json"), query: "Enschede")
        #expect(
            cities.first
                == City(
                    name: "Enschede", region: "Overijssel", country: "NL", countryName: "The Netherlands",
                    timeZone: "Europe/Amsterdam", coordinate: Coordinate(latitude: 52.21833, longitude: 6.89583),
                    population: 153655))
        #expect(cities.count == 2)
        #expect(cities[1].population == 0)  // the airport has none
    }

    @Test func noResultsMeansNoSuchPlace() throws {
        #expect(throws: PlaceError.noSuchPlace(name: "Atlantis")) {
            try OpenMeteoGeocoder.decode(
                status: 200, body: try Fixtures.bytes("weather/open-meteo/geocoding_no_results.json"), query: "Atlantis"
            )
        }
        #expect(throws: PlaceError.noSuchPlace(name: "Atlantis")) {
            try OpenMeteoGeocoder.decode(status: 200, body: Array(#"{"results":[]}"#.utf8), query: "Atlantis")
        }
    }

    @Test(arguments: [
        ("Los Angeles, Chile", "CL"), ("Los Angeles, CA", "US"), ("Los Angeles", "US"), ("Los Angeles, CL", "CL"),
    ])
    func qualifiersApply(_ query: String, _ country: String) throws {
        let cities = try OpenMeteoGeocoder.decode(status: 200, body: Array(Self.losAngeles.utf8), query: query)
        #expect(cities.first?.country == country)
    }

    @Test func aQualifierMatchingNoResultIsNoSuchPlace() {
        #expect(throws: PlaceError.noSuchPlace(name: "Los Angeles, Peru")) {
            try OpenMeteoGeocoder.decode(status: 200, body: Array(Self.losAngeles.utf8), query: "Los Angeles, Peru")
        }
    }

    @Test func hostileTextIsBoundedAndClean() throws {
        let huge = String(repeating: "A", count: 1_100_000)
        let body = """
            {"results":[{"name":"\\u001b[31mEvil\\nweather: 25°C Sunny \(huge)","latitude":1,"longitude":2,
             "admin1":"\\r\\nX","country_code":"<script>","timezone":"Europe/\\u0007Bell","population":"many"},
             {"name":"No coordinates"},{"name":"Off the globe","latitude":91,"longitude":0}]}
            """
        let cities = try OpenMeteoGeocoder.decode(status: 200, body: Array(body.utf8), query: "Evil")
        #expect(cities.count == 1)
        let city = try #require(cities.first)
        #expect(city.name.unicodeScalars.count <= UntrustedText.defaultLimit)
        #expect(city.name.hasPrefix("[31mEvil weather: 25°C Sunny AAA"))
        #expect(city.name.hasSuffix("…"))
        for text in [city.name, city.region ?? "", city.timeZone ?? ""] {
            #expect(!text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F })
        }
        #expect(city.region == "X")
        #expect(city.country == nil)
        #expect(city.population == 0)
    }

    @Test(arguments: [
        (500, #"{"error":true,"reason":"Boom\u001b[2J"}"#, "cannot look up \"Evil\" online: HTTP 500: Boom [2J"),
        (
            200, #"{"error":true,"reason":"Parameter count must be between 1 and 100."}"#,
            "cannot look up \"Evil\" online: HTTP 200: Parameter count must be between 1 and 100."
        ),
        (502, "<html>bad gateway</html>", "cannot look up \"Evil\" online: HTTP 502"),
        (200, "<html>", "cannot look up \"Evil\" online: bad response body: not the geocoding JSON (6 bytes)"),
    ])
    func serviceFailuresAreUnavailable(_ status: Int, _ body: String, _ message: String) {
        #expect {
            try OpenMeteoGeocoder.decode(status: status, body: Array(body.utf8), query: "Evil")
        } throws: { error in
            let error = error as? PlaceError
            return error?.code == .geocodingUnavailable && error?.message == message
        }
    }

    @Test func transportFailureIsUnavailable() async {
        let geocoder = OpenMeteoGeocoder(
            baseURL: "http://127.0.0.1:9",
            http: FakeHTTPClient(error: .transport(code: 7, message: "Couldn't connect to server")))
        await #expect(
            throws: PlaceError.geocodingUnavailable(
                name: "Tromsø", reason: "cannot connect to the provider (curl 7): Couldn't connect to server")
        ) {
            try await geocoder.search("Tromsø")
        }
    }
}
