import Foundation
import Testing
import WundercastModel
import WundercastTestSupport

/// The sea state end to end: a boat's track (a B&G Zeus2 chartplotter on the IJsselmeer, 2018,
/// `nmea/bundg_zeus_9.log`) replayed through gpsfake into a private gpsd; the loopback server
/// answers the Marine API with the recorded North Sea answer (Tests/Fixtures/README.md:
/// frenck/python-open-meteo's `marine.json`, at 53.04 N 3.96 E). The recording is of another
/// cell than the boat's (no recorded Marine answer for the IJsselmeer exists): the values are
/// the North Sea's, the published cell the boat's own, as the daemon publishes what it was told
/// for the cell it asked about. The recording's `current.time` is made the present (the daemon
/// refuses a sea state more than 3 hours from its clock: ``presentRoot()``).
@Suite(.serialized) struct DaemonMarineTests {
    /// A fixtures root of Open-Meteo's recorded answers with the North Sea answer's
    /// `current.time` set to now (unix seconds, as `timeformat=unixtime` gives), in a temporary
    /// directory the caller removes.
    static func presentRoot() throws -> URL {
        let files = FileManager.default
        let root = files.temporaryDirectory.appendingPathComponent("wundercast-marine-\(UUID().uuidString)")
        let weather = root.appendingPathComponent("weather")
        try files.createDirectory(
            at: weather.appendingPathComponent("open-meteo-marine"), withIntermediateDirectories: true)
        try files.copyItem(at: Fixtures.url("weather/open-meteo"), to: weather.appendingPathComponent("open-meteo"))
        let path = "weather/open-meteo-marine/northsea_all_variables_current_minutely15_hourly_daily_2026-10.json"
        let recorded = try JSONSerialization.jsonObject(with: Data(try Fixtures.bytes(path)))
        var answer = try #require(recorded as? [String: Any])
        var current = try #require(answer["current"] as? [String: Any])
        current["time"] = Int(Date().timeIntervalSince1970)
        answer["current"] = current
        try JSONSerialization.data(withJSONObject: answer).write(to: root.appendingPathComponent(path))
        return root
    }

    @Test func aBoatShowsWavesSwellAndSeaTemperature() async throws {
        let root = try Self.presentRoot()
        defer { try? FileManager.default.removeItem(at: root) }
        let http = try await FixtureHTTPServer(root: root)
        let port = try GPSFake.freePort()
        let daemon = try await DaemonProcess(
            configuration: """
                [Location]
                Authorization=always
                GPSD=127.0.0.1:\(port)
                MaxHorizontalError=10km
                [Throttle]
                MinDistance=10km
                [Weather]
                URL=\(http.baseURL)
                WindSpeedUnit=kn
                Marine=auto
                """)
        let gpsfake = try await GPSFake.start(log: Fixtures.url("nmea/bundg_zeus_9.log"), cycle: 0.05, port: port)
        let state = try await daemon.waitForState(timeout: .seconds(60), "the sea state") {
            $0[path: "weather.marine"] != nil
        }
        await gpsfake.stopAndWait()
        #expect(state[path: "weather.marine.source"] as? String == "open-meteo-marine")
        #expect(state[path: "weather.marine.waveHeight"] as? Double == 0.76)
        #expect(state[path: "weather.marine.swellHeight"] as? Double == 0.34)
        #expect(state[path: "weather.marine.seaTemperature"] as? Double == 18.4)
        // 1.0 km/h from the API, in knots as the wind.
        #expect(state[path: "weather.marine.currentVelocity"] as? Double == 0.54)
        #expect(state[path: "weather.marine.units.currentVelocity"] as? String == "kn")
        // The boat's 0.25° cell on the IJsselmeer, by its centre.
        let latitude = try #require(state[path: "weather.marine.cell.latitude"] as? Double)
        #expect(latitude == 52.625 || latitude == 52.875, "\(latitude)")

        let marine = try http.requests().filter { $0.path == "/v1/marine" }
        #expect(!marine.isEmpty)
        #expect(marine.allSatisfy { $0.query["cell_selection"] == "sea" && $0.query["wind_speed_unit"] == "kmh" })
        #expect(marine.first?.headers["user-agent"]?.hasPrefix("wundercast/") == true)

        let now = try await daemon.now()
        #expect(now[path: "weather.marine.waveHeight"] as? Double == 0.76)
        let waybar = try await daemon.ctl("now", "--format", "waybar")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(waybar.stdout.utf8)) as? [String: Any])
        let tooltip = try #require(object["tooltip"] as? String)
        for line in ["Waves 0.8 m, from SW, 4 s", "Swell 0.3 m, from W, 4 s", "Sea temperature 18°C"] {
            #expect(tooltip.contains(line), "\(line): \(tooltip)")
        }
        let template = try await daemon.ctl(
            "now", "--template", "{waves} {wavePeriod} {swell} {seaTemperature} {current}")
        #expect(template.stdout == "0.8 m 4 s 0.3 m 18°C 0.5 kn\n")
        await http.stopAndWait()
    }
}
