import Foundation
import Testing
import WundercastSupport
import WundercastModel
import WundercastProviders
import WundercastPipeline

/// Provider text made safe (``UntrustedText``), `Retry-After` in both forms, Open-Meteo's
/// request-limit answers.
@Suite struct UntrustedTextTests {
    @Test(arguments: [
        ("plain reason", "plain reason"),
        ("line one\nline two", "line one line two"),
        ("\u{1B}[31mred\u{1B}[0m", "[31mred [0m"),
        ("tab\there\r\n", "tab here"),
        ("nul\u{0}del\u{7F}c1\u{85}csi\u{9B}end", "nul del c1 csi end"),
        ("sep\u{2028}par\u{2029}x", "sep par x"),
        ("Evil\u{202E}nwoT\u{202C} \u{2066}iso\u{2069}\u{200F}", "Evil nwoT iso"),
        ("  \n leading and trailing \t ", "leading and trailing"),
        ("Zürich – Tromsø ☀️", "Zürich – Tromsø ☀️"),
        ("", ""),
    ])
    func controlCharactersBecomeSpaces(_ input: String, _ expected: String) {
        #expect(UntrustedText.sanitized(input) == expected)
    }

    /// Invisible format characters vanish (one inside a word does not split it); variation
    /// selectors of an emoji stay.
    @Test(arguments: [
        ("Clear\u{200B}sky", "Clearsky"),
        ("Zero\u{200C}\u{200D}width", "Zerowidth"),
        ("word\u{2060}joiner\u{2064}", "wordjoiner"),
        ("\u{FEFF}BOM first", "BOM first"),
        ("soft\u{00AD}hyphen", "softhyphen"),
        ("tagged\u{E0001}\u{E0069}\u{E0067}\u{E006E}\u{E007F}", "tagged"),
        ("gap \u{200B} between", "gap between"),
        ("\u{200B} \u{FEFF}", ""),
        ("☀\u{FE0F} sun", "☀\u{FE0F} sun"),
    ])
    func invisibleFormatCharactersVanish(_ input: String, _ expected: String) {
        #expect(UntrustedText.sanitized(input) == expected)
    }

    @Test func invisibleCharactersDoNotCountTowardsTheBound() {
        #expect(UntrustedText.sanitized(String(repeating: "\u{200B}", count: 1000) + "ok", limit: 2) == "ok")
    }

    /// Through a provider: Open-Meteo's `reason` with a hidden zero-width space and tags.
    @Test func aProviderReasonLosesItsInvisibleCharacters() {
        let body = Array(#"{"error":true,"reason":"Cannot\u200b initialize\udb40\udc41\udb40\udc42"}"#.utf8)
        #expect(throws: WeatherError.http(status: 400, reason: "Cannot initialize", retryAfter: nil)) {
            try OpenMeteoProvider.decode(status: 400, body: body)
        }
    }

    @Test func longTextIsCutWithAnEllipsis() {
        let long = String(repeating: "a", count: 1_100_000)
        let cut = UntrustedText.sanitized(long)
        #expect(cut.unicodeScalars.count == 200)
        #expect(cut == String(repeating: "a", count: 199) + "…")
        #expect(UntrustedText.sanitized(String(repeating: "b", count: 200)) == String(repeating: "b", count: 200))
        #expect(UntrustedText.sanitized("word " + String(repeating: "c", count: 300), limit: 6) == "word…")
        #expect(UntrustedText.sanitized(String(repeating: "\n", count: 1000) + "ok") == "ok")
    }
}

@Suite struct WeatherErrorMessageTests {
    @Test func reasonAndTransportTextAreSanitisedInTheMessage() {
        let huge = String(repeating: "x", count: 1_100_000)
        let http = WeatherError.http(status: 429, reason: "slow\u{1B}[2J down\n" + huge, retryAfter: nil)
        #expect(http.message.hasPrefix("HTTP 429: slow [2J down xxx"))
        #expect(http.message.hasSuffix("…"))
        #expect(http.message.unicodeScalars.count == "HTTP 429: ".count + 200)
        #expect(!http.message.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })

        let transport = WeatherError.transport(code: 7, message: "Failed to connect\r\nX-Injected: 1")
        #expect(transport.message == "cannot connect to the provider (curl 7): Failed to connect X-Injected: 1")
        #expect(
            WeatherError.decoding(message: "current.\u{1B}x is a string").message
                == "bad response body: current. x is a string")
    }

    @Test func limitedKeepsCodeMessageAndRetryAfter() {
        let error = WeatherError.limited(
            status: 429, window: .hour, reason: "Hourly API request limit exceeded. Please try again in the next hour.",
            retryAfter: 30)
        #expect(error.code == "http-429")
        #expect(error.message == "HTTP 429: Hourly API request limit exceeded. Please try again in the next hour.")
        #expect(error.retryAfter == 30)
        #expect(error.limitWindow == .hour)
        #expect(WeatherError.http(status: 429, reason: "slow down", retryAfter: 5).limitWindow == nil)
        #expect(WeatherError.http(status: 429, reason: "slow down", retryAfter: 5).retryAfter == 5)
    }
}

@Suite struct RetryAfterTests {
    /// A stand-in date parser: the test fixes what "the date" means, the HTTP client supplies
    /// libcurl's `curl_getdate` (tested in WundercastHTTPTests).
    static func date(_ text: String) -> Double? {
        text == "Wed, 21 Oct 2015 07:28:00 GMT" ? 1_445_412_480 : nil
    }

    @Test(arguments: [
        ("120", 120.0 as Double?),
        (" 3 ", 3),
        ("0", 0),
        ("1.5", 1.5),
        ("-5", nil),
        ("", nil),
        ("soon", nil),
        ("inf", nil),
        ("0x1p30", nil),
        ("1e9", nil),
        ("1.2.3", nil),
        ("Wed, 21 Oct 2015 07:28:00 GMT", 90),  // 90 s after "now" below
    ])
    func bothForms(_ value: String, _ expected: Double?) {
        #expect(RetryAfter.seconds(value, now: 1_445_412_390, httpDate: Self.date) == expected)
    }

    @Test func aDateInThePastMeansNow() {
        #expect(RetryAfter.seconds("Wed, 21 Oct 2015 07:28:00 GMT", now: 1_445_412_481, httpDate: Self.date) == 0)
    }
}

@Suite struct OpenMeteoLimitTests {
    @Test(arguments: [
        ("Daily API request limit exceeded. Please try again tomorrow.", LimitWindow.day),
        ("Hourly API request limit exceeded. Please try again in the next hour.", .hour),
        ("Minutely API request limit exceeded. Please try again in one minute.", .minute),
    ])
    func limitReasonsNameTheirWindow(_ reason: String, _ window: LimitWindow) throws {
        let body = Array(#"{"error":true,"reason":"\#(reason)"}"#.utf8)
        #expect(throws: WeatherError.limited(status: 429, window: window, reason: reason, retryAfter: nil)) {
            try OpenMeteoProvider.decode(status: 429, body: body)
        }
        do {
            _ = try OpenMeteoProvider.decode(status: 429, body: body)
        } catch {
            #expect(error.limitWindow == window)
            #expect(error.code == "http-429")
            #expect(error.message == "HTTP 429: \(reason)")
        }
    }

    /// Open-Meteo's limit body under HTTP 200 is an error report in a success answer:
    /// `error-body` (docs/PROTOCOL.md), not `http-200`; the limit still sets the back-off.
    @Test func aLimitBodyUnderHTTP200IsAnErrorBodyThatStillWaitsForItsWindow() throws {
        let reason = "Daily API request limit exceeded. Please try again tomorrow."
        let body = Array(#"{"error":true,"reason":"\#(reason)"}"#.utf8)
        let error = try #require(throws: WeatherError.self) { try OpenMeteoProvider.decode(status: 200, body: body) }
        #expect(error == .limited(status: 200, window: .day, reason: reason, retryAfter: nil))
        #expect(error.code == "error-body")
        #expect(error.message == "error report in an HTTP 200 answer: \(reason)")
        #expect(error.kind == .rateLimited)
        var policy = RetryPolicy()
        let now = Date(timeIntervalSince1970: 1_764_586_770)  // 2025-12-01 10:59:30 UTC (RetryPolicyTests.now)
        #expect(policy.failed(error, now: now) == RetryPolicy.untilNext(.day, after: now))
    }

    /// One real report had only `reason`, without `error`.
    @Test func reasonWithoutErrorMember() {
        let reason = "Daily API request limit exceeded. Please try again tomorrow."
        #expect(throws: WeatherError.limited(status: 429, window: .day, reason: reason, retryAfter: nil)) {
            try OpenMeteoProvider.decode(status: 429, body: Array(#"{"reason":"\#(reason)"}"#.utf8))
        }
        #expect(throws: WeatherError.http(status: 503, reason: "maintenance", retryAfter: nil)) {
            try OpenMeteoProvider.decode(status: 503, body: Array(#"{"reason":"maintenance"}"#.utf8))
        }
    }

    @Test func otherReasonsAreNotLimits() {
        #expect(throws: WeatherError.http(status: 429, reason: "Too many concurrent requests", retryAfter: nil)) {
            try OpenMeteoProvider.decode(
                status: 429, body: Array(#"{"error":true,"reason":"Too many concurrent requests"}"#.utf8))
        }
    }

    /// A 1.1 MB reason full of control characters: what is kept is bounded and clean.
    @Test func aHugeReasonIsBoundedBeforeItIsKept() throws {
        let reason = "\\u001b[31m" + String(repeating: "spam\\n", count: 220_000)
        let body = Array(#"{"error":true,"reason":"\#(reason)"}"#.utf8)
        #expect(body.count > 1_100_000)
        do {
            _ = try OpenMeteoProvider.decode(status: 400, body: body)
            Issue.record("no error thrown")
        } catch {
            guard case .http(400, let kept?, nil) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            // The ESC is gone; a blank before the cut is dropped, so 199 or 200 scalars.
            #expect((199...200).contains(kept.unicodeScalars.count))
            #expect(kept.hasPrefix("[31mspam spam"))
            #expect(kept.hasSuffix("…"))
        }
    }
}
