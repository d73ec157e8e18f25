import Foundation
import Testing
import WundercastModel
import WundercastProviders
import WundercastTestSupport

/// Open-Meteo is asked per quantity for what is wanted; its answer is converted by its own unit
/// strings (pressure always comes in hPa).
@Suite struct OpenMeteoUnitsTests {
    static let bucharest = "weather/open-meteo/current_bucharest_metric.json"

    /// The `key=value` pairs of a URL's query.
    static func query(_ url: String) -> [String: String] {
        let query = url.split(separator: "?", maxSplits: 1).last ?? ""
        return Dictionary(
            query.split(separator: "&").map { pair in
                let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                return (parts[0], parts.count > 1 ? parts[1] : "")
            }, uniquingKeysWith: { _, last in last })
    }

    @Test(arguments: [
        (UnitPreferences.metric, "celsius", "kmh", "mm"),
        (.imperial, "fahrenheit", "mph", "inch"),
        (UnitPreferences(.metric, windSpeed: .kn), "celsius", "kn", "mm"),
        (UnitPreferences(.metric, windSpeed: .ms, precipitation: .inch), "celsius", "ms", "inch"),
        (UnitPreferences(.imperial, temperature: .celsius, windSpeed: .kmh), "celsius", "kmh", "inch"),
        (
            UnitPreferences(temperature: .kelvin, windSpeed: .mph, pressure: .mmHg, precipitation: .cm), "celsius",
            "mph", "mm"
        ),
    ])
    func requestAsksPerQuantity(_ wanted: UnitPreferences, temperature: String, wind: String, precipitation: String) {
        let provider = OpenMeteoProvider(baseURL: "https://api.open-meteo.com", units: wanted, http: FakeHTTPClient())
        let query = Self.query(provider.requestURL(for: Coordinate(latitude: 54.32, longitude: 10.14)))
        #expect(query["temperature_unit"] == temperature)
        #expect(query["wind_speed_unit"] == wind)
        #expect(query["precipitation_unit"] == precipitation)
        // There is no pressure unit to ask for: it comes in hPa and is converted.
        #expect(!query.keys.contains { $0.contains("pressure") })
    }

    /// Asked for knots and inHg: what Open-Meteo answers (knots, hPa) is published as knots and inHg.
    @Test func pressureIsConvertedAfterDecoding() throws {
        let wanted = UnitPreferences(.metric, windSpeed: .kn, pressure: .inHg)
        let body = try Fixtures.edited(Self.bucharest) { json in
            // The answer to wind_speed_unit=kn, from the recording's km/h values (4.7, 12.2).
            var current = json["current"] as! [String: Any]
            current["wind_speed_10m"] = 2.5
            current["wind_gusts_10m"] = 6.6
            json["current"] = current
            var units = json["current_units"] as! [String: Any]
            units["wind_speed_10m"] = "kn"
            units["wind_gusts_10m"] = "kn"
            json["current_units"] = units
        }
        let weather = try OpenMeteoProvider.decode(status: 200, body: body, requested: wanted)
        #expect(weather.windSpeed == 2.5 && weather.units.windSpeed == "kn")
        #expect(weather.forecast?.windGusts == 6.6 && weather.forecast?.units.windGusts == "kn")
        #expect(weather.forecast?.seaLevelPressure == 30.5547 && weather.forecast?.units.seaLevelPressure == "inHg")
        #expect(weather.forecast?.pressureTendency?.unit == "inHg")
        #expect(weather.forecast?.pressureTendency?.trend == .rising)
        #expect(weather.temperature == -5.3 && weather.units.temperature == "°C")
    }

    /// Values the answer does not label are taken to be in the units asked for.
    @Test func unlabelledValuesAreInTheUnitsAskedFor() throws {
        let body = try Fixtures.edited(Self.bucharest) { json in
            json["current_units"] = nil
            json["hourly_units"] = nil
        }
        let kelvin = UnitPreferences(temperature: .kelvin, windSpeed: .kn, pressure: .hPa, precipitation: .mm)
        let weather = try OpenMeteoProvider.decode(status: 200, body: body, requested: kelvin)
        // Asked in celsius (Open-Meteo has no kelvin): -5.3 read as °C, published in K.
        #expect(weather.temperature == 267.85 && weather.units.temperature == "K")
        // Asked in knots: 4.7 read as knots, left as is.
        #expect(weather.windSpeed == 4.7 && weather.units.windSpeed == "kn")
        #expect(weather.forecast?.seaLevelPressure == 1034.7 && weather.forecast?.units.seaLevelPressure == "hPa")
    }

    /// A series labelled in inches under a request for millimetres is converted, and a pressure
    /// series in an unknown unit gives no tendency (its 1 hPa threshold cannot be applied).
    @Test func seriesFollowTheirOwnLabels() throws {
        let body = try Fixtures.edited(Self.bucharest) { json in
            var hourly = json["hourly"] as! [String: Any]
            let count = (hourly["time"] as! [Any]).count
            hourly["precipitation"] = Array(repeating: 0.05, count: count)
            json["hourly"] = hourly
            var units = json["hourly_units"] as! [String: Any]
            units["precipitation"] = "inch"
            units["pressure_msl"] = "bananas"
            json["hourly_units"] = units
        }
        let weather = try OpenMeteoProvider.decode(status: 200, body: body, requested: .metric)
        let amounts = try #require(weather.forecast?.hours).map(\.precipitation)
        #expect(Set(amounts) == [1.27])
        #expect(weather.forecast?.units.precipitation == "mm")
        #expect(weather.forecast?.pressureTendency == nil)
    }
}
