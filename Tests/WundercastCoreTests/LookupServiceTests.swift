import Foundation
import Synchronization
import Testing
import WundercastCore
import WundercastTestSupport

/// One-off lookups (`weather`, `around`): through the one provider queue, cached per rounded
/// position for MaxAge, limited per user, refused while the provider asked us to wait.
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
        async let answer = lookups.weather(at(69.6496, 18.9553), user: 1000)
        await provider.waitForRequests(1)
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
        await provider.waitForRequests(1)
        async let lookup = lookups.weather(at(2, 2), user: 1000)
        // The lookup waits for its turn: the provider sees nothing more until the first ends.
        #expect(provider.pendingCount == 1)
        provider.answerNext(with: .success(makeWeather(1)))
        _ = await own.value
        await provider.waitForRequests(2)
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
        async let first = lookups.weather(at(48.1371, 11.5754), user: 1)
        async let second = lookups.weather(at(48.1369, 11.5751), user: 2)  // same position at Precision=2
        await provider.waitForRequests(1)
        provider.answerNext(with: .success(makeWeather(10)))
        _ = try object(await first)
        _ = try object(await second)
        #expect(provider.requested.count == 1, "a fetch in flight is joined")
        wall.advance(899)
        _ = try object(await lookups.weather(at(48.14, 11.58), user: 3))
        #expect(provider.requested.count == 1, "served from the cache within MaxAge")
        wall.advance(2)
        async let later = lookups.weather(at(48.14, 11.58), user: 3)
        await provider.waitForRequests(2)
        provider.answerNext(with: .success(makeWeather(11)))
        #expect(((try object(await later))["weather"] as? [String: Any])?["temperature"] as? Double == 11)
    }

    @Test func eachUserHasItsOwnLimitOfProviderRequests() async throws {
        let (lookups, _) = service(perMinute: 2)
        for (i, user) in [(0, 1000), (1, 1000)] as [(Int, UInt32)] {
            async let answer = lookups.weather(at(Double(i), 0), user: user)
            await provider.waitForRequests(i + 1)
            provider.answerNext(with: .success(makeWeather(0)))
            _ = await answer
        }
        let refused = try object(await lookups.weather(at(5, 0), user: 1000))
        #expect(refused["class"] as? String == "ERROR")
        #expect(refused["code"] as? String == "rate-limited")
        #expect(provider.requested.count == 2)
        _ = try object(await lookups.weather(at(0, 0), user: 1000))  // cache hits do not count
        async let other = lookups.weather(at(5, 0), user: 1001)
        await provider.waitForRequests(3)
        provider.answerNext(with: .success(makeWeather(0)))
        #expect(try object(await other)["class"] as? String == "WEATHER")
        wall.advance(61)
        async let again = lookups.weather(at(6, 0), user: 1000)
        await provider.waitForRequests(4)
        provider.answerNext(with: .success(makeWeather(0)))
        #expect(try object(await again)["class"] as? String == "WEATHER", "the window slides")
    }

    @Test func whileTheProviderAsksToWaitLookupsAreRefusedWithoutARequest() async throws {
        let (lookups, queue) = service()
        async let limited = lookups.weather(at(1, 1), user: 1)
        await provider.waitForRequests(1)
        provider.answerNext(with: .failure(.http(status: 429, reason: "slow down", retryAfter: 120)))
        let first = try object(await limited)
        #expect(first["code"] as? String == "http-429")
        let refused = try object(await lookups.weather(at(2, 2), user: 1))
        #expect(refused["code"] as? String == "provider-backoff")
        #expect((refused["message"] as? String)?.contains("2 min") == true)
        #expect(provider.requested.count == 1)
        #expect(queue.counts == (1, 1))
        wall.advance(121)
        async let later = lookups.weather(at(2, 2), user: 1)
        await provider.waitForRequests(2)
        provider.answerNext(with: .success(makeWeather(3)))
        #expect(try object(await later)["class"] as? String == "WEATHER")
    }

    @Test func aroundGivesNineCellsFromNorthWestWithTheirOwnErrors() async throws {
        let (lookups, _) = service()
        let task = Task {
            await lookups.around(nil, step: 1, current: Coordinate(latitude: 89.5, longitude: 179.5), user: 1)
        }
        for n in 1...9 {
            await provider.waitForRequests(n)
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
        let answer = try object(await lookups.around(nil, step: 1, current: nil, user: 1))
        #expect(answer["code"] as? String == "no-location")
        let unknown = try object(await lookups.weather(.name("Atlantis"), user: 1))
        #expect(unknown["code"] as? String == "geocoding-unavailable")
        #expect(provider.requested.isEmpty)
    }

    @Test func namesAreResolvedByThePlaceFinder() async throws {
        let tromso = WeatherState.Place(name: "Tromsø", region: "Troms og Finnmark", country: "NO")
        let places = PlaceFinder(
            nearest: { _, _ in nil },
            resolve: { name in
                name == "Tromso"
                    ? .found(Coordinate(latitude: 69.6496, longitude: 18.957), tromso)
                    : .notFound(message: "no place named '\(name)'")
            })
        let (lookups, _) = service(places: places)
        async let answer = lookups.weather(.name("Tromso"), user: 1)
        await provider.waitForRequests(1)
        provider.answerNext(with: .success(makeWeather(-2)))
        let location = try #require(try object(await answer)["location"] as? [String: Any])
        #expect((location["place"] as? [String: Any])?["name"] as? String == "Tromsø")
        #expect(location["longitude"] as? Double == 18.96)
        let missing = try object(await lookups.weather(.name("Nowhere"), user: 1))
        #expect(missing["code"] as? String == "no-such-place")
        #expect(missing["message"] as? String == "no place named 'Nowhere'")
    }

    @Test func aCancelledWaiterLeavesTheLineAndTheTurnPassesOn() async throws {
        let (_, queue) = service()
        let first = Task { try? await queue.currentWeather(at: Coordinate(latitude: 1, longitude: 1)) }
        await provider.waitForRequests(1)
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
        await provider.waitForRequests(2)
        #expect(provider.requested.last == Coordinate(latitude: 3, longitude: 3))
        provider.answerNext(with: .success(makeWeather(3)))
        #expect(await third.value != nil)
        #expect(provider.maxInFlight == 1)
    }
}
