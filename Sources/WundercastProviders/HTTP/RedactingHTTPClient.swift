import WundercastSupport
import WundercastModel

/// An ``HTTPClient`` that redacts ``secrets`` from everything another client brings back, as it
/// arrives: the body's bytes, every header name and value, and the texts of every error it
/// throws (``WeatherError/redacted(by:)``). This is the one redaction of a provider's answers:
/// whatever the provider then decodes, cuts (``UntrustedText/sanitized(_:limit:)``, 200
/// characters) or keeps is already clean, so no part of a key can survive a cut.
///
/// A provider with a key wraps its client in one, with its own ``WeatherProvider/secrets``
/// (OpenWeatherMap); without secrets it passes everything through unchanged.
public struct RedactingHTTPClient: HTTPClient {
    /// The client that talks to the provider.
    public let http: any HTTPClient
    public let secrets: Secrets

    public init(_ http: any HTTPClient, secrets: Secrets) {
        self.http = http
        self.secrets = secrets
    }

    public func get(_ url: String, headers: [String: String]) async throws(WeatherError) -> HTTPResponse {
        let response: HTTPResponse
        do {
            response = try await http.get(url, headers: headers)
        } catch {
            throw error.redacted(by: secrets)
        }
        return redacted(response)
    }

    /// `response` with its body and headers redacted; the instants parsed from the headers stay.
    public func redacted(_ response: HTTPResponse) -> HTTPResponse {
        guard !secrets.isEmpty else { return response }
        var response = response
        response.body = Self.utf8(response.body)
        var clean = response
        clean.body = secrets.redact(response.body)
        clean.headers = Dictionary(
            response.headers.map { (secrets.redact($0.key), secrets.redact($0.value)) },
            uniquingKeysWith: { _, last in last })
        return clean
    }

    /// `body` as UTF-8: a UTF-16 body (with a byte order mark, or in JSON's own detection, a NUL
    /// in every other of the first four bytes; RFC 8259 §8.1 asks for UTF-8, yet a JSON decoder
    /// reads UTF-16 too) is transcoded first, so that the redaction sees the key a decoder
    /// would read. Anything else is returned as it is.
    static func utf8(_ body: [UInt8]) -> [UInt8] {
        guard body.count >= 4 else { return body }
        let bigEndian: Bool
        var start = 0
        switch (body[0], body[1], body[2], body[3]) {
        case (0xFE, 0xFF, _, _): (bigEndian, start) = (true, 2)
        case (0xFF, 0xFE, let third, let fourth) where !(third == 0 && fourth == 0): (bigEndian, start) = (false, 2)
        case (0, let second, 0, let fourth) where second != 0 && fourth != 0: bigEndian = true
        case (let first, 0, let third, 0) where first != 0 && third != 0: bigEndian = false
        default: return body
        }
        var units: [UInt16] = []
        units.reserveCapacity((body.count - start) / 2)
        var i = start
        while i + 1 < body.count {
            units.append(
                bigEndian ? UInt16(body[i]) << 8 | UInt16(body[i + 1]) : UInt16(body[i + 1]) << 8 | UInt16(body[i]))
            i += 2
        }
        return Array(String(decoding: units, as: UTF16.self).utf8)
    }
}
