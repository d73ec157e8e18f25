import Foundation
import Testing
import WundercastProviders
import WundercastTestSupport

/// The forecast end to end: the daemon asks the loopback server for current, hourly and daily
/// values in one request (with `[Weather] Cell=`), and `now`, the waybar face and a template
/// show what the recorded answer forecasts.
@Suite(.serialized) struct DaemonForecastTests {
    static func daemon(_ http: FixtureHTTPServer, cell: String?) async throws -> DaemonProcess {
        try await DaemonProcess(
            configuration: """
                [Location]
                Authorization=denied
                GPSD=127.0.0.1:1
                Fallback=40.79,-73.97
                [Weather]
                URL=\(http.baseURL)
                \(cell.map { "Cell=\($0)" } ?? "")
                """)
    }

    @Test func oneRequestGivesTheForecastInTheStateAndTheFaces() async throws {
        let http = try await FixtureHTTPServer()
        try http.respond(file: "weather/open-meteo/forecast_newyork_daily.json")
        let daemon = try await Self.daemon(http, cell: "sea")
        let state = try await daemon.waitForState(timeout: .seconds(30), "fresh weather") {
            $0["status"] as? String == "fresh"
        }
        let requests = try http.requests().filter { $0.path == "/v1/forecast" }
        #expect(requests.count == 1)
        let query = try #require(requests.first?.query)
        #expect(query["cell_selection"] == "sea")
        #expect(query["timezone"] == "auto")
        #expect(query["hourly"]?.split(separator: ",").map(String.init) == OpenMeteoProvider.hourlyVariables)
        #expect(query["daily"]?.split(separator: ",").map(String.init) == OpenMeteoProvider.dailyVariables)
        #expect(query["current"]?.contains("pressure_msl") == true)

        #expect(state[path: "weather.forecast.today.date"] as? String == "2026-02-06")
        #expect(state[path: "weather.forecast.today.high"] as? Double == -0.2)
        #expect(state[path: "weather.forecast.today.sunrise"] as? String == "2026-02-06T12:00:00Z")
        #expect(state[path: "weather.forecast.utcOffsetSeconds"] as? Int == -18000)
        let hours = try #require(state[path: "weather.forecast.hours"] as? [[String: Any]])
        #expect(hours.count == 12)
        #expect(hours.first?["time"] as? String == "2026-02-06T22:00:00Z")
        // Nothing the recording lacks is invented: no gusts, pressure or tendency.
        let forecast = try #require(state[path: "weather.forecast"] as? [String: Any])
        #expect(
            forecast["windGusts"] == nil && forecast["seaLevelPressure"] == nil && forecast["pressureTendency"] == nil)

        var env = Spawn.environment
        env["WUNDERCAST_SOCKET"] = daemon.socketPath
        let ctl = try Binaries.path("wundercastctl")
        let template = try await runProcess(
            ctl, ["now", "--template", "{temperature}{unit} high {high} low {low} sun {sunrise}-{sunset}"],
            environment: env)
        // The recording's days and hours are long over on the reader's clock (wundercastctl's):
        // no day values, no stale "Today", no ended hours (moved to today they show:
        // ForecastFacesTests, ForecastDayNamesTests, RealBarTooltipTests).
        #expect(template.stdout == "-1°C high low sun -\n", "\(template.stdout)")
        let waybar = try await runProcess(ctl, ["now", "--format", "waybar"], environment: env)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(waybar.stdout.utf8)) as? [String: Any])
        let tooltip = try #require(object["tooltip"] as? String)
        #expect(tooltip.contains("<b>Now</b>\nOvercast\n"), "\(tooltip)")
        for gone in ["Next days", "Today", "Next hours", "Sunrise"] {
            #expect(!tooltip.contains(gone), "\(gone): \(tooltip)")
        }
        await http.stopAndWait()
    }

    @Test func theDefaultCellIsLand() async throws {
        let http = try await FixtureHTTPServer()
        let daemon = try await Self.daemon(http, cell: nil)
        _ = try await daemon.waitForState(timeout: .seconds(30), "fresh weather") { $0["status"] as? String == "fresh" }
        #expect(try http.requests().filter { $0.path == "/v1/forecast" }.map { $0.query["cell_selection"] } == ["land"])
        await http.stopAndWait()
    }
}
