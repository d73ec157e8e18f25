import Foundation
import Testing
import WundercastModel
import WundercastProviders
import WundercastTestSupport

/// Open-Meteo with several coordinates in one request (issue 7, point 6): the URL lists them,
/// the answer is a JSON array in the same order. No multi-location answer was recorded, so the
/// arrays here are built by the tests from recorded single-location bodies.
@Suite struct OpenMeteoBatchTests {
    static let metric = "weather/open-meteo/current_bucharest_metric.json"
    static let newYork = "weather/open-meteo/forecast_newyork_daily.json"

    /// The recorded Bucharest body with `current.temperature_2m` set to `temperature`.
    static func cell(_ temperature: Double) throws -> String {
        String(
            decoding: try Fixtures.edited(metric) { json in
                var current = json["current"] as? [String: Any] ?? [:]
                current["temperature_2m"] = temperature
                json["current"] = current
            }, as: UTF8.self)
    }

    /// A JSON array of `cells` (texts), as Open-Meteo sends for a list of coordinates.
    static func array(_ cells: [String]) -> [UInt8] { Array(("[" + cells.joined(separator: ",") + "]").utf8) }

    static func temperatures(_ results: [Result<Weather, WeatherError>]) -> [Double?] {
        results.map { (try? $0.get())?.temperature }
    }

    @Test func theURLListsTheCoordinatesInOrder() {
        let provider = OpenMeteoProvider(baseURL: "http://h.invalid/", units: .metric, http: ScriptedHTTPClient())
        let url = provider.requestURL(forEach: [
            Coordinate(latitude: 44.54, longitude: 26.03), Coordinate(latitude: -0.5, longitude: 180),
            Coordinate(latitude: 90, longitude: -179.99),
        ])
        #expect(
            url.hasPrefix("http://h.invalid/v1/forecast?latitude=44.54,-0.5,90&longitude=26.03,180,-179.99&current="))
        let single = Coordinate(latitude: 44.44, longitude: 26.13)
        #expect(provider.requestURL(for: single) == provider.requestURL(forEach: [single]))
        #expect(provider.requestURL(for: single).contains("?latitude=44.44&longitude=26.13&"))
    }

    @Test func anArrayBuiltFromRecordedBodiesDecodesInOrder() throws {
        let cells =
            try (0..<8).map { try Self.cell(Double($0) + 0.5) } + [
                String(decoding: try Fixtures.bytes(Self.newYork), as: UTF8.self)
            ]
        let results = try OpenMeteoProvider.decodeBatch(status: 200, body: Self.array(cells), count: 9)
        #expect(Self.temperatures(results).prefix(8) == [0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5])
        let alone = try OpenMeteoProvider.decode(status: 200, body: Fixtures.bytes(Self.newYork))
        #expect(try results[8].get() == alone, "a cell decodes as the same body alone")
        #expect(try results[0].get().forecast?.hours?.isEmpty == false, "each cell keeps its forecast")
    }

    /// One broken element fails its own location only; the element texts are invented.
    @Test(arguments: [
        ("null", "location 5: null instead of an object"),
        ("42", "location 5: not an object"),
        (#""text""#, "location 5: not an object"),
        (#"{"current":{"time":"yesterday"}}"#, "location 5: current.time"),
        (#"{"latitude":1}"#, "location 5: missing member 'current'"),
    ])
    func aBrokenCellFailsAlone(element: String, message: String) throws {
        var cells = try (0..<9).map { try Self.cell(Double($0)) }
        cells[4] = element
        let results = try OpenMeteoProvider.decodeBatch(status: 200, body: Self.array(cells), count: 9)
        #expect(Self.temperatures(results) == [0, 1, 2, 3, nil, 5, 6, 7, 8])
        guard case .failure(.decoding(let text)) = results[4] else {
            Issue.record("\(results[4])")
            return
        }
        #expect(text.hasPrefix(message), "\(text)")
    }

    /// An element with Open-Meteo's error shape (reason text invented) is that cell's error body.
    @Test func anErrorObjectInTheListFailsItsCellOnly() throws {
        var cells = try (0..<3).map { try Self.cell(Double($0)) }
        cells[1] = #"{"error":true,"reason":"No data is available for this location\u0007"}"#
        let results = try OpenMeteoProvider.decodeBatch(status: 200, body: Self.array(cells), count: 3)
        #expect(Self.temperatures(results) == [0, nil, 2])
        #expect(
            results[1].map { _ in 0 }
                == .failure(
                    .errorBody(status: 200, providerCode: nil, reason: "No data is available for this location")))
    }

    /// Failures of the request as a whole are thrown, not spread over the cells.
    @Test func aFailedRequestFailsAsAWhole() throws {
        let cells = Self.array(try (0..<3).map { try Self.cell(Double($0)) })
        #expect(throws: WeatherError.decoding(message: "3 locations in the answer, 9 asked")) {
            try OpenMeteoProvider.decodeBatch(status: 200, body: cells, count: 9)
        }
        #expect(throws: WeatherError.http(status: 502, reason: nil, retryAfter: nil)) {
            try OpenMeteoProvider.decodeBatch(status: 502, body: cells, count: 3)
        }
        let recordedError = try Fixtures.bytes("weather/open-meteo/error_400.json")
        #expect {
            try OpenMeteoProvider.decodeBatch(status: 400, body: recordedError, count: 9)
        } throws: { error in
            if case .http(400, let reason?, _) = error as? WeatherError { return !reason.isEmpty }
            return false
        }
        let limit = Array(
            #"{"error":true,"reason":"Minutely API request limit exceeded. Please try again in one minute."}"#.utf8)
        #expect {
            try OpenMeteoProvider.decodeBatch(status: 429, body: limit, count: 9)
        } throws: { error in
            if case .limited(429, .minute, _, _) = error as? WeatherError { return true }
            return false
        }
        #expect(throws: WeatherError.notJSON(status: 200, bytes: 14, contentType: "text/html")) {
            try OpenMeteoProvider.decodeBatch(
                status: 200, body: Array("[<html></html>".utf8), count: 9, contentType: "text/html")
        }
    }

    /// Open-Meteo answers a single location with an object: fine for one, wrong for nine.
    @Test func anObjectAnswersOneLocationOnly() throws {
        let body = try Fixtures.bytes(Self.metric)
        let one = try OpenMeteoProvider.decodeBatch(status: 200, body: body, count: 1)
        #expect(try one.map { try $0.get() } == [try OpenMeteoProvider.decode(status: 200, body: body)])
        #expect(throws: WeatherError.decoding(message: "one location in the answer, 9 asked")) {
            try OpenMeteoProvider.decodeBatch(status: 200, body: body, count: 9)
        }
    }
}
