import Foundation
import Testing
import WundercastModel
import WundercastProviders
import WundercastTestSupport

/// The fetcher: each source's URL, and an answer listing more alerts than a point can be under
/// is refused (found by the hostile review: 12,000 Updates in one 2 MB answer).
@Suite struct AlertFetcherTests {
    @Test func anAnswerWithMoreThanTheMostAlertsIsRefused() async throws {
        // Edited: the recorded Phoenix answer's first feature repeated 201 times with new ids.
        let body = try AlertRecordings.edited(AlertRecordings.phoenix) { json in
            let features = try #require(json["features"] as? [[String: Any]])
            json["features"] = (0...AlertFetcher.maximumAlerts).map { index -> [String: Any] in
                var feature = features[0]
                var properties = feature["properties"] as? [String: Any] ?? [:]
                properties["id"] = "copy-\(index)"
                properties["messageType"] = "Alert"
                feature["properties"] = properties
                return feature
            }
        }
        let http = ScriptedHTTPClient([.success(HTTPResponse(status: 200, headers: [:], body: body))])
        let fetcher = AlertFetcher(urls: [.nws: "http://127.0.0.1:9/"], http: http)
        await #expect(throws: WeatherError.self) {
            try await fetcher.fetch(.nws, at: .init(latitude: 33.45, longitude: -112.07))
        }
        #expect(http.requests.first?.url == "http://127.0.0.1:9/alerts/active?point=33.45,-112.07")
        #expect(http.requests.first?.headers["Accept"] == "application/geo+json")
    }
}
