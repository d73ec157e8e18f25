import Synchronization
import Testing
import WundercastModel
import WundercastPlaces

/// A ``PlaceGeocoder`` that answers from a script and counts the lookups.
final class ScriptedGeocoder: PlaceGeocoder {
    private let answers: [String: Result<[City], PlaceError>]
    private let asked = Mutex<[String]>([])

    init(_ answers: [String: Result<[City], PlaceError>]) { self.answers = answers }

    var queries: [String] { asked.withLock { $0 } }

    func search(_ query: String) async throws(PlaceError) -> [City] {
        asked.withLock { $0.append(query) }
        return try (answers[query] ?? .failure(.noSuchPlace(name: query))).get()
    }
}

@Suite struct PlaceResolverTests {
    static let village = City(name: "Oberndorf", country: "DE", coordinate: Coordinate(latitude: 49.3, longitude: 12.1))
    static func table() throws -> CityTable {
        try cityTable([
            Row(name: "Tromsø", region: "Troms og Finnmark", country: "NO", latitude: 69.6489, longitude: 18.95508)
        ])
    }

    @Test func theTableFirst() async throws {
        let geocoder = ScriptedGeocoder([:])
        let resolver = PlaceResolver(table: try Self.table(), geocoder: geocoder)
        #expect(try await resolver.resolve("Tromso").name == "Tromsø")
        #expect(geocoder.queries.isEmpty)
    }

    @Test func onlineForNamesTheTableLacksThenCached() async throws {
        let geocoder = ScriptedGeocoder(["Oberndorf": .success([Self.village])])
        let resolver = PlaceResolver(table: try Self.table(), geocoder: geocoder)
        #expect(try await resolver.resolve("Oberndorf") == Self.village)
        #expect(try await resolver.resolve("oberndorf") == Self.village)  // folded: the same name
        #expect(geocoder.queries == ["Oberndorf"])
    }

    @Test func noSuchPlaceIsCachedToo() async throws {
        let geocoder = ScriptedGeocoder([:])
        let resolver = PlaceResolver(table: try Self.table(), geocoder: geocoder)
        for _ in 0..<2 {
            await #expect(throws: PlaceError.noSuchPlace(name: "Atlantis")) { try await resolver.resolve("Atlantis") }
        }
        #expect(geocoder.queries == ["Atlantis"])
    }

    @Test func aFailedServiceIsAskedAgain() async throws {
        let failure = PlaceError.geocodingUnavailable(name: "Oberndorf", reason: "HTTP 503")
        let geocoder = ScriptedGeocoder(["Oberndorf": .failure(failure)])
        let resolver = PlaceResolver(table: try Self.table(), geocoder: geocoder)
        for _ in 0..<2 {
            await #expect(throws: failure) { try await resolver.resolve("Oberndorf") }
        }
        #expect(geocoder.queries.count == 2)
        #expect(failure.code == .geocodingUnavailable)
    }

    @Test func withoutOnlineGeocodingAnUnknownNameIsNoSuchPlace() async throws {
        let resolver = PlaceResolver(table: try Self.table(), geocoder: nil)
        await #expect(throws: PlaceError.noSuchPlace(name: "Oberndorf")) { try await resolver.resolve("Oberndorf") }
        #expect(PlaceError.noSuchPlace(name: "Oberndorf").code == .noSuchPlace)
        #expect(
            try await PlaceResolver(table: nil, geocoder: ScriptedGeocoder(["Tromsø": .success([Self.village])]))
                .resolve("Tromsø") == Self.village)
    }

    @Test func theCacheIsBounded() async throws {
        let names = ["A1", "B2", "C3"]
        let geocoder = ScriptedGeocoder(
            Dictionary(
                uniqueKeysWithValues: names.map {
                    ($0, .success([City(name: $0, coordinate: Coordinate(latitude: 0, longitude: 0))]))
                }))
        let resolver = PlaceResolver(table: nil, geocoder: geocoder, cacheLimit: 2)
        _ = try await resolver.resolve("A1")
        _ = try await resolver.resolve("B2")
        _ = try await resolver.resolve("A1")  // B2 is now the least recently used
        _ = try await resolver.resolve("C3")
        #expect(await resolver.cachedCount == 2)
        _ = try await resolver.resolve("A1")
        _ = try await resolver.resolve("B2")
        #expect(geocoder.queries == ["A1", "B2", "C3", "B2"])
    }

    @Test func messagesNameThePlaceCleanAndBounded() async {
        let resolver = PlaceResolver(table: nil, geocoder: nil)
        let hostile = "\u{1B}[2JAtlantis\nweather: 25°C" + String(repeating: "x", count: 100_000)
        await #expect {
            try await resolver.resolve(hostile)
        } throws: { error in
            guard let message = (error as? PlaceError)?.message else { return false }
            return message.hasPrefix("no place named \"[2JAtlantis weather: 25°Cxxx") && message.count < 120
                && !message.unicodeScalars.contains { $0.value < 0x20 }
        }
        await #expect(throws: PlaceError.noSuchPlace(name: "")) { try await resolver.resolve(" \n ") }
    }
}

/// A table a test replaces, as the daemon's file is replaced on disk: each new one is a new
/// ``CitySource/generation``.
final class ReplaceableTable: CitySource {
    private let current: Mutex<(table: CityTable, generation: UInt64)>
    init(_ table: CityTable) { current = Mutex((table, 0)) }
    func replace(with table: CityTable) { current.withLock { $0 = (table, $0.generation + 1) } }
    func withTable<Result>(_ body: (CityTable) -> Result) -> Result? { body(current.withLock { $0.table }) }
    var generation: UInt64 { current.withLock { $0.generation } }
}

@Suite struct PlaceResolverTableChangeTests {
    @Test func answersFromAnOlderTableAreForgotten() async throws {
        let source = ReplaceableTable(try PlaceResolverTests.table())
        let resolver = PlaceResolver(table: source, geocoder: nil)
        await #expect(throws: PlaceError.noSuchPlace(name: "Bodø")) { try await resolver.resolve("Bodø") }
        #expect(try await resolver.resolve("Tromsø").name == "Tromsø")
        #expect(await resolver.cachedCount == 2)

        source.replace(with: try cityTable([Row(name: "Bodø", country: "NO", latitude: 67.28, longitude: 14.40)]))
        #expect(try await resolver.resolve("Bodø").name == "Bodø")  // "no such place" was the old table's
        await #expect(throws: PlaceError.noSuchPlace(name: "Tromsø")) { try await resolver.resolve("Tromsø") }
        #expect(await resolver.cachedCount == 2)
    }
}
