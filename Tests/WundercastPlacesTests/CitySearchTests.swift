import Testing
import WundercastPlaces

@Suite struct CitySearchTests {
    static let rows = [
        Row(
            name: "Los Angeles", region: "California", country: "US", countryName: "United States of America",
            latitude: 34.05223, longitude: -118.24368, population: 3_971_883),
        Row(
            name: "Los Ángeles", region: "Biobío", country: "CL", countryName: "Chile", latitude: -37.46973,
            longitude: -72.35366, population: 125_430),
        Row(
            name: "East Los Angeles", region: "California", country: "US", countryName: "United States of America",
            latitude: 34.0239, longitude: -118.17202, population: 126_496),
        Row(name: "Tromsø", region: "Troms og Finnmark", country: "NO", latitude: 69.6489, longitude: 18.95508),
        Row(name: "São Paulo", region: "São Paulo", country: "BR", latitude: -23.5475, longitude: -46.63611),
        Row(
            name: "York", region: "England", country: "GB", latitude: 53.95763, longitude: -1.08271, population: 150_000
        ),
        Row(
            name: "Yorkton", region: "Saskatchewan", country: "CA", latitude: 51.2, longitude: -102.5,
            population: 900_000),
        Row(
            name: "New York City", region: "New York", country: "US", latitude: 40.71, longitude: -74.0,
            population: 8_000_000),
        Row(
            name: "Springfield", region: "Missouri", country: "US", latitude: 37.2, longitude: -93.3,
            population: 166_810),
        Row(
            name: "Springfield", region: "Illinois", country: "US", latitude: 39.8, longitude: -89.6,
            population: 116_565),
        Row(
            name: "Springfield", region: "Massachusetts", country: "US", latitude: 42.1, longitude: -72.6,
            population: 154_341),
        Row(name: "Portland", region: "Oregon", country: "US", latitude: 45.5, longitude: -122.7, population: 650_000),
        Row(
            name: "Portland", region: "State of Maine", country: "US", latitude: 43.7, longitude: -70.3,
            population: 66_000),
        Row(name: "Milton", region: "California", country: "US", latitude: 38, longitude: -121, population: 16_000),
        Row(
            name: "Milton", region: "Ontario", country: "CA", countryName: "Canada", latitude: 43.5, longitude: -79.9,
            population: 110_000),
        Row(name: "Burgdorf, Hanover", region: "Lower Saxony", country: "DE", latitude: 52.45, longitude: 10.0),
        Row(name: "Winston-Salem", region: "North Carolina", country: "US", latitude: 36.1, longitude: -80.2),
    ]

    @Test(arguments: [
        ("Tromsø", "Tromsø"), ("Tromso", "Tromsø"), ("TROMSO", "Tromsø"), ("sao paulo", "São Paulo"),
        ("São Paulo", "São Paulo"), ("winston salem", "Winston-Salem"), ("Burgdorf, Hanover", "Burgdorf, Hanover"),
    ])
    func foldedNamesMatch(_ query: String, _ name: String) throws {
        #expect(try cityTable(Self.rows).search(query, limit: 5).first?.name == name)
    }

    @Test func exactBeforePrefixBeforeLaterWord() throws {
        let table = try cityTable(Self.rows)
        // Yorkton and New York City are more populous, but York is the name itself.
        #expect(names(table.search("york", limit: 5)) == ["York", "Yorkton", "New York City"])
        #expect(names(table.search("Los Angeles", limit: 5)) == ["Los Angeles", "Los Ángeles", "East Los Angeles"])
    }

    @Test func otherwiseTheMostPopulousFirst() throws {
        let table = try cityTable(Self.rows)
        #expect(table.search("Springfield", limit: 5).map(\.region) == ["Missouri", "Massachusetts", "Illinois"])
        #expect(table.search("Springfield", limit: 2).map(\.region) == ["Missouri", "Massachusetts"])
    }

    @Test(arguments: [
        ("Los Angeles, CA", "California"), ("Los Angeles, California", "California"), ("Los Angeles, Chile", "Biobío"),
        ("Los Angeles, CL", "Biobío"), ("los angeles, biobio", "Biobío"), ("Los Angeles,chile", "Biobío"),
        ("Portland, ME", "State of Maine"), ("Portland, Maine", "State of Maine"), ("Portland, OR", "Oregon"),
        ("Springfield, IL, US", "Illinois"), ("Springfield, IL, USA", "Illinois"),
        // A region before a country code: CA is California before Canada, though Milton, Ontario is larger.
        ("Milton, CA", "California"), ("Milton", "Ontario"), ("Milton, Canada", "Ontario"), ("Milton, ON", "Ontario"),
    ])
    func qualifiersNarrowTheChoice(_ query: String, _ region: String) throws {
        #expect(try cityTable(Self.rows).search(query, limit: 5).first?.region == region)
    }

    @Test func aQualifierThatMatchesNothingFindsNothing() throws {
        let table = try cityTable(Self.rows)
        #expect(table.search("Los Angeles, Narnia", limit: 5).isEmpty)
        #expect(table.search("Los Angeles, FR", limit: 5).isEmpty)
        #expect(names(table.search("Los Angeles, CA", limit: 5)) == ["Los Angeles", "East Los Angeles"])
    }

    @Test func nothingForNonsenseOrEmptyQueries() throws {
        let table = try cityTable(Self.rows)
        #expect(table.search("Xyzzyqq", limit: 5).isEmpty)
        #expect(table.search("", limit: 5).isEmpty)
        #expect(table.search(" - ", limit: 5).isEmpty)
        #expect(table.search("York", limit: 0).isEmpty)
    }
}
