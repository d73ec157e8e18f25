import Foundation

/// One request as a fixture HTTP server recorded it.
public struct RecordedRequest: Sendable, Equatable, Decodable {
    /// `"GET"`.
    public var method: String
    /// Path without the query, e.g. `"/v1/forecast"`.
    public var path: String
    /// The raw query string without `?` (still percent-encoded).
    public var queryString: String
    /// Decoded query parameters; the last value wins for a repeated name.
    public var query: [String: String]
    /// Request headers; names in lower case.
    public var headers: [String: String]
    /// Arrival time, seconds since 1970.
    public var time: Double
}

/// How a fixture HTTP server answers the recorded routes (`/v1/forecast`, `/v1/search`, MET
/// Norway's and OpenWeatherMap's); every member optional, `nil` keeping the recorded answer
/// (see ``FixtureServer/respond(status:body:retryAfter:delaySeconds:file:headers:bodyBytes:gzip:chunked:truncateAt:lastModified:)``).
/// Encoded, it is the Python server's `control.json`.
public struct FixtureControl: Sendable, Codable, Equatable {
    var status: Int?
    var body: String?
    var retryAfter: Double?
    var delaySeconds: Double?
    var file: String?
    var headers: [String: String]?
    var bodyBytes: Int?
    var gzip: Bool?
    var chunked: Bool?
    var truncateAt: Int?
    var lastModified: String?
}

/// A loopback HTTP server of recorded weather-API answers: in this process (``FixtureHTTPServer``)
/// or a Python process of its own (``PythonFixtureHTTPServer``).
public protocol FixtureServer: AnyObject, Sendable {
    /// The TCP port on 127.0.0.1.
    var port: Int { get }
    /// Every request received so far, oldest first.
    func requests() throws -> [RecordedRequest]
    /// How the recorded routes answer from now on.
    func respond(_ control: FixtureControl) throws
    /// Back to the default answers, and forgets the recorded requests.
    func reset() throws
    /// Stops the server; returns at once. Idempotent.
    func stop()
    /// Stops the server and waits (bounded) until it has ended.
    func stopAndWait() async
}

extension FixtureServer {
    /// `http://127.0.0.1:PORT`, without a trailing slash.
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Sets how the recorded routes (`GET /v1/forecast`, `/v1/search`, MET Norway's and
    /// OpenWeatherMap's) answer from now on (each `nil` keeps the default): `status`
    /// (default 200), `body` text (wins over `file`), `file` relative to the fixtures root,
    /// a `Retry-After` header of `retryAfter` seconds, `delaySeconds` before the answer, and
    /// extra response `headers` sent as given (e.g. `["Retry-After": "<an HTTP-date>"]`), in
    /// the order of their names. Failure shapes: `bodyBytes` makes the body exactly that long
    /// (the chosen body repeated), `gzip: false` never compresses, `chunked` sends it chunked
    /// without `Content-Length`, `truncateAt` sends only that many bytes of the announced body
    /// (on the wire) and closes. `lastModified` sends that `Last-Modified` and answers 304
    /// without a body to a request whose `If-Modified-Since` is exactly it. A request being
    /// answered keeps the answer it began with.
    public func respond(
        status: Int? = nil, body: String? = nil, retryAfter: Double? = nil, delaySeconds: Double? = nil,
        file: String? = nil, headers: [String: String]? = nil, bodyBytes: Int? = nil, gzip: Bool? = nil,
        chunked: Bool? = nil, truncateAt: Int? = nil, lastModified: String? = nil
    ) throws {
        try respond(
            FixtureControl(
                status: status, body: body, retryAfter: retryAfter, delaySeconds: delaySeconds, file: file,
                headers: headers, bodyBytes: bodyBytes, gzip: gzip, chunked: chunked, truncateAt: truncateAt,
                lastModified: lastModified))
    }
}

/// The wait for requests at a fixture HTTP server ran out.
public struct FixtureRequestsTimeout: Error, CustomStringConvertible {
    public var expected: Int
    public var received: Int
    public var description: String { "expected \(expected) requests at the fixture HTTP server, got \(received)" }
}
