import Testing
import WundercastModel
import WundercastPlaces

/// A name several places share (issue 18, item 7): the best place, and the others of that
/// name that the query matches as well.
@Suite struct PlaceMatchTests {
    func regions(_ cities: [City]) -> [String?] { cities.map(\.region) }

    @Test func theOthersOfTheSameWholeNameMostPopulousFirst() throws {
        let table = try cityTable(CitySearchTests.rows)
        let springfield = try #require(table.match("Springfield", alternatives: 5))
        #expect(springfield.city.region == "Missouri")
        #expect(regions(springfield.alternatives) == ["Massachusetts", "Illinois"])
        #expect(regions(try #require(table.match("springfield", alternatives: 1)).alternatives) == ["Massachusetts"])
        #expect(try #require(table.match("Springfield", alternatives: 0)).alternatives.isEmpty)
        // A region names one; a country code they all match.
        let illinois = try #require(table.match("Springfield, IL", alternatives: 5))
        #expect(illinois.city.region == "Illinois" && illinois.alternatives.isEmpty)
        #expect(regions(try #require(table.match("Springfield, US", alternatives: 5)).alternatives).count == 2)
        // A region before a country code: CA is California; Canada's Milton is another place of the name.
        let milton = try #require(table.match("Milton, CA", alternatives: 5))
        #expect(milton.city.region == "California" && regions(milton.alternatives) == ["Ontario"])
    }

    /// Only places of the whole name: a name that begins others (`York`: Yorkton, New York
    /// City) or a partial name is not ambiguous.
    @Test func anotherNameIsNoAlternative() throws {
        let table = try cityTable(CitySearchTests.rows)
        #expect(try #require(table.match("York", alternatives: 5)).alternatives.isEmpty)
        let partial = try #require(table.match("Springf", alternatives: 5))
        #expect(partial.city.name == "Springfield" && partial.alternatives.isEmpty)
        #expect(table.match("Xyzzyqq", alternatives: 5) == nil)
    }

    @Test func theResolverKeepsThemAndOnlineResultsOfTheSameName() async throws {
        let table = try cityTable(CitySearchTests.rows)
        let resolver = PlaceResolver(table: table, geocoder: nil)
        let found = try await resolver.match("Springfield")
        #expect(found.city.region == "Missouri" && regions(found.alternatives) == ["Massachusetts", "Illinois"])
        #expect(try await resolver.resolve("Springfield").region == "Missouri")
        #expect(try await resolver.match("Springfield") == found, "cached with them")

        let village = { (region: String) in
            City(name: "Oberndorf", region: region, country: "DE", coordinate: Coordinate(latitude: 49, longitude: 12))
        }
        let other = City(name: "Oberndorf am Neckar", country: "DE", coordinate: Coordinate(latitude: 48, longitude: 8))
        let online = PlaceResolver(
            table: try cityTable([]),
            geocoder: ScriptedGeocoder(["Oberndorf": .success([village("Bavaria"), other, village("Tyrol")])]))
        let oberndorf = try await online.match("Oberndorf")
        #expect(oberndorf.city.region == "Bavaria")
        #expect(regions(oberndorf.alternatives) == ["Tyrol"])
    }

    @Test func asAStatesAlternatives() {
        let city = City(
            name: "Springfield", region: "Illinois", country: "US",
            coordinate: Coordinate(latitude: 39.80172, longitude: -89.64371),
            population: 116_565)
        #expect(
            city.alternative
                == WeatherState.Alternative(
                    name: "Springfield", region: "Illinois", country: "US", latitude: 39.80172, longitude: -89.64371,
                    population: 116_565))
        #expect(City(name: "X", coordinate: Coordinate(latitude: 1, longitude: 2)).alternative.population == nil)
        #expect(PlaceMatch(city: city).alternatives.isEmpty)
        #expect(PlaceMatch(city: city, alternatives: Array(repeating: city, count: 12)).alternatives.count == 10)
        #expect(city.alternative.query == "Springfield, Illinois")
        #expect(WeatherState.Alternative(name: "Paris", country: "FR", latitude: 0, longitude: 0).query == "Paris, FR")
        #expect(WeatherState.Alternative(name: "Nowhere", latitude: 0, longitude: 0).query == "Nowhere")
    }
}
