import Synchronization
import WundercastModel
import WundercastProviders

/// An ``HTTPClient`` that answers from a script, in order, and records each request. A request
/// with no answer left is a test error (HTTP 599 and a recorded request, so the test sees it).
public final class ScriptedHTTPClient: HTTPClient {
    public struct Request: Sendable, Equatable {
        public var url: String
        public var headers: [String: String]
        public init(url: String, headers: [String: String]) {
            self.url = url
            self.headers = headers
        }
    }
    private let state = Mutex<(answers: [Result<HTTPResponse, WeatherError>], requests: [Request])>(([], []))

    public init(_ answers: [Result<HTTPResponse, WeatherError>] = []) {
        state.withLock { $0.answers = answers }
    }

    /// Adds answers to the end of the script.
    public func then(_ answers: Result<HTTPResponse, WeatherError>...) {
        state.withLock { $0.answers += answers }
    }

    public var requests: [Request] { state.withLock { $0.requests } }

    public func get(_ url: String, headers: [String: String]) async throws(WeatherError) -> HTTPResponse {
        let answer = state.withLock { s -> Result<HTTPResponse, WeatherError> in
            s.requests.append(Request(url: url, headers: headers))
            return s.answers.isEmpty
                ? .success(HTTPResponse(status: 599, headers: [:], body: Array("no answer scripted".utf8)))
                : s.answers.removeFirst()
        }
        return try answer.get()
    }
}
