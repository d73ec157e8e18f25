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
        var clean = response
        clean.body = secrets.redact(response.body)
        clean.headers = Dictionary(
            response.headers.map { (secrets.redact($0.key), secrets.redact($0.value)) },
            uniquingKeysWith: { _, last in last })
        return clean
    }
}
