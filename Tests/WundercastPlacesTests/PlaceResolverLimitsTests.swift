import Synchronization
import Testing
import WundercastModel
import WundercastPlaces

/// A table whose file cannot be read now.
struct UnreadableTable: CitySource {
    func withTable<Result>(_ body: (CityTable) -> Result) -> Result? { nil }
}

/// A geocoder whose every search waits until the test lets it go, recording how many run at once.
final class GatedGeocoder: PlaceGeocoder {
    private let state = Mutex<(running: Int, most: Int, gates: [CheckedContinuation<Void, Never>])>((0, 0, []))
    let entered: AsyncStream<String>
    private let enter: AsyncStream<String>.Continuation

    init() { (entered, enter) = AsyncStream.makeStream() }

    var mostAtOnce: Int { state.withLock { $0.most } }

    /// Lets the oldest waiting search finish.
    func release() {
        let gate = state.withLock { $0.gates.isEmpty ? nil : $0.gates.removeFirst() }
        gate?.resume()
    }

    func search(_ query: String) async throws(PlaceError) -> [City] {
        await withCheckedContinuation { gate in
            state.withLock {
                $0.running += 1
                $0.most = max($0.most, $0.running)
                $0.gates.append(gate)
            }
            enter.yield(query)
        }
        state.withLock { $0.running -= 1 }
        return [City(name: query, coordinate: Coordinate(latitude: 1, longitude: 2))]
    }
}

@Suite struct PlaceResolverLimitsTests {
    @Test func anUnreadableTableIsSaidAndNothingGoesOnline() async throws {
        let geocoder = ScriptedGeocoder([:])
        let resolver = PlaceResolver(table: UnreadableTable(), geocoder: geocoder)
        for _ in 0..<2 {
            await #expect(throws: PlaceError.tableUnavailable(name: "Passau")) { try await resolver.resolve("Passau") }
        }
        #expect(geocoder.queries.isEmpty)
        #expect(await resolver.cachedCount == 0)
        #expect(PlaceError.tableUnavailable(name: "Passau").code == .geocodingUnavailable)
    }

    @Test func onlineLookupsAreLimitedPerMinuteForEveryoneTogether() async throws {
        let now = Mutex(ContinuousClock.now)
        let geocoder = ScriptedGeocoder([:])
        let resolver = PlaceResolver(
            table: nil, geocoder: geocoder, onlinePerMinute: 2, clock: { now.withLock { $0 } })
        for name in ["Atlantis", "Lemuria"] {
            await #expect(throws: PlaceError.noSuchPlace(name: name)) { try await resolver.resolve(name) }
        }
        await #expect {
            try await resolver.resolve("Mu")
        } throws: {
            ($0 as? PlaceError)?.message.contains("more than 2 online lookups this minute") == true
        }
        #expect(geocoder.queries == ["Atlantis", "Lemuria"])
        now.withLock { $0 += .seconds(60) }
        await #expect(throws: PlaceError.noSuchPlace(name: "Mu")) { try await resolver.resolve("Mu") }
        #expect(geocoder.queries == ["Atlantis", "Lemuria", "Mu"])
    }

    @Test func onlineLookupsGoOneAtATime() async throws {
        let geocoder = GatedGeocoder()
        let resolver = PlaceResolver(table: nil, geocoder: geocoder)
        var entered = geocoder.entered.makeAsyncIterator()
        let first = Task { try await resolver.resolve("Atlantis").name }
        #expect(await entered.next() == "Atlantis")
        let second = Task { try await resolver.resolve("Lemuria").name }
        geocoder.release()
        #expect(try await first.value == "Atlantis")
        #expect(await entered.next() == "Lemuria")
        geocoder.release()
        #expect(try await second.value == "Lemuria")
        #expect(geocoder.mostAtOnce == 1)
    }
}
