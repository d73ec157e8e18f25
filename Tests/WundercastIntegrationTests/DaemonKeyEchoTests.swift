import Foundation
import Testing
import WundercastPOSIX
import WundercastTestSupport

/// Issue 14, S2 end to end: a provider posing as OpenWeatherMap echoes the key in every text it
/// sends — each condition, the place name, a header, error messages with the key past the
/// 200-character cut (a 403 quoting the request URL, an error report under 200) — and no output
/// holds an 8-character piece of it: `now` (precise, and public as `nobody`), `status`,
/// `wundercastctl` text and JSON, a lookup, the `STATUS=` line, the log, the kept state file.
@Suite(.serialized, .timeLimit(.minutes(4))) struct DaemonKeyEchoTests {
    static let key = DaemonOpenWeatherMapTests.key

    /// The answers with the key in every text member: conditions in capitals and as sent.
    static func servedDirectory() throws -> URL {
        var current =
            try JSONSerialization.jsonObject(with: Data(try OpenWeatherMapVariants.weatherInCelsius()))
            as! [String: Any]
        current["name"] = key
        var condition = (current["weather"] as? [[String: Any]])?.first ?? [:]
        condition["description"] = "rain \(key.uppercased())"
        current["weather"] = [condition]
        let weather = Array(try JSONSerialization.data(withJSONObject: current))
        let forecast = try OpenWeatherMapVariants.forecast(
            after: OpenWeatherMapVariants.zoccaTime, timezone: 7200, celsius: true)
        let echoed = try JSONSerialization.jsonObject(with: Data(forecast)) as! [String: Any]
        var json = echoed
        json["list"] = (echoed["list"] as? [[String: Any]] ?? []).map { step in
            var step = step
            var condition = (step["weather"] as? [[String: Any]])?.first ?? [:]
            condition["description"] = "\(key) showers"
            step["weather"] = [condition]
            return step
        }
        return try OpenWeatherMapVariants.servedDirectory(
            weather: weather, forecast: Array(try JSONSerialization.data(withJSONObject: json)))
    }

    /// The error bodies: the URL of the request, its key from character 183 on (before, the
    /// 200-character cut came first and left 17 of its 32 characters for the redaction to miss).
    static var longMessage: String {
        String(repeating: "x", count: 128) + " https://api.openweathermap.org/data/2.5/weather?appid=\(key)&lat=44.34"
    }

    /// A daemon asking `http` as OpenWeatherMap with the key in `keyFile`, keeping its state in
    /// `cache`, with `more` configuration lines; returned after `READY=1`, with its `NOTIFY_SOCKET`.
    static func start(
        _ http: FixtureHTTPServer, keyFile: URL, cache: DaemonLastStateTests.CacheDirectory, more: String = ""
    ) async throws -> (DaemonProcess, NotifySocket) {
        let notify = try NotifySocket(path: cache.path + "/notify")
        let daemon = try await DaemonProcess(
            configuration: DaemonOpenWeatherMapTests.configuration(http, keyLine: "APIKeyFile=\(keyFile.path)")
                + "\n[Cache]\nPath=\(cache.file)\n" + more,
            environment: ["NOTIFY_SOCKET": notify.path], waitForSocket: false)
        _ = try await notify.messages.waitFor("READY=1") { $0.contains("READY=1") }
        return (daemon, notify)
    }

    @Test func aProviderThatEchoesTheKeyLeavesNoPieceOfItAnywhere() async throws {
        let root = try Self.servedDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let keyFile = try DaemonOpenWeatherMapTests.keyFile("\(Self.key)\n")
        defer { try? FileManager.default.removeItem(at: keyFile) }
        let cache = try DaemonLastStateTests.CacheDirectory()
        let http = try await FixtureHTTPServer(root: root)
        try http.respond(headers: ["X-Echo": Self.key])
        let (daemon, notify) = try await Self.start(
            http, keyFile: keyFile, cache: cache, more: "ClockSyncFile=\n[Throttle]\nMinInterval=1s\n")
        // Public readers connect as `nobody` (only root can be someone else).
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: daemon.directory.path)
        var outputs: [(String, String)] = []

        func collect(_ phase: String) async throws {
            for arguments in [
                ["now"], ["now", "--json"], ["now", "--format", "waybar"], ["status"], ["--format", "json", "status"],
                ["--format", "json", "weather", "10,10"],
            ] {
                let result = try await runProcess(
                    try Binaries.path("wundercastctl"), ["--socket", daemon.socketPath] + arguments)
                outputs.append(("\(phase): \(arguments.joined(separator: " "))", result.stdout + result.stderr))
            }
            if geteuid() == 0 {
                let result = try await runProcess(
                    "/usr/bin/setpriv",
                    [
                        "--reuid=65534", "--regid=65534", "--clear-groups", try Binaries.path("wundercastctl"),
                        "--socket", daemon.socketPath, "now", "--json",
                    ])
                #expect(result.status == 0, "public now: \(result.stderr)")
                outputs.append(("\(phase): public now", result.stdout + result.stderr))
            }
        }

        let fresh = try await daemon.waitForState(timeout: .seconds(30), "fresh weather") {
            $0["status"] as? String == "fresh"
        }
        #expect(fresh[path: "weather.condition"] as? String == "rain REDACTED", "\(fresh)")
        try await collect("echoing 200")

        // An error report first: it is retried after 5 s; a 403 waits an hour, so it comes last.
        let failures: [(String, Int, String)] = [
            ("error-body", 200, #"{"cod":"401","message":"\#(Self.longMessage)"}"#),
            ("http-403", 403, #"{"cod":403,"message":"\#(Self.longMessage)"}"#),
        ]
        for (code, status, body) in failures {
            try http.respond(status: status, body: body, headers: ["X-Echo": Self.key])
            _ = try await daemon.ctl("refresh")
            let state = try await daemon.waitForState(timeout: .seconds(30), "error \(code)") {
                ($0["error"] as? [String: Any])?["code"] as? String == code
            }
            #expect(((state["error"] as? [String: Any])?["message"] as? String)?.contains("xxxx") == true)
            try await collect(code)
        }
        await daemon.stop()
        await http.stopAndWait()

        outputs.append(("STATUS= lines", notify.messages.lines.joined(separator: "\n")))
        outputs.append(("the log", try String(contentsOfFile: daemon.logPath, encoding: .utf8)))
        outputs.append(("the kept state file", try String(contentsOfFile: cache.file, encoding: .utf8)))
        #expect(notify.messages.lines.joined(separator: "\n").contains("STATUS="))
        #expect(try String(contentsOfFile: cache.file, encoding: .utf8).contains("rain REDACTED"))
        for (what, text) in outputs {
            #expect(!text.isEmpty, "\(what) is empty")
            #expect(SecretPieces.leaked(Self.key, in: text) == nil, "\(what): \(text.prefix(2000))")
        }
    }

    /// A kept state file of an earlier version that holds the key (echoed in a condition) is
    /// redacted when loaded: shown without it, and rewritten at once without it.
    @Test func aKeptStateWithTheKeyIsRedactedWhenLoaded() async throws {
        let keyFile = try DaemonOpenWeatherMapTests.keyFile("\(Self.key)\n")
        defer { try? FileManager.default.removeItem(at: keyFile) }
        let cache = try DaemonLastStateTests.CacheDirectory()
        var kept = DaemonLastStateTests.kept(ago: 600)
        kept.provider = "openweathermap"
        kept.location = .init(latitude: 44.34, longitude: 10.99, source: .fallback)
        kept.weather.condition = "rain " + Self.key
        try cache.write(kept)
        // The provider fails: the kept weather stays what is shown.
        let http = try await FixtureHTTPServer()
        try http.respond(status: 500, body: "{}")
        let (daemon, _) = try await Self.start(http, keyFile: keyFile, cache: cache)
        let state = try await daemon.now()
        #expect(state[path: "weather.condition"] as? String == "rain REDACTED", "\(state)")
        let file = try String(contentsOfFile: cache.file, encoding: .utf8)
        await daemon.stop()
        await http.stopAndWait()
        for (what, text) in [("now", "\(state)"), ("the kept state file", file), ("the log", daemon.log)] {
            #expect(SecretPieces.leaked(Self.key, in: text) == nil, "\(what): \(text.prefix(2000))")
        }
    }
}
