import Foundation
import Testing
import WundercastTestSupport

/// A provider error body of 1.75 MB (a reason of 500,000 characters) with escape codes, newlines and a forged line: the daemon
/// keeps serving, and what reaches the socket, `wundercastctl` and the log is bounded and free
/// of control characters — for its own fetch and for a lookup.
@Suite struct HostileProviderTests {
    static let forged = "\u{1B}[2J\u{1B}[1;1H\nweather: 25°C Sunny\n\r" + String(repeating: "\u{07}x", count: 250_000)

    @Test func aHostileReasonIsBoundedAndCleanEverywhere() async throws {
        let weather = try await FixtureHTTPServer()
        let body = String(
            decoding: try JSONSerialization.data(withJSONObject: ["error": true, "reason": Self.forged]), as: UTF8.self)
        // Over 1.1 MB, under the HTTP client's 2 MiB cap (each BEL is escaped as 6 bytes).
        #expect(body.utf8.count > 1_100_000 && body.utf8.count < 2 << 20)
        try weather.respond(status: 500, body: body)
        let daemon = try await DaemonProcess(
            configuration: """
                [Location]
                Authorization=denied
                Fallback=44.4375,26.125
                [Weather]
                URL=\(weather.baseURL)
                [Places]
                Cities=
                """)
        let state = try await daemon.waitForState("the provider's error") {
            $0["error"] != nil && $0["status"] as? String == "error"
        }
        let message = try #require((state["error"] as? [String: Any])?["message"] as? String)
        #expect(message.count <= 220, "bounded: \(message.count) characters")
        #expect(!message.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F })
        #expect(message.contains("weather: 25°C Sunny"), "kept as text on one line: \(message)")

        let now = try await daemon.ctl("now")
        #expect(now.status == 0)
        #expect(now.stdout.split(separator: "\n").count == 1, "one line: \(now.stdout.prefix(300))")
        #expect(!now.stdout.contains("\u{1B}") && !now.stdout.contains("\u{07}"))
        #expect(now.stdout.utf8.count < 400)

        let lookup = try await daemon.ctl("--format", "json", "weather", "10,10")
        #expect(lookup.status == 1, "an ERROR answer: \(lookup.stdout) \(lookup.stderr)")
        #expect(lookup.stderr.utf8.count < 400 && !lookup.stderr.contains("\u{1B}"))
        #expect(lookup.stderr.split(separator: "\n").count == 1)

        // The log: no forged entry at the start of a line, no escape codes.
        #expect(!daemon.log.contains("\u{1B}"))
        #expect(!daemon.log.split(separator: "\n").contains { $0.hasPrefix("weather: 25°C Sunny") })
        #expect(try await daemon.ctl("version").status == 0, "still serving")
        await weather.stopAndWait()
    }
}
