import Foundation
import Testing
import WundercastTestSupport

/// `[Weather] WindSpeedUnit=kn` end to end: the daemon asks Open-Meteo for knots, converts what
/// the answer says it is by its unit strings, and `now`, the human line and a lookup show knots;
/// `WindSpeedUnit=bft` likewise with the Beaufort force.
@Suite(.serialized) struct DaemonUnitsTests {
    static let bucharest = "weather/open-meteo/current_bucharest_metric.json"

    static func daemon(_ http: FixtureHTTPServer, units: String) async throws -> DaemonProcess {
        try await DaemonProcess(
            configuration: """
                [Location]
                Authorization=denied
                GPSD=127.0.0.1:1
                Fallback=44.44,26.1
                [Weather]
                URL=\(http.baseURL)
                \(units)
                """)
    }

    /// The recorded answer is labelled km/h (what was asked when it was recorded): the labels,
    /// not the request, decide, so 4.7 km/h is published as 2.5378 kn.
    @Test func knotsFromAnAnswerInKilometresPerHour() async throws {
        let http = try await FixtureHTTPServer()
        try http.respond(file: Self.bucharest)
        let daemon = try await Self.daemon(http, units: "WindSpeedUnit=kn")
        let state = try await daemon.waitForState(timeout: .seconds(30), "fresh weather") {
            $0["status"] as? String == "fresh"
        }
        let query = try #require(try http.requests().first { $0.path == "/v1/forecast" }?.query)
        #expect(query["wind_speed_unit"] == "kn")
        #expect(query["temperature_unit"] == "celsius" && query["precipitation_unit"] == "mm")
        #expect(state[path: "weather.windSpeed"] as? Double == 2.5378)
        #expect(state[path: "weather.units.windSpeed"] as? String == "kn")
        #expect(state[path: "weather.forecast.windGusts"] as? Double == 6.5875)
        #expect(state[path: "weather.forecast.units.windGusts"] as? String == "kn")
        // The other quantities follow Units=metric, exactly as recorded.
        #expect(state[path: "weather.temperature"] as? Double == -5.3)
        #expect(state[path: "weather.forecast.seaLevelPressure"] as? Double == 1034.7)

        let now = try await daemon.ctl("now")
        #expect(now.status == 0)
        #expect(now.stdout.hasPrefix("-5°C Clear sky, humidity 72%, wind 3 kn from E, "), "\(now.stdout)")
        let wind = try await daemon.ctl("now", "--template", "{wind} {gusts} {pressure}")
        #expect(wind.stdout == "3 kn 7 kn 1035 hPa\n")
        // A lookup goes through the same provider: knots too.
        let lookup = try await daemon.ctl("weather", "44.44,26.1")
        #expect(lookup.stdout.contains("wind 3 kn from E"), "\(lookup.stdout)")
        await http.stopAndWait()
    }

    /// `WindSpeedUnit=bft`: Open-Meteo has no Beaufort, so it is asked for m/s; the recorded
    /// 4.7 km/h (1.3 m/s) is force 1, the gusts' 12.2 km/h (3.4 m/s) force 3, each with its WMO
    /// name in human text.
    @Test func beaufortFromAnAnswerInKilometresPerHour() async throws {
        let http = try await FixtureHTTPServer()
        try http.respond(file: Self.bucharest)
        let daemon = try await Self.daemon(http, units: "WindSpeedUnit=bft")
        let state = try await daemon.waitForState(timeout: .seconds(30), "fresh weather") {
            $0["status"] as? String == "fresh"
        }
        let query = try #require(try http.requests().first { $0.path == "/v1/forecast" }?.query)
        #expect(query["wind_speed_unit"] == "ms")
        #expect(state[path: "weather.windSpeed"] as? Double == 1)
        #expect(state[path: "weather.units.windSpeed"] as? String == "Bft")
        #expect(state[path: "weather.forecast.windGusts"] as? Double == 3)
        #expect(state[path: "weather.forecast.units.windGusts"] as? String == "Bft")
        let now = try await daemon.ctl("now")
        #expect(now.stdout.hasPrefix("-5°C Clear sky, humidity 72%, wind 1 Bft, light air from E, "), "\(now.stdout)")
        let wind = try await daemon.ctl("now", "--template", "{wind} {gusts}")
        #expect(wind.stdout == "1 Bft 3 Bft\n")
        await http.stopAndWait()
    }

    /// An answer as Open-Meteo gives it for `wind_speed_unit=kn` (the recording's values in
    /// knots, labelled "kn") is published exactly; imperial pressure is converted from hPa.
    @Test func anAnswerInKnotsAndInchesOfMercury() async throws {
        let http = try await FixtureHTTPServer()
        let body = try Fixtures.edited(Self.bucharest) { json in
            var current = json["current"] as! [String: Any]
            current["wind_speed_10m"] = 2.5
            json["current"] = current
            var units = json["current_units"] as! [String: Any]
            units["wind_speed_10m"] = "kn"
            json["current_units"] = units
        }
        try http.respond(body: String(decoding: body, as: UTF8.self))
        let daemon = try await Self.daemon(http, units: "Units=metric\nWindSpeedUnit=kn\nPressureUnit=inHg")
        let state = try await daemon.waitForState(timeout: .seconds(30), "fresh weather") {
            $0["status"] as? String == "fresh"
        }
        #expect(state[path: "weather.windSpeed"] as? Double == 2.5)
        #expect(state[path: "weather.forecast.seaLevelPressure"] as? Double == 30.5547)
        #expect(state[path: "weather.forecast.pressureTendency.unit"] as? String == "inHg")
        let text = try await daemon.ctl("now", "--template", "{wind} {pressure} {pressureTendency}")
        #expect(text.stdout == "3 kn 30.55 inHg rising +0.04 inHg/3h\n")
        await http.stopAndWait()
    }
}
