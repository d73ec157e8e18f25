import Foundation
import Synchronization
import Testing
import WundercastSupport
import WundercastModel
import WundercastProviders
import WundercastProtocol
import WundercastPlaces
import WundercastPipeline
import WundercastTestSupport

/// One-off lookups (`weather`, `around`): through the one provider queue, cached per rounded
/// position for MaxAge, limited per user, refused while the provider asked us to wait; public
/// readers' lookups only in public cells, apart from the daemon's fetches (issue 14, S1).
@Suite(.timeLimit(.minutes(1))) struct LookupServiceTests {
    let provider = ScriptedWeatherProvider()
    let wall = WallClock()

    /// A wall clock the test moves.
    final class WallClock: Sendable {
        private let now = Mutex(Date(timeIntervalSince1970: 1_764_583_200))
        func read() -> Date { now.withLock { $0 } }
        func advance(_ seconds: Double) { now.withLock { $0 += seconds } }
    }

    func service(perMinute: Int = 100, places: PlaceFinder = .none) -> (LookupService, ProviderQueue) {
        let wall = self.wall
        let queue = ProviderQueue(provider, wallClock: { wall.read() })
        let lookups = LookupService(
            queue: queue, places: places,
            settings: .init(precision: 2, maxAge: .seconds(900), lookupsPerMinute: perMinute),
            wallClock: { wall.read() })
        return (lookups, queue)
    }

    func object(_ line: [UInt8]) throws -> [String: Any] {
        #expect(line.last == UInt8(ascii: "\n"))
        return try #require(try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])
    }

    func at(_ latitude: Double, _ longitude: Double) -> SocketProtocol.PlaceQuery {
        .coordinate(Coordinate(latitude: latitude, longitude: longitude))
    }

    @Test func aLookupAnswersWeatherForTheRoundedPositionWithoutChangingAnything() async throws {
        let (lookups, queue) = service()
        async let answer = lookups.weather(at(69.6496, 18.9553), user: 1000, reader: .precise)
        try await provider.waitForRequests(1)
        #expect(provider.answerNext(with: .success(makeWeather(-4))) == Coordinate(latitude: 69.65, longitude: 18.96))
        let weather = try object(await answer)
        #expect(weather["class"] as? String == "WEATHER")
        #expect(weather["status"] as? String == "fresh")
        let location = try #require(weather["location"] as? [String: Any])
        #expect(location["source"] as? String == "lookup")
        #expect(location["latitude"] as? Double == 69.65)
        #expect((weather["weather"] as? [String: Any])?["temperature"] as? Double == -4)
        #expect(queue.counts == (1, 0))
        #expect(lookups.answered == 1)
    }

    @Test func lookupsAndOwnFetchesTakeTurnsAtTheProvider() async throws {
        let (lookups, queue) = service()
        let own = Task { try? await queue.currentWeather(at: Coordinate(latitude: 1, longitude: 1)) }
        try await provider.waitForRequests(1)
        async let lookup = lookups.weather(at(2, 2), user: 1000, reader: .precise)
        // The lookup waits for its turn: the provider sees nothing more until the first ends.
        #expect(provider.pendingCount == 1)
        provider.answerNext(with: .success(makeWeather(1)))
        _ = await own.value
        try await provider.waitForRequests(2)
        provider.answerNext(with: .success(makeWeather(2)))
        _ = await lookup
        #expect(provider.maxInFlight == 1)
        #expect(
            provider.log == [
                .started(Coordinate(latitude: 1, longitude: 1)), .ended(Coordinate(latitude: 1, longitude: 1)),
                .started(Coordinate(latitude: 2, longitude: 2)), .ended(Coordinate(latitude: 2, longitude: 2)),
            ])
    }

    @Test func aCachedPositionIsServedForMaxAgeAndJoinedWhileInFlight() async throws {
        let (lookups, _) = service()
        async let first = lookups.weather(at(48.1371, 11.5754), user: 1, reader: .precise)
        async let second = lookups.weather(at(48.1369, 11.5751), user: 2, reader: .precise)  // same position at Precision=2
        try await provider.waitForRequests(1)
        provider.answerNext(with: .success(makeWeather(10)))
        _ = try object(await first)
        _ = try object(await second)
        #expect(provider.requested.count == 1, "a fetch in flight is joined")
        wall.advance(899)
        _ = try object(await lookups.weather(at(48.14, 11.58), user: 3, reader: .precise))
        #expect(provider.requested.count == 1, "served from the cache within MaxAge")
        wall.advance(2)
        async let later = lookups.weather(at(48.14, 11.58), user: 3, reader: .precise)
        try await provider.waitForRequests(2)
        provider.answerNext(with: .success(makeWeather(11)))
        #expect(((try object(await later))["weather"] as? [String: Any])?["temperature"] as? Double == 11)
    }

    @Test func eachUserHasItsOwnLimitOfProviderRequests() async throws {
        let (lookups, _) = service(perMinute: 2)
        for (i, user) in [(0, 1000), (1, 1000)] as [(Int, UInt32)] {
            async let answer = lookups.weather(at(Double(i), 0), user: user, reader: .precise)
            try await provider.waitForRequests(i + 1)
            provider.answerNext(with: .success(makeWeather(0)))
            _ = await answer
        }
        let refused = try object(await lookups.weather(at(5, 0), user: 1000, reader: .precise))
        #expect(refused["class"] as? String == "ERROR")
        #expect(refused["code"] as? String == "rate-limited")
        #expect(provider.requested.count == 2)
        _ = try object(await lookups.weather(at(0, 0), user: 1000, reader: .precise))  // cache hits do not count
        async let other = lookups.weather(at(5, 0), user: 1001, reader: .precise)
        try await provider.waitForRequests(3)
        provider.answerNext(with: .success(makeWeather(0)))
        #expect(try object(await other)["class"] as? String == "WEATHER")
        wall.advance(61)
        async let again = lookups.weather(at(6, 0), user: 1000, reader: .precise)
        try await provider.waitForRequests(4)
        provider.answerNext(with: .success(makeWeather(0)))
        #expect(try object(await again)["class"] as? String == "WEATHER", "the window slides")
    }

    @Test func whileTheProviderAsksToWaitLookupsAreRefusedWithoutARequest() async throws {
        let (lookups, queue) = service()
        async let limited = lookups.weather(at(1, 1), user: 1, reader: .precise)
        try await provider.waitForRequests(1)
        provider.answerNext(with: .failure(.http(status: 429, reason: "slow down", retryAfter: 120)))
        let first = try object(await limited)
        #expect(first["code"] as? String == "http-429")
        let refused = try object(await lookups.weather(at(2, 2), user: 1, reader: .precise))
        #expect(refused["code"] as? String == "provider-backoff")
        #expect((refused["message"] as? String)?.contains("2 min") == true)
        #expect(provider.requested.count == 1)
        #expect(queue.counts == (1, 1))
        wall.advance(121)
        async let later = lookups.weather(at(2, 2), user: 1, reader: .precise)
        try await provider.waitForRequests(2)
        provider.answerNext(with: .success(makeWeather(3)))
        #expect(try object(await later)["class"] as? String == "WEATHER")
    }

    @Test func aroundGivesNineCellsFromNorthWestWithTheirOwnErrors() async throws {
        let (lookups, _) = service()
        let task = Task {
            await lookups.around(
                nil, step: 1, current: Coordinate(latitude: 89.5, longitude: 179.5), user: 1, reader: .precise)
        }
        for n in 1...9 {
            try await provider.waitForRequests(n)
            if n == 5 {
                provider.answerNext(with: .failure(.http(status: 500, reason: nil, retryAfter: nil)))
            } else {
                provider.answerNext(with: .success(makeWeather(Double(n))))
            }
        }
        let around = try object(await task.value)
        #expect(around["class"] as? String == "AROUND")
        let cells = try #require(around["cells"] as? [[String: Any]])
        #expect(cells.count == 9)
        let positions = cells.map { [$0["latitude"] as? Double, $0["longitude"] as? Double] }
        #expect(
            positions == [
                [90, 178.5], [90, 179.5], [90, -179.5], [89.5, 178.5], [89.5, 179.5], [89.5, -179.5], [88.5, 178.5],
                [88.5, 179.5], [88.5, -179.5],
            ], "clamped at the pole, wrapped at the antimeridian")
        #expect(cells.filter { $0["error"] != nil }.count == 1)
        #expect(cells.filter { $0["weather"] != nil }.count == 8)
        #expect(Set(provider.requested).count == 9)
        #expect(provider.maxInFlight == 1)
    }

    @Test func aroundWithoutPositionOrPlaceSaysWhatIsMissing() async throws {
        let (lookups, _) = service()
        let answer = try object(await lookups.around(nil, step: 1, current: nil, user: 1, reader: .precise))
        #expect(answer["code"] as? String == "no-location")
        let unknown = try object(await lookups.weather(.name("Atlantis"), user: 1, reader: .precise))
        #expect(unknown["code"] as? String == "geocoding-unavailable")
        #expect(provider.requested.isEmpty)
    }

    /// Issue 18, item 7: `around` the daemon's own position tells a public reader the place of
    /// each cell by name only (``PlaceFinder/inCell``), as its state does — never the nearest
    /// city with a distance and bearing; a precise reader keeps them.
    @Test func aroundTheDaemonsPositionPublicReadersGetNamesOnly() async throws {
        let nearest = WeatherState.Place(name: "Unterhaching", distance: 3957, bearing: "N")
        let named = WeatherState.Place(name: "Munich")
        let places = PlaceFinder(
            nearest: { _ in nearest }, inCell: { _, _ in named }, resolve: { _ in .notFound(message: "") })
        let (lookups, _) = service(places: places)
        let here = Coordinate(latitude: 48.1, longitude: 11.6)
        var asked = 0
        for (reader, expected) in [(LookupService.Reader.public(precision: 1), "Munich"), (.precise, "Unterhaching")] {
            let task = Task { await lookups.around(nil, step: 1, current: here, user: 65534, reader: reader) }
            for _ in 0..<9 {
                asked += 1
                try await provider.waitForRequests(asked)
                provider.answerNext(with: .success(makeWeather(-2)))
            }
            let around = try object(await task.value)
            let centre = try #require(around["center"] as? [String: Any])
            let cells = try #require(around["cells"] as? [[String: Any]])
            for place in [centre["place"]] + cells.map({ $0["place"] }) {
                let place = try #require(place as? [String: Any])
                #expect(place["name"] as? String == expected, "\(reader): \(place)")
                #expect((place["distance"] != nil) == (expected == "Unterhaching"), "\(reader): \(place)")
            }
        }
    }

    @Test func namesAreResolvedByThePlaceFinder() async throws {
        let tromso = WeatherState.Place(name: "Tromsø", region: "Troms og Finnmark", country: "NO")
        let places = PlaceFinder(
            nearest: { _ in nil }, inCell: { _, _ in nil },
            resolve: { name in
                name == "Tromso"
                    ? .found(Coordinate(latitude: 69.6496, longitude: 18.957), tromso)
                    : .notFound(message: "no place named '\(name)'")
            })
        let (lookups, _) = service(places: places)
        async let answer = lookups.weather(.name("Tromso"), user: 1, reader: .precise)
        try await provider.waitForRequests(1)
        provider.answerNext(with: .success(makeWeather(-2)))
        let location = try #require(try object(await answer)["location"] as? [String: Any])
        #expect((location["place"] as? [String: Any])?["name"] as? String == "Tromsø")
        #expect(location["longitude"] as? Double == 18.96)
        let missing = try object(await lookups.weather(.name("Nowhere"), user: 1, reader: .precise))
        #expect(missing["code"] as? String == "no-such-place")
        #expect(missing["message"] as? String == "no place named 'Nowhere'")
    }

    /// Issue 18, item 7: a name other places share answers with them in `location.alternatives`;
    /// one that no other place has, without the member.
    @Test func anAmbiguousNameAnswersWithTheOtherPlaces() async throws {
        let missouri = WeatherState.Place(name: "Springfield", region: "Missouri", country: "US")
        let illinois = WeatherState.Alternative(
            name: "Springfield", region: "Illinois", country: "US", latitude: 39.80172, longitude: -89.64371,
            population: 116_565)
        let places = PlaceFinder(
            nearest: { _ in nil }, inCell: { _, _ in nil },
            resolve: { name in
                name == "Springfield"
                    ? .found(Coordinate(latitude: 37.21533, longitude: -93.29824), missouri, alternatives: [illinois])
                    : .found(Coordinate(latitude: 39.80172, longitude: -89.64371), missouri)
            })
        let (lookups, _) = service(places: places)
        async let answer = lookups.weather(.name("Springfield"), user: 1, reader: .public(precision: 1))
        try await provider.waitForRequests(1)
        provider.answerNext(with: .success(makeWeather(20)))
        let location = try #require(try object(await answer)["location"] as? [String: Any])
        let alternatives = try #require(location["alternatives"] as? [[String: Any]])
        #expect(alternatives.count == 1)
        #expect(alternatives.first?["region"] as? String == "Illinois")
        #expect(alternatives.first?["latitude"] as? Double == 39.80172)
        #expect(alternatives.first?["population"] as? Int == 116_565)
        async let single = lookups.weather(.name("Springfield, IL"), user: 1, reader: .public(precision: 1))
        try await provider.waitForRequests(2)
        provider.answerNext(with: .success(makeWeather(21)))
        let plain = try #require(try object(await single)["location"] as? [String: Any])
        #expect(plain["alternatives"] == nil)
    }

    @Test func aCancelledWaiterLeavesTheLineAndTheTurnPassesOn() async throws {
        let (_, queue) = service()
        let first = Task { try? await queue.currentWeather(at: Coordinate(latitude: 1, longitude: 1)) }
        try await provider.waitForRequests(1)
        let second = Task { () -> WeatherError? in
            do throws(WeatherError) {
                _ = try await queue.currentWeather(at: Coordinate(latitude: 2, longitude: 2))
            } catch {
                return error
            }
            return nil
        }
        let third = Task { try? await queue.currentWeather(at: Coordinate(latitude: 3, longitude: 3)) }
        second.cancel()
        #expect(await second.value == .cancelled)
        provider.answerNext(with: .success(makeWeather(1)))
        _ = await first.value
        try await provider.waitForRequests(2)
        #expect(provider.requested.last == Coordinate(latitude: 3, longitude: 3))
        provider.answerNext(with: .success(makeWeather(3)))
        #expect(await third.value != nil)
        #expect(provider.maxInFlight == 1)
    }

    // MARK: Public cells (issue 14, S1)

    /// The daemon's side as it is wired: its cache (`Precision=2`, TTL on the test's wall clock,
    /// debug lines to `daemonLines`) over `provider`'s queue, and the lookups over both (their
    /// own caches' debug lines to `lookupLines`).
    func daemonSide(
        _ provider: any WeatherProvider, perMinute: Int = 100, daemonLines: EventRecorder<String> = .init(),
        lookupLines: EventRecorder<String> = .init()
    ) -> (lookups: LookupService, cache: WeatherCache, queue: ProviderQueue) {
        let wall = self.wall
        let queue = ProviderQueue(provider, wallClock: { wall.read() })
        let uptime: @Sendable () -> Duration = { .seconds(wall.read().timeIntervalSince1970) }
        let cache = WeatherCache(
            provider: queue, precision: 2, uptime: uptime, wallClock: { wall.read() },
            logger: Logger(sink: RecordingSink(daemonLines), threshold: .debug))
        let lookups = LookupService(
            queue: queue, cache: cache, places: .none,
            settings: .init(precision: 2, maxAge: .seconds(900), lookupsPerMinute: perMinute), uptime: uptime,
            wallClock: { wall.read() }, logger: Logger(sink: RecordingSink(lookupLines), threshold: .debug))
        return (lookups, cache, queue)
    }

    /// The daemon fetched its own cell 300 s ago. A public lookup of that very cell — even with
    /// `PublicPrecision=` equal to `Precision=` — is asked for itself (fresh, its own `fetchedAt`),
    /// as any other cell is; a precise reader still gets the daemon's answer from the cache.
    @Test func aPublicLookupOfTheDaemonsCellIsNotServedFromTheDaemonsFetch() async throws {
        let provider = BatchRecorder()
        let (lookups, cache, _) = daemonSide(provider)
        _ = try await cache.weather(at: Coordinate(latitude: 48.1372, longitude: 11.5755), maxAge: .seconds(900))
        #expect(provider.calls == [[Coordinate(latitude: 48.14, longitude: 11.58)]])
        wall.advance(300)
        for precision in [2, 4] {
            let answer = try object(
                await lookups.weather(at(48.14, 11.58), user: 65534, reader: .public(precision: precision)))
            #expect(answer["ageSeconds"] as? Int == 0, "not the daemon's answer of 300 s ago")
            #expect(answer["fetchedAt"] as? String == "2025-12-01T10:05:00Z")
        }
        #expect(provider.calls.count == 2, "one request for the public cell; the second lookup is served from it")
        #expect(provider.calls.last == [Coordinate(latitude: 48.14, longitude: 11.58)])
        let precise = try object(await lookups.weather(at(48.14, 11.58), user: 0, reader: .precise))
        #expect(precise["ageSeconds"] as? Int == 300, "precise readers share the daemon's cache")
        #expect(provider.calls.count == 2)
    }

    /// `PublicPrecision=1`: the 100 cells of 0.01° around the public position, asked one by one
    /// and nine at a time (`around … 0.01`), answer exactly what their public cell answers —
    /// the daemon's own cell no differently — and the provider sees only public cells.
    @Test func probingTheCellsAroundThePublicPositionTellsNothing() async throws {
        let provider = BatchRecorder()
        let (lookups, cache, _) = daemonSide(provider)
        _ = try await cache.weather(at: Coordinate(latitude: 48.1372, longitude: 11.5755), maxAge: .seconds(900))
        wall.advance(300)
        let reader = LookupService.Reader.public(precision: 1)
        var byCell: [String: String] = [:]
        for row in 0..<10 {
            for column in 0..<10 {
                let latitude = 48.10 + Double(row) / 100
                let longitude = 11.55 + Double(column) / 100
                let line = String(
                    decoding: await lookups.weather(at(latitude, longitude), user: 65534, reader: reader), as: UTF8.self
                )
                let answer = try object(Array(line.utf8))
                let latitudeShown = try #require(answer[path: "location.latitude"] as? Double)
                let longitudeShown = try #require(answer[path: "location.longitude"] as? Double)
                let cell = Coordinate(latitude: latitude, longitude: longitude).rounded(toDecimals: 1)
                #expect(latitudeShown == cell.latitude && longitudeShown == cell.longitude)
                #expect(answer["ageSeconds"] as? Int == 0, "\(latitude),\(longitude): \(line)")
                let key = "\(cell.latitude),\(cell.longitude)"
                #expect(byCell[key, default: line] == line, "every cell answers as its public cell")
                byCell[key] = line
            }
        }
        let around = try object(
            await lookups.around(at(48.14, 11.58), step: 0.01, current: nil, user: 65534, reader: reader))
        let cells = try #require(around["cells"] as? [[String: Any]])
        #expect(cells.count == 9)
        for cell in cells {
            let position = Coordinate(
                latitude: try #require(cell["latitude"] as? Double),
                longitude: try #require(cell["longitude"] as? Double))
            #expect(position == position.rounded(toDecimals: 1), "a public cell: \(cell)")
            #expect(byCell["\(position.latitude),\(position.longitude)"] != nil, "probed above: \(cell)")
            #expect(cell["weather"] != nil)
        }
        let asked = Set(provider.calls.dropFirst().joined())
        #expect(asked.allSatisfy { $0 == $0.rounded(toDecimals: 1) }, "\(asked)")
        #expect(asked.count == byCell.count, "one request per public cell, none for the daemon's")
    }

    /// The daemon's fetch of a cell is in flight: a public lookup of that cell does not join it
    /// (it waits in the queue for a request of its own), and the daemon does not join a public
    /// lookup's fetch in flight either.
    @Test func aPublicLookupNeverJoinsTheDaemonsFetchNorTheOtherWay() async throws {
        let daemonLines = EventRecorder<String>()
        let lookupLines = EventRecorder<String>()
        let (lookups, cache, _) = daemonSide(provider, daemonLines: daemonLines, lookupLines: lookupLines)
        let own = Task {
            try? await cache.weather(at: Coordinate(latitude: 48.14, longitude: 11.58), maxAge: .seconds(900))
        }
        try await provider.waitForRequests(1)
        async let lookup = lookups.weather(at(48.14, 11.58), user: 65534, reader: .public(precision: 2))
        let asked = await lookupLines.wait(.seconds(10)) { $0.contains { $0.contains("1 asked in 1 request") } }
        #expect(asked, "the public lookup asks for itself: \(daemonLines.values)")
        provider.answerNext(with: .success(makeWeather(1)))
        #expect(await own.value?.weather.temperature == 1)
        guard asked else {
            _ = await lookup
            return
        }
        try await provider.waitForRequests(2)
        provider.answerNext(with: .success(makeWeather(2)))
        #expect(try object(await lookup)[path: "weather.temperature"] as? Double == 2)
        #expect(daemonLines.values == ["weather cache: 1 asked in 1 request"])

        // The other way: a public lookup in flight, then the daemon arrives in that cell.
        async let second = lookups.weather(at(50, 10), user: 65534, reader: .public(precision: 2))
        try await provider.waitForRequests(3)
        let daemonFetch = Task {
            try? await cache.weather(at: Coordinate(latitude: 50, longitude: 10), maxAge: .seconds(900))
        }
        // The daemon's cache logs one line for this fetch: a request of its own, or a join.
        #expect(await daemonLines.wait(.seconds(10)) { $0.count == 2 })
        let daemonAsked = daemonLines.values.last == "weather cache: 1 asked in 1 request"
        #expect(daemonAsked, "the daemon asks for itself: \(daemonLines.values)")
        provider.answerNext(with: .success(makeWeather(3)))
        _ = await second
        if daemonAsked {
            try await provider.waitForRequests(4)
            provider.answerNext(with: .success(makeWeather(4)))
        }
        #expect(await daemonFetch.value?.weather.temperature == 4)
        #expect(!lookupLines.values.contains { $0.contains("joined") })
    }

    /// While the provider asks us to wait, the daemon's cell is refused to a public reader as
    /// every other cell is (not served from the daemon's stored answer); a public lookup of the
    /// daemon's cell needs a request and counts against the user's limit as any other.
    @Test func backoffAndLimitTreatTheDaemonsCellAsAnyOther() async throws {
        let lookupLines = EventRecorder<String>()
        let (lookups, cache, _) = daemonSide(provider, perMinute: 1, lookupLines: lookupLines)
        let own = Task {
            try? await cache.weather(at: Coordinate(latitude: 48.14, longitude: 11.58), maxAge: .seconds(900))
        }
        try await provider.waitForRequests(1)
        provider.answerNext(with: .success(makeWeather(1)))
        _ = await own.value
        // The wait: the provider has asked to wait after the daemon's next fetch.
        let failing = Task {
            try? await cache.weather(at: Coordinate(latitude: 1, longitude: 1), maxAge: .seconds(900))
        }
        try await provider.waitForRequests(2)
        provider.answerNext(with: .failure(.http(status: 429, reason: "slow down", retryAfter: 120)))
        _ = await failing.value
        let reader = LookupService.Reader.public(precision: 2)
        for cell in [at(48.14, 11.58), at(48.13, 11.58)] {
            let refused = try object(await lookups.weather(cell, user: 1000, reader: reader))
            #expect(refused["code"] as? String == "provider-backoff", "\(refused)")
        }
        // The limit: the daemon's cell costs this user's one request of the minute.
        wall.advance(121)
        async let first = lookups.weather(at(48.14, 11.58), user: 65534, reader: reader)
        let asked = await lookupLines.wait(.seconds(10)) { $0.contains { $0.contains("1 asked in 1 request") } }
        #expect(asked, "the daemon's cell needs a request of its own")
        guard asked else {
            _ = await first
            return
        }
        try await provider.waitForRequests(3)
        provider.answerNext(with: .success(makeWeather(2)))
        #expect(try object(await first)["ageSeconds"] as? Int == 0)
        let limited = try object(await lookups.weather(at(48.15, 11.58), user: 65534, reader: reader))
        #expect(limited["code"] as? String == "rate-limited")
    }
}
