import Foundation
import Testing
import WundercastSupport
import WundercastModel
import WundercastTestSupport

@Suite struct SecretsTests {
    let secrets = Secrets(["k3y/with+odd=chars", "0123abcd"])

    @Test(arguments: [
        (
            "GET https://h/data/2.5/weather?lat=1&appid=0123abcd&units=metric",
            "GET https://h/data/2.5/weather?lat=1&appid=REDACTED&units=metric"
        ),
        ("key k3y/with+odd=chars in text", "key REDACTED in text"),
        ("query appid=k3y%2Fwith%2Bodd%3Dchars&x=1", "query appid=REDACTED&x=1"),
        ("twice 0123abcd0123abcd", "twice REDACTEDREDACTED"),
        ("nothing secret", "nothing secret"),
        ("small hex appid=k3y%2fwith%2bodd%3dchars", "small hex appid=REDACTED"),
        // Echoed back in other letters (a provider's error text "Invalid key 0123ABCD").
        ("capitals 0123ABCD and mixed 0123AbCd, K3Y/With+Odd=Chars", "capitals REDACTED and mixed REDACTED, REDACTED"),
        (
            "a mark after it 0123abcd\u{301} and a joiner 0123abcd\u{200D}x",
            "a mark after it REDACTED\u{301} and a joiner REDACTED\u{200D}x"
        ),
    ])
    func valuesAndTheirURLFormAreReplaced(text: String, expected: String) {
        #expect(secrets.redact(text) == expected)
    }

    @Test func formEncodingIsReplacedToo() {
        #expect(Secrets(["my key"]).redact("q=my+key&x=my%20key") == "q=REDACTED&x=REDACTED")
    }

    @Test func blankValuesAreIgnored() {
        #expect(Secrets(["", "  "]).isEmpty)
        #expect(Secrets.none.redact("a b") == "a b")
    }

    @Test func everyTextOfAnErrorIsRedacted() {
        let errors: [WeatherError] = [
            .transport(code: 7, message: "to https://h/?appid=0123abcd"),
            .http(status: 401, reason: "Invalid API key 0123abcd", retryAfter: 3),
            .limited(status: 429, window: .day, reason: "0123abcd over", retryAfter: nil),
            .notJSON(status: 200, bytes: 3, contentType: "text/html; 0123abcd"),
            .errorBody(status: 200, providerCode: "0123abcd", reason: "0123abcd"),
            .decoding(message: "current.0123abcd is a string"),
        ]
        for error in errors {
            let redacted = error.redacted(by: secrets)
            #expect(!"\(redacted)".contains("0123abcd"))
            #expect(redacted.message.contains("REDACTED"), "\(redacted.message)")
            #expect(redacted.code == error.code && redacted.retryAfter == error.retryAfter)
        }
    }

    @Test func aRedactingLoggerRedactsMessagesAndFields() {
        let log = CapturedLog()
        let logger = log.logger.redacting(secrets)
        logger.log(.warning, "fetching https://h/?appid=0123abcd", fields: [("WUNDERCAST_URL", "?appid=0123abcd")])
        #expect(log.texts == ["fetching https://h/?appid=REDACTED", "WUNDERCAST_URL=?appid=REDACTED"])
        #expect(log.all.first?.priority == .warning)
    }

    /// The code location (the journal's CODE_FILE, CODE_FUNC) is redacted too; CODE_FUNC is
    /// the caller's `#function` by default.
    @Test func aRedactingLoggerRedactsTheCodeLocation() {
        let log = CapturedLog()
        let logger = log.logger.redacting(secrets)
        logger.info("plain", file: "Sources/0123abcd.swift", function: "fetch(appid:0123abcd)")
        logger.notice("default location")
        #expect(log.all.first?.file == "Sources/REDACTED.swift")
        #expect(log.all.first?.function == "fetch(appid:REDACTED)")
        #expect(log.all.last?.function == "aRedactingLoggerRedactsTheCodeLocation()")
        #expect(log.all.last?.file.hasSuffix("SecretsTests.swift") == true)
        #expect(log.all.last?.line == #line - 5)
    }
}

@Suite struct FailureKindTests {
    @Test(arguments: [
        (WeatherError.http(status: 401, reason: "Invalid API key", retryAfter: nil), "http-401", "APIKeyFile="),
        (.http(status: 403, reason: nil, retryAfter: nil), "http-403", "Contact="),
        (.http(status: 404, reason: nil, retryAfter: nil), "http-404", "URL="),
        (.notJSON(status: 200, bytes: 10, contentType: "text/html"), "not-json", "text/html"),
        (
            .errorBody(status: 200, providerCode: "404", reason: "city not found"), "error-body",
            "(code 404): city not found"
        ),
        (.tooLarge(limit: 2_097_152), "too-large", "2097152 bytes"),
        (.transport(code: 6, message: "Could not resolve host: x"), "dns", "host name"),
        (.transport(code: 35, message: "wrong version number"), "tls", "TLS"),
        (.transport(code: 18, message: "transfer closed"), "truncated", "cut short"),
    ])
    func codesAndMessagesSayWhatToFix(error: WeatherError, code: String, hint: String) {
        #expect(error.code == code)
        #expect(error.message.contains(hint), "\(error.message)")
    }

    @Test func onlyNetworkKindsAreOffline() {
        let offline = FailureKind.allCases.filter(\.isNetwork)
        #expect(offline == [.dns, .connect, .timeout, .tls, .network, .truncated])
    }

    /// Every code a failure can have is in the table of docs/PROTOCOL.md, with its state.
    @Test func everyCodeIsDocumented() throws {
        let protocolText = try String(
            contentsOf: Fixtures.directory.deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("docs/PROTOCOL.md"), encoding: .utf8)
        for kind in FailureKind.allCases where kind != .cancelled {
            let code = kind.code == "http" ? "http-NNN` (other)" : kind.code + "`"
            let state = kind.isNetwork ? "`offline`" : "`error`"
            let row = protocolText.split(separator: "\n").first { $0.hasPrefix("| `\(code) |") }
            #expect(row?.contains(state) == true, "\(code): \(String(describing: row))")
        }
    }
}
