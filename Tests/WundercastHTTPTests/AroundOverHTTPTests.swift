import Foundation
import Testing
import WundercastModel
import WundercastProviders
import WundercastPipeline
import WundercastHTTP
import WundercastTestSupport

/// `around` against the loopback server through the real client and Open-Meteo provider (issue
/// 7, point 6): the nine cells in one request, the cells already cached not asked again. No
/// multi-location answer was recorded: the server answers arrays the test builds from the
/// recorded Bucharest body.
@Suite struct AroundOverHTTPTests {
    /// The recorded body with `current.temperature_2m` set to `temperature`.
    static func cell(_ temperature: Double) throws -> String {
        String(
            decoding: try Fixtures.edited(CurlHTTPClientTests.metric) { json in
                var current = json["current"] as? [String: Any] ?? [:]
                current["temperature_2m"] = temperature
                json["current"] = current
            }, as: UTF8.self)
    }

    /// Lookups through the real client and Open-Meteo provider to `server`.
    static func lookups(_ server: FixtureHTTPServer) -> (LookupService, ProviderQueue) {
        let http = CurlHTTPClient(
            userAgent: CurlHTTPClientTests.userAgent, loop: TestLoop.shared, timeout: .seconds(10))
        let queue = ProviderQueue(OpenMeteoProvider(baseURL: server.baseURL, units: .metric, http: http))
        let lookups = LookupService(
            queue: queue, places: .none, settings: .init(precision: 2, maxAge: .seconds(900), lookupsPerMinute: 60))
        return (lookups, queue)
    }

    static func cells(_ line: [UInt8]) throws -> [[String: Any]] {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])
        return try #require(object["cells"] as? [[String: Any]], "\(object)")
    }

    @Test func aroundIsOneRequestWithTheNineCoordinatesAndANullCellFailsAlone_arrayBuiltByTheTest() async throws {
        let server = try await FixtureHTTPServer()
        defer { server.stop() }
        let (lookups, queue) = Self.lookups(server)

        var nine = try (0..<9).map { try Self.cell(Double($0) + 0.5) }
        nine[4] = "null"
        try server.respond(body: "[" + nine.joined(separator: ",") + "]")
        let first = try Self.cells(
            await lookups.around(
                .coordinate(Coordinate(latitude: 44.44, longitude: 26.13)), step: 0.1, current: nil, user: 1,
                reader: .precise))
        let requests = try server.requests()
        #expect(requests.count == 1)
        #expect(requests.first?.path == "/v1/forecast")
        #expect(requests.first?.query["latitude"] == "44.54,44.54,44.54,44.44,44.44,44.44,44.34,44.34,44.34")
        #expect(requests.first?.query["longitude"] == "26.03,26.13,26.23,26.03,26.13,26.23,26.03,26.13,26.23")
        #expect(queue.counts == (1, 0))
        #expect(first.count == 9)
        let temperatures = first.map { ($0["weather"] as? [String: Any])?["temperature"] as? Double }
        #expect(temperatures == [0.5, 1.5, 2.5, 3.5, nil, 5.5, 6.5, 7.5, 8.5])
        #expect((first[4]["error"] as? [String: Any])?["code"] as? String == "decoding")
        #expect(first.allSatisfy { ($0["weather"] as? [String: Any])?["forecast"] == nil }, "cells carry no forecast")

        // One step north: six cells are cached; the top row and the failed cell are asked, together.
        try server.reset()
        try server.respond(body: "[" + (try [10, 11, 12, 13].map { try Self.cell($0) }).joined(separator: ",") + "]")
        let second = try Self.cells(
            await lookups.around(
                .coordinate(Coordinate(latitude: 44.54, longitude: 26.13)), step: 0.1, current: nil, user: 1,
                reader: .precise))
        let again = try server.requests()
        #expect(again.count == 1)
        #expect(again.first?.query["latitude"] == "44.64,44.64,44.64,44.44")
        #expect(again.first?.query["longitude"] == "26.03,26.13,26.23,26.13")
        let shifted = second.map { ($0["weather"] as? [String: Any])?["temperature"] as? Double }
        #expect(shifted == [10, 11, 12, 0.5, 1.5, 2.5, 3.5, 13, 5.5])
        #expect(queue.counts == (2, 0))
    }

    /// The whole request failing (HTTP 429) fails every cell with it, and later lookups are
    /// refused without a request while the provider asked us to wait.
    @Test func aFailedBatchFailsEveryCellAndIsOneFailure() async throws {
        let server = try await FixtureHTTPServer()
        defer { server.stop() }
        let (lookups, queue) = Self.lookups(server)
        try server.respond(status: 429, retryAfter: 60, file: "weather/open-meteo/error_400.json")
        let cells = try Self.cells(
            await lookups.around(
                .coordinate(Coordinate(latitude: 1, longitude: 1)), step: 1, current: nil, user: 1, reader: .precise))
        #expect(
            cells.map { ($0["error"] as? [String: Any])?["code"] as? String } == Array(repeating: "http-429", count: 9))
        #expect(queue.counts == (1, 1))
        let refused = try Self.cells(
            await lookups.around(
                .coordinate(Coordinate(latitude: 5, longitude: 5)), step: 1, current: nil, user: 1, reader: .precise))
        #expect(refused.allSatisfy { ($0["error"] as? [String: Any])?["code"] as? String == "provider-backoff" })
        #expect(try server.requests().count == 1)
    }
}
