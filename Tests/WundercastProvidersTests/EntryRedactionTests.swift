import Foundation
import Testing
import WundercastSupport
import WundercastModel
import WundercastProviders
import WundercastPipeline
import WundercastTestSupport

/// Issue 14, S2: a provider's answer is redacted where it enters (``RedactingHTTPClient``),
/// before anything decodes or cuts it — in every form a key can be echoed in.
@Suite struct EntryRedactionTests {
    static let key = "0123456789abcdef0123456789abcdef"
    static let zocca = Coordinate(latitude: 44.34, longitude: 10.99)

    /// `key` with each character written as `form` gives it.
    static func spelled(_ key: String, _ form: (Character, Int) -> String) -> String {
        key.enumerated().map { form($0.element, $0.offset) }.joined()
    }

    static func hex(_ c: Character, _ digits: Int, small: Bool) -> String {
        let text = String(c.asciiValue!, radix: 16, uppercase: !small)
        return String(repeating: "0", count: digits - text.count) + text
    }

    static let forms: [(String, String)] = [
        ("as sent", key),
        ("in capitals", key.uppercased()),
        ("percent-encoded, capital hex", spelled(key) { c, _ in "%" + hex(c, 2, small: false) }),
        ("percent-encoded, small hex", spelled(key) { c, _ in "%" + hex(c, 2, small: true) }),
        ("JSON \\u-escaped", spelled(key) { c, _ in "\\u" + hex(c, 4, small: true) }),
        ("JSON \\u-escaped, capital hex", spelled(key) { c, _ in "\\u" + hex(c, 4, small: false) }),
        (
            "mixed: literal, capital, %XX, \\u00XX by turns",
            spelled(key) { c, i in
                switch i % 4 {
                case 0: String(c)
                case 1: String(c).uppercased()
                case 2: "%" + hex(c, 2, small: i % 8 == 2)
                default: "\\u" + hex(c, 4, small: i % 8 == 3)
                }
            }
        ),
    ]

    @Test(arguments: forms)
    func everyFormOfTheKeyIsReplaced(_ name: String, _ form: String) {
        let secrets = Secrets([Self.key])
        let text = "before \(form) after"
        #expect(secrets.redact(text) == "before REDACTED after", "\(name)")
        #expect(secrets.redact(Array(text.utf8)) == Array("before REDACTED after".utf8), "\(name), as bytes")
    }

    @Test func escapesOfOtherCharactersInAKey() {
        let secrets = Secrets(["k3y/with+odd=chars\"\\"])
        for form in [
            "k3y%2fwith%2Bodd%3dchars%22%5C", "k3y%2Fwith%2bodd%3Dchars%22%5c",
            #"k3y\/with+odd=chars\"\\"#, #"K3Y\u002Fwith\u002bodd\u003Dchars\u0022\u005c"#,
        ] {
            #expect(secrets.redact("[\(form)]") == "[REDACTED]", "\(form)")
        }
        #expect(secrets.redact("k3y/with+odd=chars") == "k3y/with+odd=chars", "a part is not the key")
    }

    /// A key of many `%` characters against text of many `%25`: no blow-up, and found.
    @Test func ambiguousFormsAreFollowedTogether() {
        let secrets = Secrets([String(repeating: "%", count: 40)])
        let text = String(repeating: "%25%", count: 20) + " end"
        #expect(secrets.redact(text) == "REDACTED end")
    }

    /// Found by the hostile pass: what the outputs remove or blank between two characters of
    /// the key — a zero-width space (raw, `\u200b`, `%E2%80%8B`), a Unicode tag (a surrogate
    /// pair), a control escape — must not hide the key, or showing the text puts it together again.
    static let fillers: [(String, String)] = [
        ("zero-width space, raw", "\u{200B}"),
        ("zero-width space, JSON-escaped", "\\u200b"),
        ("zero-width space, percent-encoded", "%E2%80%8B"),
        ("a tag, as a surrogate pair", "\\uDB40\\uDC41"),
        ("a newline escape", "\\n"),
        ("a raw control character", "\u{01}"),
        ("a BOM and a soft hyphen", "\u{FEFF}\u{AD}"),
    ]

    @Test(arguments: fillers)
    func theKeyWithInvisibleCharactersBetweenItsCharactersIsReplaced(_ name: String, _ filler: String) {
        let secrets = Secrets([Self.key])
        let text = "before " + Self.key.map(String.init).joined(separator: filler) + " after"
        #expect(secrets.redact(text) == "before REDACTED after", "\(name)")
        #expect(!UntrustedText.sanitized(secrets.redact(text)).contains("0123456789"), "\(name)")
    }

    /// A UTF-16 body (which a JSON decoder reads) is redacted as the decoder will read it.
    @Test(arguments: [true, false])
    func aUTF16BodyIsRedactedAsItWillBeRead(bigEndian: Bool) {
        let text = #"{"name":"sky \#(Self.key)"}"#
        var body: [UInt8] = bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]
        for unit in text.utf16 {
            body += bigEndian ? [UInt8(unit >> 8), UInt8(unit & 0xFF)] : [UInt8(unit & 0xFF), UInt8(unit >> 8)]
        }
        let client = RedactingHTTPClient(ScriptedHTTPClient([]), secrets: Secrets([Self.key]))
        let clean = client.redacted(HTTPResponse(status: 200, headers: [:], body: body))
        #expect(String(decoding: clean.body, as: UTF8.self) == #"{"name":"sky REDACTED"}"#)
    }

    static func body(_ object: [String: Any]) throws -> [UInt8] {
        Array(try JSONSerialization.data(withJSONObject: object))
    }

    static func provider(_ http: ScriptedHTTPClient) -> OpenWeatherMapProvider {
        OpenWeatherMapProvider(baseURL: "https://api.example.org", apiKey: key, units: .metric, http: http)
    }

    static func failure(_ provider: OpenWeatherMapProvider) async -> WeatherError? {
        do {
            _ = try await ProviderQueue(provider).currentWeather(at: zocca)
            return nil
        } catch {
            return error
        }
    }

    /// The 403 of the issue: a text whose key runs over the 200-character cut of
    /// ``UntrustedText/sanitized(_:limit:)``; before, the cut came first and left the key's
    /// first characters (28 of 32 in the issue), which no redaction could recognise.
    @Test(arguments: [(403, 195), (403, 180), (200, 195), (200, 168)])
    func aKeyAtTheCutIsRedactedBeforeIt(status: Int, before: Int) async throws {
        let message = String(repeating: "x", count: before) + Self.key + " https://api.example.org/?appid=\(Self.key)"
        let http = ScriptedHTTPClient([
            .success(
                HTTPResponse(
                    status: status, headers: ["x-echo": Self.key],
                    body: try Self.body(["cod": status == 200 ? "403" : status, "message": message])))
        ])
        let error = try #require(await Self.failure(Self.provider(http)))
        #expect(error.message.contains("x" + Secrets.placeholder.prefix(4)), "\(error.message)")
        // Not even 4 characters of it (the 195 characters before leave room for 4).
        #expect(SecretPieces.leaked(Self.key, in: error.message, length: 4) == nil, "\(error.message)")
        #expect(SecretPieces.leaked(Self.key, in: "\(error)", length: 4) == nil, "\(error)")
    }

    /// A 200 answer with the key in every text member, in several forms: the weather holds none of it.
    @Test func aKeyInTheConditionOfASuccessIsRedacted() async throws {
        let escaped = Self.spelled(Self.key) { c, _ in "\\u" + Self.hex(c, 4, small: false) }
        var weather =
            try JSONSerialization.jsonObject(with: Data(try Fixtures.bytes(OpenWeatherMapVariants.weatherPath)))
            as! [String: Any]
        var condition = (weather["weather"] as! [[String: Any]])[0]
        condition["description"] = "rain \(Self.key.uppercased())"
        condition["icon"] = "10d"
        weather["weather"] = [condition]
        weather["name"] = Self.key
        let raw = String(decoding: try Self.body(weather), as: UTF8.self)
        // JSONSerialization writes the text as is; put the escaped form in the name by hand.
        let body = Array(raw.replacingOccurrences(of: "\"name\":\"\(Self.key)\"", with: "\"name\":\"\(escaped)\"").utf8)
        let forecast = try OpenWeatherMapVariants.forecast(after: OpenWeatherMapVariants.zoccaTime, timezone: 7200)
        let http = ScriptedHTTPClient([
            .success(HTTPResponse(status: 200, headers: [:], body: body)),
            .success(HTTPResponse(status: 200, headers: [:], body: forecast)),
        ])
        let result = try await ProviderQueue(Self.provider(http)).currentWeather(at: Self.zocca)
        #expect(result.condition == "rain REDACTED")
        let json = String(decoding: try JSONEncoder().encode(result), as: UTF8.self)
        #expect(SecretPieces.leaked(Self.key, in: json) == nil, "\(json)")
    }

    @Test func headersAndClientErrorsAreRedactedToo() async throws {
        let secrets = Secrets([Self.key])
        let http = ScriptedHTTPClient([
            .success(
                HTTPResponse(status: 200, headers: ["x-\(Self.key)": "a \(Self.key)"], body: Array(Self.key.utf8))),
            .failure(.transport(code: 7, message: String(repeating: "y", count: 250) + Self.key)),
        ])
        let client = RedactingHTTPClient(http, secrets: secrets)
        let response = try await client.get("https://h/", headers: [:])
        #expect(response.headers == ["x-REDACTED": "a REDACTED"])
        #expect(response.body == Array("REDACTED".utf8))
        await #expect(throws: WeatherError.transport(code: 7, message: String(repeating: "y", count: 250) + "REDACTED"))
        {
            _ = try await client.get("https://h/", headers: [:])
        }
    }
}
