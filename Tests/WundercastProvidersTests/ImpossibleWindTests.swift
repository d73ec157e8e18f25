import Foundation
import Testing
import WundercastModel
import WundercastProviders
import WundercastSupport
import WundercastTestSupport

/// A wind no weather has (400 m/s) is left out of a recorded answer in every wind unit, the
/// Beaufort force included: judged in the provider's own units before any conversion (a
/// conversion to forces would make it force 12, a plausible hurricane).
@Suite struct ImpossibleWindTests {
    static let wanted: [WindSpeedUnit] = [.bft, .kn, .kmh]

    /// Open-Meteo's recorded Bucharest answer as asked for `wanted` (``OpenMeteoProvider/requestedUnits(_:)``),
    /// with a wind of 400 m/s and gusts of 450 m/s in the asked unit.
    static func openMeteo(_ wanted: WindSpeedUnit) throws -> [UInt8] {
        let asked = OpenMeteoProvider.requestedUnits(UnitPreferences(.metric, windSpeed: wanted)).windSpeed
        return try Fixtures.edited(OpenMeteoUnitsTests.bucharest) { json in
            var current = json["current"] as! [String: Any]
            current["wind_speed_10m"] = asked.fromBase(400)
            current["wind_gusts_10m"] = asked.fromBase(450)
            json["current"] = current
            var units = json["current_units"] as! [String: Any]
            units["wind_speed_10m"] = asked.label
            units["wind_gusts_10m"] = asked.label
            json["current_units"] = units
        }
    }

    @Test(arguments: wanted) func openMeteoLeavesItOut(_ unit: WindSpeedUnit) throws {
        let preferences = UnitPreferences(.metric, windSpeed: unit)
        let body = try Self.openMeteo(unit)
        let weather = try OpenMeteoProvider.decode(status: 200, body: body, requested: preferences)
        #expect(weather.windSpeed == nil && weather.forecast?.windGusts == nil)
        #expect(weather.temperature == -5.3 && weather.units.windSpeed == unit.label)
        // `around` decodes a list of answers the same way.
        let list = Array("[".utf8) + body + Array(",".utf8) + body + Array("]".utf8)
        for result in try OpenMeteoProvider.decodeBatch(status: 200, body: list, count: 2, requested: preferences) {
            let weather = try result.get()
            #expect(weather.windSpeed == nil && weather.forecast?.windGusts == nil)
            #expect(weather.units.windSpeed == unit.label, "converted like a single answer")
        }
    }

    /// A provider that answers one decoded weather, in its own units.
    struct Decoded: WeatherProvider {
        var weather: Weather
        var name: String { "decoded" }
        var secrets: Secrets { .none }
        func currentWeather(at coordinate: Coordinate) async throws(WeatherError) -> Weather { weather }
    }

    /// MET Norway's recorded Oslo answer (m/s) with a wind of 400 m/s, decoded in the provider's
    /// own units and converted as the daemon converts it (``UnitConvertingProvider``).
    @Test(arguments: wanted) func metNorwayLeavesItOut(_ unit: WindSpeedUnit) async throws {
        let body = try MetNorwayRecordingTests.body("weather/metno/compact_oslo_snow.json") { json in
            var properties = json["properties"] as! [String: Any]
            var steps = properties["timeseries"] as! [[String: Any]]
            var data = steps[0]["data"] as! [String: Any]
            var instant = data["instant"] as! [String: Any]
            var details = instant["details"] as! [String: Any]
            details["wind_speed"] = 400.0
            instant["details"] = details
            data["instant"] = instant
            steps[0]["data"] = data
            properties["timeseries"] = steps
            json["properties"] = properties
        }
        let coordinate = try MetNorwayRecordingTests.coordinate(body)
        let decoded = try MetNorwayProvider.decode(
            status: 200, body: body, at: coordinate, requested: .metric, utcOffset: { _ in 3600 })
        // MET Norway's own units: km/h (from the answer's m/s, a linear step).
        #expect(decoded.windSpeed == 1440 && decoded.units.windSpeed == "km/h", "the recording as edited")
        let provider = UnitConvertingProvider(Decoded(weather: decoded), to: UnitPreferences(.metric, windSpeed: unit))
        let weather = try await provider.currentWeather(at: coordinate)
        #expect(weather.windSpeed == nil && weather.units.windSpeed == unit.label)
        #expect(weather.temperature == decoded.temperature)
    }

    /// An answer whose every value is impossible is refused as before, whatever the wind unit.
    @Test(arguments: wanted) func nothingPossibleIsStillAnError(_ unit: WindSpeedUnit) async throws {
        let nothing = Weather(
            temperature: 500, windSpeed: 400, units: WeatherUnits(temperature: "°C", windSpeed: "m/s"))
        let provider = UnitConvertingProvider(Decoded(weather: nothing), to: UnitPreferences(.metric, windSpeed: unit))
        do {
            _ = try await provider.currentWeather(at: Coordinate(latitude: 1, longitude: 2))
            Issue.record("an answer without a possible value was taken")
        } catch {
            #expect(
                error
                    == .decoding(
                        message:
                            "every value of the answer is impossible (temperature, humidity, wind out of any weather's range)"
                    ))
        }
    }
}
