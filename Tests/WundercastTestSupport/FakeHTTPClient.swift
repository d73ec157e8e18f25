import Synchronization
import WundercastModel
import WundercastProviders

/// An ``HTTPClient`` that records requests and answers with a canned response or error.
public final class FakeHTTPClient: HTTPClient {
    public struct Request: Sendable {
        public var url: String
        public var headers: [String: String]
    }

    private let answer: Result<HTTPResponse, WeatherError>
    private let recorded = Mutex<[Request]>([])

    public init(response: HTTPResponse = HTTPResponse(status: 500, headers: [:], body: [])) {
        answer = .success(response)
    }
    public init(error: WeatherError) { answer = .failure(error) }

    public var requests: [Request] { recorded.withLock { $0 } }

    public func get(_ url: String, headers: [String: String]) async throws(WeatherError) -> HTTPResponse {
        recorded.withLock { $0.append(Request(url: url, headers: headers)) }
        return try answer.get()
    }
}
