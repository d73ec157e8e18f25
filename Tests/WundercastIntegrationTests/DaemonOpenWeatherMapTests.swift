import Foundation
import Testing
import WundercastTestSupport

/// `Provider=openweathermap` end to end: a key file, the loopback server's two OpenWeatherMap
/// routes, and `now` in the same shape as with Open-Meteo (issue 7, "Done when"); a daemon
/// without a usable key does not start, and says why.
@Suite(.serialized) struct DaemonOpenWeatherMapTests {
    static let key = "0wm7e5tk3y0123456789abcdef012345"

    static func keyFile(_ content: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "wundercast-owm-key-\(UUID().uuidString)")
        #expect(
            FileManager.default.createFile(
                atPath: url.path, contents: Data(content.utf8), attributes: [.posixPermissions: 0o600]))
        return url
    }

    static func configuration(_ http: FixtureHTTPServer, keyLine: String) -> String {
        """
        [Location]
        Authorization=denied
        GPSD=127.0.0.1:1
        Fallback=44.34,10.99
        [Weather]
        Provider=openweathermap
        URL=\(http.baseURL)
        Language=it
        \(keyLine)
        """
    }

    @Test func nowHasTheSameShapeAsWithOpenMeteo() async throws {
        let forecast = try OpenWeatherMapVariants.forecast(
            after: OpenWeatherMapVariants.zoccaTime, timezone: 7200, pops: [0.1, 0.5, 0.9], celsius: true)
        // The daemon asks `units=metric`: the server answers what OpenWeatherMap would, in °C.
        let root = try OpenWeatherMapVariants.servedDirectory(
            weather: try OpenWeatherMapVariants.weatherInCelsius(), forecast: forecast)
        defer { try? FileManager.default.removeItem(at: root) }
        let key = try Self.keyFile("\(Self.key)\n")
        defer { try? FileManager.default.removeItem(at: key) }
        let http = try await FixtureHTTPServer(root: root)
        let daemon = try await DaemonProcess(configuration: Self.configuration(http, keyLine: "APIKeyFile=\(key.path)"))
        let state = try await daemon.waitForState(timeout: .seconds(30), "fresh weather") {
            $0["status"] as? String == "fresh"
        }
        #expect(state["provider"] as? String == "openweathermap")
        #expect(state[path: "weather.temperature"] as? Double == 25.33)
        #expect(state[path: "weather.units.temperature"] as? String == "°C")
        #expect(state[path: "weather.openWeatherMapID"] as? Int == 501)
        #expect(state[path: "weather.condition"] as? String == "moderate rain")
        #expect(state[path: "weather.weatherCode"] == nil)
        let hours = try #require(state[path: "weather.forecast.hours"] as? [[String: Any]])
        #expect(hours.count == 4)
        #expect(hours.map { $0["precipitationProbability"] as? Double } == [10, 50, 90, nil])
        #expect(state[path: "weather.forecast.today.date"] as? String == "2022-08-30")
        #expect(state[path: "weather.forecast.utcOffsetSeconds"] as? Int == 7200)
        #expect(state[path: "weather.forecast.seaLevelPressure"] as? Double == 1015)

        // The members Open-Meteo's `now` has (but its WMO code) are there, in the same places.
        let openMeteo = try await Self.openMeteoState()
        let weatherKeys = Set((openMeteo["weather"] as? [String: Any] ?? [:]).keys).subtracting(["weatherCode"])
        let owmWeather = try #require(state["weather"] as? [String: Any])
        #expect(
            weatherKeys.subtracting(owmWeather.keys).isEmpty, "missing: \(weatherKeys.subtracting(owmWeather.keys))")
        let hourKeys = Set((openMeteo[path: "weather.forecast.hours"] as? [[String: Any]])?.first?.keys ?? [:].keys)
            .subtracting(["weatherCode", "precipitation"])
        #expect(hourKeys.subtracting(hours[0].keys).isEmpty, "hour misses \(hourKeys.subtracting(hours[0].keys))")
        #expect(Set(state.keys) == Set(openMeteo.keys))

        let requests = try http.requests()
        #expect(requests.map(\.path) == ["/data/2.5/weather", "/data/2.5/forecast"])
        #expect(requests.allSatisfy { $0.query["appid"] == Self.key && $0.query["lang"] == "it" })
        #expect(requests.allSatisfy { $0.query["lat"] == "44.34" && $0.query["units"] == "metric" })

        let template = try await daemon.ctl("now", "--template", "{temperature}{unit} {condition} {high} {pressure}")
        #expect(template.stdout.hasPrefix("25°C moderate rain "), "\(template.stdout)")
        let waybar = try await daemon.ctl("now", "--format", "waybar")
        #expect(waybar.stdout.contains(#""alt":"rain""#), "\(waybar.stdout)")
        let status = try await daemon.ctl("status")
        // Both of the fetch's requests are counted: what reached the provider.
        let counted = try JSONSerialization.jsonObject(with: Data(try await daemon.ctl("status", "--json").stdout.utf8))
        #expect((counted as? [String: Any])?[path: "counters.requests"] as? Int == 2)
        for text in [daemon.log, template.stdout, waybar.stdout, status.stdout, status.stderr] {
            #expect(!text.contains(Self.key) && !text.contains(String(Self.key.prefix(10))))
        }
        await daemon.stop()
        #expect(!(try String(contentsOfFile: daemon.logPath, encoding: .utf8)).contains(Self.key))
        await http.stopAndWait()
    }

    /// Open-Meteo's state for the same place, from its recorded New York answer.
    static func openMeteoState() async throws -> [String: Any] {
        let http = try await FixtureHTTPServer()
        try http.respond(file: "weather/open-meteo/forecast_newyork_daily.json")
        let daemon = try await DaemonProcess(
            configuration:
                "[Location]\nAuthorization=denied\nGPSD=127.0.0.1:1\nFallback=44.34,10.99\n[Weather]\nURL=\(http.baseURL)"
        )
        let state = try await daemon.waitForState(timeout: .seconds(30), "fresh weather") {
            $0["status"] as? String == "fresh"
        }
        await daemon.stop()
        await http.stopAndWait()
        return state
    }

    @Test func systemdsCredentialServesAsTheKey() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "wundercast-cred-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.key.write(to: directory.appendingPathComponent("openweathermap"), atomically: true, encoding: .utf8)
        let http = try await FixtureHTTPServer()
        let daemon = try await DaemonProcess(
            configuration: Self.configuration(http, keyLine: ""), environment: ["CREDENTIALS_DIRECTORY": directory.path]
        )
        _ = try await daemon.waitForState(timeout: .seconds(30), "fresh weather") { $0["status"] as? String == "fresh" }
        #expect(try http.requests().first?.query["appid"] == Self.key)
        await daemon.stop()
        await http.stopAndWait()
    }

    @Test func withoutAUsableKeyTheDaemonDoesNotStart() async throws {
        let empty = try Self.keyFile(" \n")
        defer { try? FileManager.default.removeItem(at: empty) }
        let http = try await FixtureHTTPServer()
        let cases: [(String, String)] = [
            ("", "Provider=openweathermap needs an API key"),
            ("APIKeyFile=/nonexistent/owm.key", "APIKeyFile=/nonexistent/owm.key: No such file or directory"),
            ("APIKeyFile=\(empty.path)", "APIKeyFile=\(empty.path), is empty"),
            ("APIKey=\(Self.key)", "APIKey= is refused"),
        ]
        for (line, expected) in cases {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                "wundercast-\(UUID().uuidString).conf")
            try Self.configuration(http, keyLine: line).write(to: directory, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(at: directory) }
            var environment = Spawn.environment
            environment.removeValue(forKey: "CREDENTIALS_DIRECTORY")
            let result = try await runProcess(
                try Binaries.path("wundercastd"), ["--config", directory.path], environment: environment)
            #expect(result.status == 1)
            #expect(result.stderr.contains(expected), "\(result.stderr)")
            #expect(!result.stderr.contains(Self.key))
        }
        #expect(try http.requests().isEmpty)
        await http.stopAndWait()
    }

    /// `--check-config` reads the key file as the start would; a key from the unit's credentials
    /// is said not to be checked.
    @Test func checkConfigReadsTheKeyFile() async throws {
        let good = try Self.keyFile(Self.key + "\n")
        defer { try? FileManager.default.removeItem(at: good) }
        let http = try await FixtureHTTPServer()
        let cases: [(String, Int32, String)] = [
            ("APIKeyFile=/nonexistent/owm.key", 1, "APIKeyFile=/nonexistent/owm.key: No such file or directory"),
            ("APIKeyFile=\(good.path)", 0, "configuration OK"),
            ("", 0, "the API key comes from $CREDENTIALS_DIRECTORY/openweathermap when the service runs"),
        ]
        for (line, status, expected) in cases {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent(
                "wundercast-\(UUID().uuidString).conf")
            try Self.configuration(http, keyLine: line).write(to: path, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(at: path) }
            var environment = Spawn.environment
            environment.removeValue(forKey: "CREDENTIALS_DIRECTORY")
            let result = try await runProcess(
                try Binaries.path("wundercastd"), ["--check-config", "--config", path.path], environment: environment)
            #expect(result.status == status, "\(line): \(result.stderr)")
            #expect((result.stdout + result.stderr).contains(expected), "\(line): \(result.stdout) \(result.stderr)")
            #expect(!(result.stdout + result.stderr).contains(Self.key))
        }
        await http.stopAndWait()
    }
}
