import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// What the fixture HTTP server answers to one request, decided without any I/O but reading
/// the fixture files: the routes and failure shapes of `Tests/Tools/fixture_http_server.py`
/// (its docstring is the reference), in the same order of headers.
struct FixtureResponder: Sendable {
    /// A request as it arrived: request line and headers (names as sent).
    struct Request: Sendable {
        var method: String
        /// The request target, e.g. `/v1/forecast?latitude=1&longitude=2`.
        var target: String
        var headers: [(name: String, value: String)]

        var path: String { String(target.prefix { $0 != "?" && $0 != "#" }) }
        var queryString: String {
            guard let mark = target.firstIndex(of: "?") else { return "" }
            return String(target[target.index(after: mark)...].prefix { $0 != "#" })
        }
        /// The last value of header `name` (case-insensitive), as Python's `headers.get` gives the first;
        /// requests here never repeat a header that matters.
        func header(_ name: String) -> String? {
            headers.last { $0.name.lowercased() == name.lowercased() }?.value
        }
    }

    /// The answer; `delay` seconds are waited before it is sent.
    struct Reply: Sendable {
        var status: Int
        var headers: [(String, String)]
        var body: [UInt8]
        var chunked = false
        /// Send only this many bytes of the wire form (after compression and chunking), then close.
        var truncateAt: Int?
        var delay: Double = 0

        /// Status line, headers and body as they go on the wire; `head` leaves the body out.
        func wire(head: Bool) -> [UInt8] {
            var text = "HTTP/1.1 \(status) \(FixtureResponder.reason(status))\r\n"
            for (name, value) in headers { text += "\(name): \(value)\r\n" }
            text += "\r\n"
            var bytes = Array(text.utf8)
            guard !head else { return bytes }
            if chunked {
                var offset = 0
                while offset < body.count {
                    let end = min(body.count, offset + 16384)
                    bytes += Array(String(end - offset, radix: 16).utf8) + [13, 10] + body[offset..<end] + [13, 10]
                    offset = end
                }
                bytes += Array("0\r\n\r\n".utf8)
            } else {
                bytes += body
            }
            return bytes
        }
    }

    static let metric = "weather/open-meteo/current_bucharest_metric.json"
    static let imperial = "weather/open-meteo/current_bucharest_fahrenheit_mph.json"
    static let noResults = "weather/open-meteo/geocoding_no_results.json"
    /// Open-Meteo's Marine API at sea (the North Sea recording).
    static let marine = "weather/open-meteo-marine/northsea_all_variables_current_minutely15_hourly_daily_2026-10.json"
    static let metNorway = "weather/metno/compact_newyork.wrapped.json"
    static let metNorwayPath = "/weatherapi/locationforecast/2.0/compact"
    /// Official alerts: each source's path and its recorded answer.
    static let alerts = [
        "/alerts/active": "alerts/nws/active_point_phoenix_2024-07-18.json",
        "/alerts": "alerts/brightsky/alerts_muenster_wind_gusts.json",
        "/weatherapi/metalerts/2.0/current.json": "alerts/metalerts/current_marine_gale_3_multipolygon_no.json",
        "/collections/weather-alerts/items": "alerts/eccc/alerts_wfs_env_canada_handwritten.json",
    ]
    static let openWeatherMap = [
        "/data/2.5/weather": "weather/openweathermap/weather_zocca_standard.json",
        "/data/2.5/forecast": "weather/openweathermap/forecast_moravska-trebova_2015.json",
    ]
    static let recordedHeaders = ["Date", "Expires", "Last-Modified"]

    /// The fixtures directory, symbolic links resolved.
    let root: String

    init(root: URL) {
        self.root =
            realpath(root.path, nil).map { resolved in
                defer { free(resolved) }
                return String(cString: resolved)
            } ?? root.path
    }

    /// The request as recorded (`requests.jsonl` of the Python server).
    static func record(_ request: Request, at time: Date) -> RecordedRequest {
        var headers: [String: String] = [:]
        for (name, value) in request.headers { headers[name.lowercased()] = value }
        return RecordedRequest(
            method: request.method, path: request.path, queryString: request.queryString,
            query: query(request.queryString), headers: headers, time: time.timeIntervalSince1970)
    }

    /// Python's `dict(parse_qsl(query, keep_blank_values=True))`: `&`-separated pairs, `+` as a
    /// blank, percent-decoded as UTF-8; the last value of a name wins.
    static func query(_ string: String) -> [String: String] {
        var result: [String: String] = [:]
        for pair in string.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            result[decode(parts[0])] = parts.count > 1 ? decode(parts[1]) : ""
        }
        return result
    }

    private static func decode(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        var rest = Array(text.utf8)[...]
        while let byte = rest.popFirst() {
            if byte == UInt8(ascii: "+") {
                bytes.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%"), rest.count >= 2,
                let value = UInt8(String(decoding: rest.prefix(2), as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                rest = rest.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The answer to `request` under `control`; `now` for the `Date` header.
    func reply(to request: Request, control: FixtureControl, now: Date) -> Reply {
        let path = request.path
        let query = Self.query(request.queryString)
        var reply: Reply
        switch path {
        case "/v1/forecast":
            let locations = (query["latitude"] ?? "").split(separator: ",", omittingEmptySubsequences: false).count
            let file = query["temperature_unit"] == "fahrenheit" ? Self.imperial : Self.metric
            reply = answer(request, default: file, control: control, copies: locations)
        case "/v1/search":
            reply = answer(request, default: Self.noResults, control: control)
        case "/v1/marine":
            reply = answer(request, default: Self.marine, control: control)
        case Self.metNorwayPath:
            reply = answer(request, default: Self.metNorway, control: control)
        case let path where Self.openWeatherMap[path] != nil:
            reply = answer(request, default: Self.openWeatherMap[path]!, control: control)
        case let path where Self.alerts[path] != nil:
            reply = answer(request, default: Self.alerts[path]!, control: control)
        case "/redirect" where Self.isLoopback(query["to"] ?? ""):
            reply = Self.make(
                302, [], contentType: "text/plain", [("Location", query["to"]!), ("X-Fixture-Hop", "redirect")],
                request: request)
        default:
            reply = Self.notFound(path, request)
        }
        reply.headers.insert(
            contentsOf: [("Server", "wundercast-fixture/1 Swift"), ("Date", Self.httpDate(now))], at: 0)
        return reply
    }

    /// A redirect target the server follows: a path, or a URL on 127.0.0.1 (any scheme).
    static func isLoopback(_ target: String) -> Bool {
        if target.hasPrefix("/") && !target.hasPrefix("//") { return true }
        return URLComponents(string: target)?.host == "127.0.0.1"
    }

    private static func notFound(_ path: String, _ request: Request) -> Reply {
        make(404, Array(#"{"error": true, "reason": \#(jsonString("no fixture for \(path)"))}"#.utf8), request: request)
    }

    /// `text` as a JSON string the way Python's `json.dumps` writes it (ASCII only).
    static func jsonString(_ text: String) -> String {
        var out = "\""
        for unit in text.utf16 {
            switch unit {
            case 0x22: out += "\\\""
            case 0x5C: out += "\\\\"
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09: out += "\\t"
            case 0x20..<0x7F: out.unicodeScalars.append(Unicode.Scalar(UInt8(unit)))
            default:
                out +=
                    "\\u" + String(repeating: "0", count: 4 - String(unit, radix: 16).count) + String(unit, radix: 16)
            }
        }
        return out + "\""
    }

    private func answer(_ request: Request, default file: String, control: FixtureControl, copies: Int = 1) -> Reply {
        var extra: [(String, String)] = []
        if let retryAfter = control.retryAfter { extra.append(("Retry-After", Self.pythonNumber(retryAfter))) }
        // In the order of their names (the Python server gets them so too).
        for (name, value) in (control.headers ?? [:]).sorted(by: { $0.key < $1.key }) { extra.append((name, value)) }
        var given = Set(extra.map { $0.0.lowercased() })
        if let lastModified = control.lastModified {
            given.insert("last-modified")
            extra.append(("Last-Modified", lastModified))
            if request.header("If-Modified-Since") == lastModified {
                var reply = Self.make(304, [], extra, request: request)
                reply.delay = control.delaySeconds ?? 0
                return reply
            }
        }
        var body: [UInt8]
        var recordedStatus: Int?
        if let text = control.body {
            body = Array(text.utf8)
        } else {
            let relative = control.file ?? file
            guard let bytes = fixture(relative) else {
                var reply = Self.notFound(relative, request)
                reply.delay = control.delaySeconds ?? 0
                return reply
            }
            body = bytes
            if relative.hasSuffix(".wrapped.json"), let recorded = Self.unwrap(bytes) {
                body = recorded.data
                recordedStatus = recorded.status
                for name in Self.recordedHeaders where !given.contains(name.lowercased()) {
                    if let value = recorded.headers[name] { extra.append((name, value)) }
                }
            }
        }
        let status = control.status ?? recordedStatus ?? 200
        if copies > 1 && (200..<300).contains(status) && control.body == nil {
            let one = Self.strip(body)
            body =
                [UInt8(ascii: "[")] + Array(repeating: one, count: copies).joined(separator: [UInt8(ascii: ",")])
                + [UInt8(ascii: "]")]
        }
        if let size = control.bodyBytes, size >= 0 {
            body = Self.repeated(body, toExactly: size)
        }
        var reply = Self.make(status, body, extra, request: request, compress: control.gzip != false)
        reply.chunked = control.chunked == true
        reply.truncateAt = control.truncateAt
        reply.delay = control.delaySeconds ?? 0
        if reply.chunked {
            reply.headers.removeAll { $0.0 == "Content-Length" }
            reply.headers.insert(("Transfer-Encoding", "chunked"), at: 1)
        }
        return reply
    }

    /// `body` repeated and cut to exactly `size` bytes (empty stays empty).
    static func repeated(_ body: [UInt8], toExactly size: Int) -> [UInt8] {
        guard !body.isEmpty else { return [] }
        var result: [UInt8] = []
        result.reserveCapacity(size)
        while result.count < size { result += body.prefix(size - result.count) }
        return result
    }

    /// The file at `relative` under the root; `nil` when it cannot be read or is not inside the root.
    func fixture(_ relative: String) -> [UInt8]? {
        let joined = relative.hasPrefix("/") ? relative : root + "/" + relative
        guard let resolved = realpath(joined, nil) else { return nil }
        let path = String(cString: resolved)
        free(resolved)
        guard path == root || path.hasPrefix(root + "/") else { return nil }
        return FileManager.default.contents(atPath: path).map { [UInt8]($0) }
    }

    /// A recorded answer `{"status_code", "headers", "data"}`: `data` as JSON, with its status and headers.
    static func unwrap(_ bytes: [UInt8]) -> (status: Int?, headers: [String: String], data: [UInt8])? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any],
            let data = object["data"],
            let encoded = try? JSONSerialization.data(
                withJSONObject: data, options: [.fragmentsAllowed, .withoutEscapingSlashes])
        else { return nil }
        return (object["status_code"] as? Int, object["headers"] as? [String: String] ?? [:], [UInt8](encoded))
    }

    /// Headers and body of an answer: `Content-Type`, `Content-Length`, `Vary`, `extra`, and
    /// `Content-Encoding: gzip` when a non-empty body is compressed for a client that takes gzip.
    private static func make(
        _ status: Int, _ body: [UInt8], contentType: String = "application/json", _ extra: [(String, String)] = [],
        request: Request, compress: Bool = true
    ) -> Reply {
        var body = body
        var extra = extra
        if !body.isEmpty, compress, acceptsGzip(request.header("Accept-Encoding") ?? ""),
            let compressed = try? Gzip.compress(body)
        {
            body = compressed
            extra.append(("Content-Encoding", "gzip"))
        }
        let headers = [("Content-Type", contentType), ("Content-Length", "\(body.count)"), ("Vary", "Accept-Encoding")]
        return Reply(status: status, headers: headers + extra, body: body)
    }

    /// Python's `bytes.strip()`: ASCII white space off both ends.
    static func strip(_ bytes: [UInt8]) -> [UInt8] {
        let space: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0B, 0x0C, 0x0D]
        return Array(bytes.drop { space.contains($0) }.reversed().drop { space.contains($0) }.reversed())
    }

    /// Whether `Accept-Encoding` takes gzip (`gzip`, `x-gzip` or `*`, not at `q=0`).
    static func acceptsGzip(_ header: String) -> Bool {
        for item in header.split(separator: ",") {
            let parts = item.split(separator: ";", maxSplits: 1)
            let coding = parts.first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
            guard ["gzip", "x-gzip", "*"].contains(coding) else { continue }
            let quality = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces).lowercased() : ""
            guard quality.hasPrefix("q=") else { return true }
            return (Double(quality.dropFirst(2)) ?? 1) != 0
        }
        return false
    }

    /// A number as Python's `str` writes what JSON gave it: `3` for 3.0, `2.5` for 2.5.
    static func pythonNumber(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    /// `Wed, 21 Oct 2015 07:28:00 GMT` (RFC 9110 IMF-fixdate).
    static func httpDate(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return
            "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(1900 + parts.tm_year) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }

    /// The reason phrase Python's `http.server` sends for `status` (empty for one it does not know).
    static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 203: "Non-Authoritative Information"
        case 204: "No Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: ""
        }
    }
}
