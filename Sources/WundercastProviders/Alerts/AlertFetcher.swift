import WundercastSupport
import WundercastModel

/// Asks an alert source for the alerts in force at a position: the one place that chooses the
/// request and decoder of each source (``NWSAlerts``, ``MetAlerts``, ``BrightSkyAlerts``,
/// ``ECCCAlerts``). Requests go through `http` (give it a ``ConditionalHTTPClient`` so that
/// `Expires` and `If-Modified-Since` are honoured) with `Accept` and the daemon's `User-Agent`.
public struct AlertFetcher: Sendable {
    /// Each source's base URL (`[Alerts] NWSURL=`, …), without a trailing `/`.
    public let urls: [AlertSourceID: String]
    public let http: any HTTPClient

    public init(urls: [AlertSourceID: String], http: any HTTPClient) {
        self.urls = urls.mapValues { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
        self.http = http
    }

    /// The request URL for `source` at `point` (already rounded to `[Weather] Precision=`).
    public func url(_ source: AlertSourceID, at point: Coordinate) -> String {
        let base = urls[source] ?? source.defaultURL
        switch source {
        case .nws: return base + NWSAlerts.path(at: point)
        case .metAlerts: return base + MetAlerts.path(at: point)
        case .brightSky: return base + BrightSkyAlerts.path(at: point)
        case .eccc: return base + ECCCAlerts.path(around: point)
        }
    }

    /// The most alerts one answer may list: a point is under a handful (a few dozen in a bad
    /// storm); an answer with more is not believed (it would flood the journal and the state).
    public static let maximumAlerts = 200

    /// The alerts `source` lists for `point`. Throws ``WeatherError`` as the weather providers
    /// do: transport failures, an HTTP status outside 200–299 (`Retry-After` kept), a body that
    /// is not JSON or not the source's shape, ``WeatherError/decoding(message:)`` for more than
    /// ``maximumAlerts`` alerts; ``WeatherError/cancelled`` when cancelled.
    public func fetch(_ source: AlertSourceID, at point: Coordinate) async throws(WeatherError) -> [Alert] {
        let alerts = try await fetchAll(source, at: point)
        guard alerts.count <= Self.maximumAlerts else {
            throw .decoding(
                message: "the answer lists \(alerts.count) alerts, more than \(Self.maximumAlerts) for one point")
        }
        return alerts
    }

    private func fetchAll(_ source: AlertSourceID, at point: Coordinate) async throws(WeatherError) -> [Alert] {
        if Task.isCancelled { throw .cancelled }
        let accept = source == .nws ? "application/geo+json" : "application/json"
        let response = try await http.get(url(source, at: point), headers: ["Accept": accept])
        let contentType = response.headers["content-type"]
        guard (200..<300).contains(response.status) else {
            throw .http(status: response.status, reason: nil, retryAfter: response.retryAfter)
        }
        switch source {
        case .nws:
            return try NWSAlerts.decode(status: response.status, body: response.body, contentType: contentType)
        case .metAlerts:
            return try MetAlerts.decode(status: response.status, body: response.body, contentType: contentType)
        case .brightSky:
            return try BrightSkyAlerts.decode(status: response.status, body: response.body, contentType: contentType)
        case .eccc:
            return try ECCCAlerts.decode(
                status: response.status, body: response.body, contentType: contentType, at: point)
        }
    }
}
