import Foundation
import Testing
import WundercastModel
import WundercastPlaces
import WundercastProtocol
import WundercastFormats
import WundercastTestSupport

/// The city table as `wundercast-cities` writes it from libgeonames (24,361 cities), parsed as
/// the daemon parses it.
@Suite struct RealCityTableTests {
    @Test func holdsEveryCityOfLibgeonames() async throws {
        let file = try await RealCityTable.file()
        let table = try await RealCityTable.table()
        #expect(table.count == 24_361)
        #expect(table.header.hasPrefix("# wundercast cities v1 from libgeonames 0.3.0; data © GeoNames, CC BY 4.0"))
        #expect(file.bytes.split(separator: UInt8(ascii: "\n")).count == 24_362)
    }

    @Test(arguments: [
        (49.02, 12.10, "Regensburg", "Bavaria", "DE", "Europe/Berlin"),
        (52.85, 5.31, "Medemblik", "North Holland", "NL", "Europe/Amsterdam"),
        (37.77, -122.42, "San Francisco", "California", "US", "America/Los_Angeles"),
    ])
    func nearestCity(
        _ latitude: Double, _ longitude: Double, _ name: String, _ region: String, _ country: String, _ zone: String
    ) async throws {
        let table = try await RealCityTable.table()
        let place = try #require(table.place(near: Coordinate(latitude: latitude, longitude: longitude)))
        #expect(place.name == name)
        #expect(place.region == region)
        #expect(place.country == country)
        #expect(place.timeZone == zone)
        #expect(place.distance.map { $0 < 20_000 } == true)
    }

    /// Issue 18, item 7: a reader of rounded positions in central Munich is told "near Munich",
    /// chosen from the rounded position alone, not "4 km N of Unterhaching" (the city nearest
    /// to the rounded position, with a distance from it).
    @Test(arguments: [
        (48.137, 11.575, 1, "Munich"), (48.1372, 11.5756, 2, "Munich"), (52.52, 13.405, 1, "Berlin"),
        (49.02, 12.10, 1, "Regensburg"),
    ])
    func theCellsPlaceForAReaderOfRoundedPositions(
        _ latitude: Double, _ longitude: Double, _ decimals: Int, _ name: String
    ) async throws {
        let table = try await RealCityTable.table()
        let exact = Coordinate(latitude: latitude, longitude: longitude)
        let views = StateViews.make(
            Self.state(at: exact), publicPrecision: decimals, nearest: { table.place(near: $0) },
            inCell: { table.place(inCell: $0, decimals: $1) })
        let shown = try #require(views.public.location)
        #expect(shown.place == table.place(inCell: exact.rounded(toDecimals: decimals), decimals: decimals))
        #expect(shown.place?.name == name)
        #expect(shown.place?.distance == nil && shown.place?.bearing == nil)
        #expect(HumanFormat.line(views.public, now: Self.fetched).contains(", near \(name), "))
        // Precise readers keep the nearest city with its distance.
        #expect(views.precise.location?.place == table.place(near: exact))
        #expect(views.precise.location?.place?.distance != nil)
    }

    /// What the issue saw: the city nearest to central Munich's rounded position is Unterhaching.
    @Test func theCityNearestToTheRoundedPositionIsNotTheCellsPlace() async throws {
        let table = try await RealCityTable.table()
        let cell = Coordinate(latitude: 48.1, longitude: 11.6)
        #expect(table.place(near: cell)?.name == "Unterhaching")
        #expect(table.place(inCell: cell, decimals: 1)?.name == "Munich")
    }

    static let fetched = Date(timeIntervalSince1970: 1_764_583_200)

    static func state(at position: Coordinate) -> WeatherState {
        var state = WeatherState(status: .fresh, provider: "open-meteo", authorization: .authorizedAlways)
        state.location = .init(
            latitude: position.latitude, longitude: position.longitude, mode: 3, source: .gpsd, receivedAt: fetched)
        state.weather = makeWeather(3)
        state.fetchedAt = fetched
        return state
    }

    @Test(arguments: [
        ("Tromsø", "Tromsø", "NO"), ("Tromso", "Tromsø", "NO"), ("São Paulo", "São Paulo", "BR"),
        ("sao paulo", "São Paulo", "BR"), ("Los Angeles, CA", "Los Angeles", "US"),
        ("Los Angeles, Chile", "Los Ángeles", "CL"), ("Los Angeles, CL", "Los Ángeles", "CL"),
    ])
    func namesOnTheMachine(_ query: String, _ name: String, _ country: String) async throws {
        let city = try #require(try await RealCityTable.table().search(query, limit: 3).first)
        #expect(city.name == name)
        #expect(city.country == country)
        if query == "Los Angeles, CA" { #expect(city.region == "California") }
        if query == "Tromso" { #expect(abs(city.coordinate.latitude - 69.6489) < 1e-4) }
    }

    @Test func nonsenseIsNoPlace() async throws {
        #expect(try await RealCityTable.table().search("Xyzzyqq Plonk", limit: 3).isEmpty)
    }

    /// The daemon uses its own search; on these names its best answer is libgeonames' own
    /// (`geonames_query_cities_sync`, which knows no qualifiers: for `Los Angeles, CA` its
    /// answer for `Los Angeles` narrowed to California is compared).
    @Test(arguments: [
        ("Tromsø", "Tromsø", nil as String?), ("Tromso", "Tromso", nil), ("São Paulo", "São Paulo", nil),
        ("sao paulo", "sao paulo", nil), ("Los Angeles", "Los Angeles", nil), ("Regensburg", "Regensburg", nil),
        ("Springfield", "Springfield", nil), ("Paris", "Paris", nil), ("Los Angeles, CA", "Los Angeles", "California"),
        ("Los Angeles, Chile", "Los Angeles", "Chile"),
    ])
    func agreesWithLibgeonames(_ query: String, _ libraryQuery: String, _ narrowedTo: String?) async throws {
        let ours = try #require(try await RealCityTable.table().search(query, limit: 1).first)
        let theirs = try await RealCityTable.libgeonamesQuery(libraryQuery).filter {
            narrowedTo == nil || $0.region == narrowedTo || $0.countryName == narrowedTo
        }
        let first = try #require(theirs.first)
        #expect(ours.name == first.name)
        #expect(ours.coordinate == first.coordinate)
        if query == "Los Angeles" {
            #expect(try await RealCityTable.table().search(query, limit: 3).map(\.name) == theirs.map(\.name))
        }
    }

    /// Every city is found by its own name (a sample of one in 97), also where the folded name
    /// is stored apart from the name (`Tromsø`, `Winston-Salem`).
    @Test func everyNameFindsItsCity() async throws {
        let table = try await RealCityTable.table()
        for index in stride(from: 0, to: table.count, by: 97) {
            let city = table.city(at: index)
            let found = table.search(city.name, limit: 100)
            #expect(found.contains(city), "\(city.name)")
        }
    }

    /// Figures for the record (printed, not asserted in time): load, memory, query time.
    @Test func measurements() async throws {
        let file = try await RealCityTable.file()
        let clock = ContinuousClock()
        var table: CityTable?
        let load = try clock.measure { table = try CityTable(parsing: file.bytes) }
        let loaded = try #require(table)
        let names = ["Tromso", "Los Angeles, CA", "sao paulo", "Xyzzyqq", "Springfield, IL", "Ber"]
        let searches = clock.measure { for name in names { _ = loaded.search(name, limit: 10) } }
        var random = SystemRandomNumberGenerator()
        let positions = (0..<1000).map { _ in
            Coordinate(
                latitude: .random(in: -90...90, using: &random), longitude: .random(in: -180...180, using: &random))
        }
        let nearest = clock.measure {
            for position in positions { _ = loaded.place(near: position) }
        }
        print(
            "city table: \(file.bytes.count) bytes on disk, written in \(file.generationSeconds) s; "
                + "load \(load); holds \(loaded.heldBytes) bytes; search \(searches / names.count) per query; "
                + "place(near:) \(nearest / positions.count) per position (this build)")
        // The daemon's budget for place names is 1 MiB of RSS.
        #expect(loaded.heldBytes < 1_048_576)
    }
}
