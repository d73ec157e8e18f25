import Foundation
import Testing
import WundercastProviders
import WundercastTestSupport

/// `Provider=metno` end to end: the daemon asks the loopback server with its contact in the
/// User-Agent, and `now` has the shape Open-Meteo's has (temperature, condition, forecast),
/// with today and tomorrow in the time zone of the nearest city (the real city table and
/// /usr/share/zoneinfo). Without `Contact=` the daemon refuses to start.
@Suite(.serialized) struct DaemonMetNorwayTests {
    @Test func nowHasTheShapeOfEveryProvider() async throws {
        let http = try await FixtureHTTPServer()
        let cities = try await RealCityTable.image()
        let daemon = try await DaemonProcess(
            configuration: """
                [Location]
                Authorization=denied
                GPSD=127.0.0.1:1
                Fallback=40.7,-74
                [Weather]
                Provider=metno
                Contact=ops@example.org
                URL=\(http.baseURL)
                [Places]
                Cities=\(cities.path)
                OnlineGeocoding=no
                """)
        let state = try await daemon.waitForState(timeout: .seconds(30), "fresh weather") {
            $0["status"] as? String == "fresh"
        }
        let requests = try http.requests()
        #expect(requests.map(\.path) == ["/weatherapi/locationforecast/2.0/compact"])
        #expect(requests.first?.queryString == "lat=40.7&lon=-74")
        #expect(requests.first?.headers["user-agent"] == MetNorwayProvider.userAgent(contact: "ops@example.org"))

        #expect(state["provider"] as? String == "metno")
        #expect(state[path: "weather.temperature"] as? Double == 26.5)
        #expect(state[path: "weather.windSpeed"] as? Double == 13.68)
        #expect(state[path: "weather.units.windSpeed"] as? String == "km/h")
        #expect(state[path: "weather.symbolCode"] as? String == "partlycloudy_day")
        #expect(state[path: "weather.condition"] as? String == "Partly cloudy")
        #expect(state[path: "weather.icon"] as? String == "weather-few-clouds")
        #expect(state[path: "weather.isDay"] as? Bool == true)
        #expect(state[path: "weather.time"] as? String == "2020-07-20T11:00:00Z")
        #expect(state[path: "weather.weatherCode"] == nil && state[path: "weather.apparentTemperature"] == nil)
        let hours = try #require(state[path: "weather.forecast.hours"] as? [[String: Any]])
        #expect(hours.count == 12 && hours.first?["time"] as? String == "2020-07-20T12:00:00Z")
        #expect(state[path: "weather.forecast.seaLevelPressure"] as? Double == 1010.7)
        // New York's zone from the nearest city: EDT in July.
        #expect(state[path: "weather.forecast.utcOffsetSeconds"] as? Int == -14400)
        #expect(state[path: "weather.forecast.today.date"] as? String == "2020-07-20")
        #expect(state[path: "weather.forecast.today.high"] as? Double == 36)
        #expect(state[path: "weather.forecast.tomorrow.date"] as? String == "2020-07-21")

        var env = Spawn.environment
        env["WUNDERCAST_SOCKET"] = daemon.socketPath
        let ctl = try Binaries.path("wundercastctl")
        let template = try await runProcess(
            ctl, ["now", "--template", "{temperature}{unit} {condition} high {high} sun {sunrise}-{sunset}"],
            environment: env)
        // The recording's days (2020) are long over on the reader's clock: no day values.
        #expect(template.stdout == "27°C Partly cloudy high sun -\n", "\(template.stdout)\(template.stderr)")
        let waybar = try await runProcess(ctl, ["now", "--format", "waybar"], environment: env)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(waybar.stdout.utf8)) as? [String: Any])
        #expect(object["alt"] as? String == "partlyCloudy")
        let tooltip = try #require(object["tooltip"] as? String)
        #expect(!tooltip.contains("Next hours") && !tooltip.contains("Today"), "\(tooltip)")
        await http.stopAndWait()
    }

    @Test func withoutContactTheDaemonRefusesToStart() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "wundercast-metno-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("metno.conf").path
        try "[Weather]\nUnits=metric\nProvider=metno\n".write(toFile: path, atomically: true, encoding: .utf8)
        let result = try await runProcess(try Binaries.path("wundercastd"), ["--check-config", "--config", path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("metno.conf:3: Provider=metno needs [Weather] Contact="), "\(result.stderr)")
    }
}
