import Foundation
import Testing
import WundercastModel
import WundercastProtocol
import WundercastFormats
import WundercastTestSupport

/// The built `wundercastctl` against a fake daemon: each `--format` checked against its bar's
/// documented format, exit statuses, templates and hostile texts.
@Suite final class CtlFormatProcessTests {
    let socket: TemporarySocketPath
    var path: String { socket.path }
    var directory: String { socket.directory }

    init() throws { socket = try TemporarySocketPath() }

    /// A fake daemon that answers every request with `line`.
    func daemon(answering line: String) throws -> FakeDaemon {
        try FakeDaemon(path: path) { _ in .lines([line]) }
    }

    func ctl(_ arguments: String...) async throws -> ProcessResult {
        try await runProcess(try Binaries.path("wundercastctl"), ["--socket", path] + arguments, timeout: .seconds(50))
    }

    func json(_ text: some StringProtocol) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    func lines(_ text: String) -> [String] {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    @Test func waybarPrintsOneJSONObjectWithItsMembers() async throws {
        let fake = try daemon(answering: SampleStates.line(SampleStates.weather(code: 3)))
        defer { fake.stop() }
        let result = try await ctl("now", "--format", "waybar")
        #expect(result.status == 0)
        let output = lines(result.stdout)
        #expect(output.count == 1)
        let object = try json(output[0])
        #expect(object["text"] is String && object["tooltip"] is String && object["alt"] as? String == "overcast")
        #expect(object["class"] as? [String] == ["overcast"])
        #expect(object["percentage"] as? Int == 72)
        #expect(fake.requests.value == ["now"])
    }

    @Test(arguments: [(95, Int32(33)), (99, 33), (65, 33), (3, 0), (61, 0)])
    func i3blocksPrintsThreeLinesAndExits33OnlyForSevereWeather(_ code: Int, _ status: Int32) async throws {
        let fake = try daemon(answering: SampleStates.line(SampleStates.weather(code: code)))
        defer { fake.stop() }
        let result = try await ctl("now", "--format", "i3blocks")
        #expect(result.status == status, "\(result.stderr)")
        let output = lines(result.stdout)
        #expect(output.count == 3)
        #expect(output[0].contains("-5°C"))
        #expect(output[2] == "", "no colour by default: the bar's own, on any theme")
        let dark = lines(try await ctl("now", "--format", "i3blocks", "--colors", "dark").stdout)
        #expect(dark[2] == (status == 33 ? "#FF5555" : ""), "fresh weather keeps the bar's colour")
        // The user's scheme for every bar, from the environment.
        var environment = ProcessInfo.processInfo.environment
        environment["WUNDERCAST_COLORS"] = "light"
        let light = try await runProcess(
            try Binaries.path("wundercastctl"), ["--socket", path, "now", "--format", "i3blocks"],
            environment: environment, timeout: .seconds(50))
        #expect(lines(light.stdout)[2] == (status == 33 ? "#B00020" : ""))
        #expect(light.status == status, "the urgent flag whatever the colours")
    }

    @Test func i3statusRsPrintsIconStateAndText() async throws {
        let fake = try daemon(answering: SampleStates.line(SampleStates.weather(code: 71)))
        defer { fake.stop() }
        let result = try await ctl("now", "--format", "i3status-rs")
        #expect(result.status == 0)
        let object = try json(try #require(lines(result.stdout).first))
        #expect(object["icon"] as? String == "weather_snow")
        #expect(["Idle", "Info", "Good", "Warning", "Critical"].contains(object["state"] as? String ?? ""))
        // The icon member shows the icon: the texts carry none of their own.
        #expect(object["text"] as? String == "-5°C Slight snow fall")
        #expect(object["short_text"] as? String == "-5°C")
    }

    /// `short_text` follows `--template`, or `--short-template` when given.
    @Test func shortTextFollowsTheTemplateOptions() async throws {
        let fake = try daemon(answering: SampleStates.line(SampleStates.weather(code: 0, isDay: false)))
        defer { fake.stop() }
        func block(_ arguments: String...) async throws -> [String: Any] {
            let result = try await runProcess(
                try Binaries.path("wundercastctl"), ["--socket", path, "now", "-f", "i3bar"] + arguments,
                timeout: .seconds(50))
            let line = try #require(lines(result.stdout).last, "\(result.stderr)")
            let blocks = try JSONSerialization.jsonObject(with: Data(line.dropLast().utf8)) as? [[String: Any]]
            return try #require(blocks?.first)
        }
        let templated = try await block("-t", "{temperature}{unit} {place}")
        #expect(templated["short_text"] as? String == "-5°C 12 km NE of Regensburg")
        #expect(templated["full_text"] as? String == templated["short_text"] as? String)
        let short = try await block("-t", "{condition}", "--short-template", "{icon}")
        #expect(short["full_text"] as? String == "Clear sky" && short["short_text"] as? String == "🌙")
        #expect(try await block()["short_text"] as? String == "🌙 -5°C")
        let rs = try await ctl("now", "-f", "i3status-rs", "--short-template", "{temperature}{unit}{icon}")
        #expect(try json(try #require(lines(rs.stdout).first))["short_text"] as? String == "-5°C")
    }

    @Test func i3barPrintsTheHeaderThenAnArrayOfBlocks() async throws {
        let fake = try daemon(answering: SampleStates.line(SampleStates.weather(code: 0, isDay: false)))
        defer { fake.stop() }
        let result = try await ctl("now", "--format", "i3bar")
        #expect(result.status == 0)
        let output = lines(result.stdout)
        #expect(output.count == 3)
        #expect(try json(output[0])["version"] as? Int == 1)
        #expect(output[1] == "[")
        #expect(output[2].hasSuffix("],"))
        let blocks = try #require(
            try JSONSerialization.jsonObject(with: Data(output[2].dropLast().utf8)) as? [[String: Any]])
        #expect(blocks.first?["full_text"] as? String == "🌙 -5°C Clear sky")
        #expect(blocks.first?["name"] as? String == "wundercast")
    }

    @Test func polybarPlainAndJSON() async throws {
        let line = SampleStates.line(SampleStates.weather(code: 45))
        let fake = try daemon(answering: line)
        defer { fake.stop() }
        let polybar = try await ctl("now", "--format", "polybar", "--icons", "nerd")
        #expect(polybar.stdout == "\u{E303} -5°C Fog\n")
        let plain = try await ctl("now")
        #expect(
            plain.stdout.hasPrefix("-5°C Fog, humidity 72%, wind 5 km/h from E, 12 km NE of Regensburg, "),
            "\(plain.stdout)")
        let raw = try await ctl("--json", "now")
        #expect(raw.stdout == line + "\n")
        let weather = try await ctl("weather", "Tromsø", "--format", "waybar")
        #expect(weather.status == 0)
        #expect(fake.requests.value.last == "weather Tromsø")
    }

    @Test func templatePlaceholdersAndMissingValues() async throws {
        // Fetched two minutes before the real clock: ctl computes the age from it.
        var state = SampleStates.weather(code: 2, isDay: true, fetchedAgo: 125, now: Date(), place: nil)
        state.weather?.windSpeed = nil
        let fake = try daemon(answering: SampleStates.line(state, now: Date()))
        defer { fake.stop() }
        let full = try await ctl(
            "now", "--template", "{icon} {temperature}{unit} ({apparent}) {condition} {humidity} {wind} {place} {age}",
            "--icons", "weather-icons")
        #expect(full.stdout == "\u{F002} -5°C (-9) Partly cloudy 72% 49.12,12.2 2 min ago\n", "\(full.stdout)")
        let bar = try await ctl(
            "now", "--format", "polybar", "--template", "{temperature}{unit} {distance} {bearing} {wind}")
        #expect(bar.stdout == "-5°C\n")
        let unknown = try await ctl("now", "--template", "{temperature} {feelsLike}")
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("{feelsLike}"))
        #expect(unknown.stdout.isEmpty)
    }

    /// A hostile provider text (ESC sequences, a forged line, 1 MB) reaches no output raw.
    @Test func hostileTextsAreNeverPrintedRaw() async throws {
        let hostile = SampleStates.hostileText()
        var state = SampleStates.weather(
            code: 3, status: .stale, error: WeatherState.ErrorInfo(code: "http-500", message: hostile))
        state.weather?.condition = hostile
        state.weather?.conditionLanguage = "de"  // shown as the provider wrote it
        state.location?.place?.name = hostile
        let fake = try daemon(answering: SampleStates.line(state))
        defer { fake.stop() }
        for format in OutputFormat.allCases {
            let result = try await ctl("now", "--format", format.rawValue, "--template", "{condition} {place}")
            #expect(result.status == 0)
            let raw = result.stdout.unicodeScalars
            #expect(
                !raw.contains { $0.value == 0x1B || $0.value == 0x9B || $0.value == 0x07 || $0 == "\r" }, "\(format)")
            #expect(!result.stdout.contains("\nweather: 25°C Sunny"))
            let expectedLines = [OutputFormat.i3blocks: 3, .i3bar: 3][format] ?? 1
            #expect(lines(result.stdout).count == expectedLines, "\(format)")
            if format != .json { #expect(result.stdout.utf8.count < 4000, "\(format): \(result.stdout.utf8.count)") }
        }
        let error = SocketProtocol.line(SocketProtocol.ErrorResponse(providerCode: "http-500", message: hostile))
        let refusal = try FakeDaemon(path: directory + "/refuse.sock") { _ in
            .lines([String(decoding: error.dropLast(), as: UTF8.self)])
        }
        defer { refusal.stop() }
        let refused = try await runProcess(
            try Binaries.path("wundercastctl"), ["--socket", refusal.path, "now"], timeout: .seconds(20))
        #expect(refused.status == 1)
        #expect(!refused.stderr.unicodeScalars.contains { $0.value == 0x1B })
        #expect(refused.stderr.utf8.count < 2000)
        #expect(lines(refused.stderr).count == 1)
    }

    @Test func anErrorAnswerGoesToStderrWithStatus1OrAnErrorLineInBars() async throws {
        let fake = try daemon(
            answering: #"{"class":"ERROR","code":"not-permitted","message":"refresh needs a precise reader"}"#)
        defer { fake.stop() }
        let plain = try await ctl("refresh")
        #expect(plain.status == 1)
        #expect(plain.stderr.contains("refresh needs a precise reader"))
        let bar = try await ctl("now", "--format", "waybar")
        #expect(bar.status == 0)
        #expect(try json(try #require(lines(bar.stdout).first))["class"] as? [String] == ["daemon-error"])
    }

    @Test func statusAndAroundArePlainLines() async throws {
        let status = SocketProtocol.StatusResponse(
            uptimeSeconds: 65, gpsd: .init(server: "127.0.0.1:2947", connected: false), authorization: .denied,
            provider: "open-meteo", state: .noLocation, counters: .init())
        let statusLine = String(decoding: SocketProtocol.line(status).dropLast(), as: UTF8.self)
        let fake = try daemon(answering: statusLine)
        defer { fake.stop() }
        let result = try await ctl("status")
        #expect(result.status == 0)
        #expect(lines(result.stdout).count >= 5)
        #expect(result.stdout.contains("gpsd: 127.0.0.1:2947, not connected"))
        let asJSON = try await ctl("status", "--json")
        #expect(asJSON.stdout == statusLine + "\n")
    }
}
