import Foundation
import Testing
import WundercastSupport
import WundercastModel
import WundercastProviders
import WundercastPipeline
import WundercastTestSupport

/// `Marine=auto` measured on the request log: recorded tracks replayed through the refresh rules
/// and the cache (``RequestBudgetTests/replay(_:quietHours:wrap:)``), the Marine API answered
/// by a recorded land answer (the Rhön, all null) or a recorded sea answer (the North Sea).
@Suite struct MarineRequestLogTests {
    static let directory = "weather/open-meteo-marine/"

    /// The Rhön element of the recorded multi-location answer, and an instant within its hours.
    static func landAnswer() throws -> (HTTPResponse, Date) {
        let bytes = try Fixtures.bytes(directory + "multi_location_sst_atlantic_land-rhoen_mediterranean_2026-10.json")
        let list = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [Any])
        let land = try JSONSerialization.data(withJSONObject: list[1])
        return (HTTPResponse(status: 200, headers: [:], body: Array(land)), Date(timeIntervalSince1970: 1_790_989_300))
    }

    static func seaAnswer() throws -> HTTPResponse {
        HTTPResponse(
            status: 200, headers: [:],
            body: try Fixtures.bytes(directory + "northsea_all_variables_current_minutely15_hourly_daily_2026-10.json"))
    }

    /// The cell of each marine request, from its URL.
    static func cells(_ http: FakeHTTPClient) -> [MarineCell] {
        http.requests.map { request in
            let pairs = request.url.split(separator: "?").last?.split(separator: "&") ?? []
            let query = Dictionary(
                pairs.map { pair in
                    let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                    return (parts[0], parts.count > 1 ? parts[1] : "")
                }, uniquingKeysWith: { _, last in last })
            return MarineCell(
                Coordinate(
                    latitude: Double(query["latitude"] ?? "") ?? .nan,
                    longitude: Double(query["longitude"] ?? "") ?? .nan))
        }
    }

    static func wrap(
        _ http: FakeHTTPClient, _ mode: MarineMode, wall: Date
    ) -> (any WeatherProvider, @escaping @Sendable () -> Duration) -> any WeatherProvider {
        { base, uptime in
            MarineWeatherProvider(
                base, marine: OpenMeteoMarineProvider(units: .metric, http: http), mode: mode, uptime: uptime,
                wallClock: { wall })
        }
    }

    /// A car (Regensburg, 26 min), then 2 hours parked: the Marine API is asked at most once per
    /// cell entered, and never again for a land cell within the day.
    @Test func aCarAsksOncePerCellAndNeverTwiceForLand() async throws {
        let (land, wall) = try Self.landAnswer()
        let http = FakeHTTPClient(response: land)
        let fixes = try RequestBudgetTests.fixes("nmea/car_regensburg_garmin-geko_2010-04-11_26min.nmea")
        let budget = try await RequestBudgetTests.replay(fixes, quietHours: 2, wrap: Self.wrap(http, .auto, wall: wall))
        let cells = Self.cells(http)
        #expect(!cells.isEmpty)
        #expect(Set(cells).count == cells.count, "a cell asked twice: \(cells)")
        // Parked for 2 hours: 8 more refreshes, no more marine requests.
        #expect(budget.refreshes >= cells.count + 8)
    }

    /// At sea (a boat at anchor in the North Sea cell of the recorded answer): asked at every
    /// refresh, one more request per refresh.
    @Test func atSeaAskedAtEveryRefresh() async throws {
        let http = FakeHTTPClient(response: try Self.seaAnswer())
        let fix = RequestBudgetTests.TrackFix(time: 1_791_027_900, latitude: 53.04, longitude: 3.96)
        let budget = try await RequestBudgetTests.replay(
            [fix], quietHours: 24, wrap: Self.wrap(http, .auto, wall: Date(timeIntervalSince1970: 1_791_027_900)))
        #expect(http.requests.count == budget.refreshes)
        // README's Boats and vans: 24 hours at anchor, 97 refreshes, 97 + 97 requests.
        #expect((budget.refreshes, budget.requests) == (1 + 24 * 4, 1 + 24 * 4))
    }

    /// README's figures for Boats and vans, with `Marine=auto`: the recorded kayak trip (every
    /// cell it paddles through answered as sea, by the recorded North Sea answer: Tomales Bay has
    /// no recording of its own) and the recorded drive through Regensburg, the demo's track (every
    /// cell answered as land, by the recorded Rhön answer).
    @Test func theFiguresOfBoatsAndVans() async throws {
        let sea = FakeHTTPClient(response: try Self.seaAnswer())
        let kayak = try await RequestBudgetTests.replay(
            RequestBudgetTests.fixes("nmea/kayak_tomales-bay_2018-08-20_2h13.nmea"),
            wrap: Self.wrap(sea, .auto, wall: Date(timeIntervalSince1970: 1_791_027_900)))
        #expect((kayak.refreshes, kayak.requests, sea.requests.count) == (9, 9, 9))
        let (land, wall) = try Self.landAnswer()
        let drive = FakeHTTPClient(response: land)
        let car = try await RequestBudgetTests.replay(
            RequestBudgetTests.fixes("nmea/car_regensburg_garmin-geko_2010-04-11_26min.nmea"),
            wrap: Self.wrap(drive, .auto, wall: wall))
        // 18 km within one 0.25° cell: asked once, land, not again.
        #expect((car.refreshes, car.requests, drive.requests.count) == (11, 9, 1))
    }

    @Test func noNeverAsksYesAsksOnLandEveryRefresh() async throws {
        let (land, wall) = try Self.landAnswer()
        let fix = RequestBudgetTests.TrackFix(time: 1_790_989_300, latitude: 50.54, longitude: 9.96)
        let never = FakeHTTPClient(response: land)
        _ = try await RequestBudgetTests.replay([fix], quietHours: 1, wrap: Self.wrap(never, .no, wall: wall))
        #expect(never.requests.isEmpty)
        let always = FakeHTTPClient(response: land)
        let budget = try await RequestBudgetTests.replay(
            [fix], quietHours: 1, wrap: Self.wrap(always, .yes, wall: wall))
        #expect(always.requests.count == budget.refreshes)
    }

    /// The sea state rides on the weather; land and failures leave it out.
    @Test func seaStateOnTheWeatherOnlyWithValues() async throws {
        let at = Coordinate(latitude: 53.04, longitude: 3.96)
        let wall = Date(timeIntervalSince1970: 1_791_027_900)
        let sea = MarineWeatherProvider(
            ScriptedAnswerProvider(),
            marine: OpenMeteoMarineProvider(units: .metric, http: FakeHTTPClient(response: try Self.seaAnswer())),
            mode: .auto, wallClock: { wall })
        let weather = try await sea.currentWeather(at: at)
        #expect(weather.marine?.waveHeight == 0.76 && weather.marine?.seaTemperature == 18.4)
        #expect(weather.temperature == 0)
        let (land, landWall) = try Self.landAnswer()
        let onLand = MarineWeatherProvider(
            ScriptedAnswerProvider(),
            marine: OpenMeteoMarineProvider(units: .metric, http: FakeHTTPClient(response: land)),
            mode: .auto, wallClock: { landWall })
        #expect(try await onLand.currentWeather(at: at).marine == nil)
        let failing = MarineWeatherProvider(
            ScriptedAnswerProvider(), marine: OpenMeteoMarineProvider(units: .metric, http: FakeHTTPClient()),
            mode: .auto, wallClock: { wall })
        let kept = try await failing.currentWeather(at: at)
        #expect(kept.marine == nil && kept.temperature == 0)
    }

    /// A sea state that is not the present's (the North Sea answer two months after it was
    /// made), or whose values are all impossible, is left out, logged, and teaches nothing: the
    /// cell is not taken for land and is asked again at the next refresh.
    @Test func staleOrImpossibleAnswersAreNotLand() async throws {
        let at = Coordinate(latitude: 53.04, longitude: 3.96)
        let impossible = HTTPResponse(
            status: 200, headers: [:],
            body: Array(#"{"current":{"time":1791027900,"wave_height":95,"sea_surface_temperature":80}}"#.utf8))
        let twoMonthsLater = Date(timeIntervalSince1970: 1_791_027_900 + 61 * 86_400)
        let recorded = Date(timeIntervalSince1970: 1_791_027_900)
        for (answer, wall) in [(try Self.seaAnswer(), twoMonthsLater), (impossible, recorded)] {
            let http = FakeHTTPClient(response: answer)
            let lines = EventRecorder<String>()
            let sea = MarineWeatherProvider(
                ScriptedAnswerProvider(), marine: OpenMeteoMarineProvider(units: .metric, http: http), mode: .auto,
                uptime: { .zero }, wallClock: { wall }, logger: Logger(sink: RecordingSink(lines), threshold: .debug))
            #expect(try await sea.currentWeather(at: at).marine == nil)
            #expect(try await sea.currentWeather(at: at).marine == nil)
            #expect(http.requests.count == 2)
            #expect(
                lines.values
                    == Array(repeating: "sea state not fetched (decoding); asked again at the next refresh", count: 2))
        }
    }

    /// After a 429 with `Retry-After` the log says how long nothing is asked, and nothing is.
    @Test func retryAfterIsLoggedAsTheWait() async throws {
        let http = FakeHTTPClient(response: HTTPResponse(status: 429, headers: ["retry-after": "600"], body: []))
        let lines = EventRecorder<String>()
        let sea = MarineWeatherProvider(
            ScriptedAnswerProvider(), marine: OpenMeteoMarineProvider(units: .metric, http: http), mode: .auto,
            uptime: { .zero }, logger: Logger(sink: RecordingSink(lines), threshold: .debug))
        _ = try await sea.currentWeather(at: Coordinate(latitude: 53.04, longitude: 3.96))
        _ = try await sea.currentWeather(at: Coordinate(latitude: 53.04, longitude: 3.96))
        #expect(http.requests.count == 1)
        #expect(lines.values.count == 1)
        #expect(lines.values.first?.hasSuffix("; not asked again for 600 s") == true, "\(lines.values)")
    }

    /// Weather at once, 0 °C.
    struct ScriptedAnswerProvider: WeatherProvider {
        let name = "test"
        let secrets = Secrets.none
        func currentWeather(at coordinate: Coordinate) async throws(WeatherError) -> Weather { makeWeather(0) }
    }
}
