import Foundation
import Testing
import WundercastModel
import WundercastProviders
import WundercastTestSupport

/// The Marine API's recorded answers (Tests/Fixtures/README.md, weather/open-meteo-marine/):
/// at sea, over land with nulls, on the coast; metric, feet and Fahrenheit.
@Suite struct OpenMeteoMarineTests {
    static let directory = "weather/open-meteo-marine/"
    static let northSea = directory + "northsea_all_variables_current_minutely15_hourly_daily_2026-10.json"
    static let multi = directory + "multi_location_sst_atlantic_land-rhoen_mediterranean_2026-10.json"
    static let tampa = directory + "tampa_bay_coast_elev8_168h_2026-07.json"
    static let monterey = directory + "monterey_bay_coast_ft_24h_sst_2026-07.json"
    static let clearwater = directory + "clearwater_gulf_current_ft_fahrenheit_2026-09.json"
    static let danaPoint = directory + "dana_point_coast_ft_48h_wind_wave_swell_2026-09.json"
    static let cell = MarineCell(Coordinate(latitude: 53.04, longitude: 3.96))

    static func decode(
        _ body: [UInt8], _ units: UnitPreferences = .metric, now: Double = 1_791_027_900, status: Int = 200
    ) throws -> SeaState {
        try OpenMeteoMarineProvider.decode(
            status: status, body: body, requested: units, cell: cell, now: Date(timeIntervalSince1970: now))
    }

    @Test func atSeaEveryQuantityFromCurrent() throws {
        let sea = try Self.decode(try Fixtures.bytes(Self.northSea))
        #expect(sea.source == "open-meteo-marine")
        #expect(sea.cell == SeaState.Cell(latitude: 53.125, longitude: 3.875))
        // current.time 2026-10-03T13:45 at utc_offset_seconds 7200.
        #expect(sea.time == Date(timeIntervalSince1970: 1_791_027_900))
        #expect(sea.waveHeight == 0.76 && sea.waveDirection == 240 && sea.wavePeriod == 3.85)
        #expect(sea.windWaveHeight == 0.58 && sea.windWaveDirection == 248 && sea.windWavePeriod == 3.05)
        #expect(sea.swellHeight == 0.34 && sea.swellDirection == 256 && sea.swellPeriod == 4.25)
        #expect(sea.seaTemperature == 18.4)
        #expect(sea.currentVelocity == 1.0 && sea.currentDirection == 158)
        #expect(sea.units == SeaState.Units(height: "m", seaTemperature: "°C", currentVelocity: "km/h"))
        #expect(!sea.isEmpty)
    }

    @Test func currentsInKnotsWhenWindIsInKnotsOrBeaufort() throws {
        for wind in [WindSpeedUnit.kn, .bft] {
            let sea = try Self.decode(try Fixtures.bytes(Self.northSea), UnitPreferences(.metric, windSpeed: wind))
            #expect(sea.currentVelocity == 0.54)  // 1.0 km/h
            #expect(sea.units.currentVelocity == "kn")
        }
        let mph = try Self.decode(try Fixtures.bytes(Self.northSea), UnitPreferences(.metric, windSpeed: .mph))
        #expect(mph.units.currentVelocity == "km/h" && mph.currentVelocity == 1.0)
    }

    /// The Rhön element of a multi-location answer: HTTP 200, every value null: land.
    @Test func overLandEveryValueIsNullAndTheStateIsEmpty() throws {
        let list = try #require(
            try JSONSerialization.jsonObject(with: Data(try Fixtures.bytes(Self.multi))) as? [Any])
        let land = try JSONSerialization.data(withJSONObject: list[1])
        let sea = try Self.decode(Array(land), now: 1_790_989_300)
        #expect(sea.isEmpty)
        #expect(sea.seaTemperature == nil)
        // Its sea neighbour in the same file has a value.
        let atlantic = try JSONSerialization.data(withJSONObject: list[0])
        #expect(try Self.decode(Array(atlantic), now: 1_790_989_300).seaTemperature == 27.7)
    }

    /// A coast cell (Tampa Bay, asked on land): the hour containing now, on the place's clock.
    @Test func coastCellFromHourlyAtTheHourContainingNow() throws {
        // 2026-07-27T12:00 at −4 h is 16:00 UTC; 16:30 UTC is in that hour.
        let sea = try Self.decode(try Fixtures.bytes(Self.tampa), now: 1_785_168_000 + 1800)
        #expect(sea.waveHeight == 0.18 && sea.waveDirection == 285 && sea.wavePeriod == 2.9)
        #expect(sea.time == Date(timeIntervalSince1970: 1_785_168_000))
        #expect(sea.seaTemperature == nil && sea.swellHeight == nil)
        // Outside the answer's hours nothing is known: an error, never land.
        #expect(throws: WeatherError.self) { try Self.decode(try Fixtures.bytes(Self.tampa), now: 1_700_000_000) }
    }

    @Test func feetConvertedToMetresAndKeptForFeet() throws {
        let bytes = try Fixtures.bytes(Self.monterey)
        let metric = try Self.decode(bytes, now: 1_782_918_000)
        #expect(metric.waveHeight == 2.5399 && metric.swellHeight == 2.4399)  // 8.333 ft, 8.005 ft
        #expect(metric.seaTemperature == 14.3 && metric.units.height == "m")
        let feet = try Self.decode(bytes, .imperial, now: 1_782_918_000)
        #expect(feet.waveHeight == 8.333 && feet.units.height == "ft")
        #expect(feet.seaTemperature == 57.74 && feet.units.seaTemperature == "°F")
    }

    @Test func fahrenheitAnswer() throws {
        let bytes = try Fixtures.bytes(Self.clearwater)
        // current.time 2026-09-25T12:45 UTC.
        let imperial = try Self.decode(bytes, .imperial, now: 1_790_340_300)
        #expect(imperial.seaTemperature == 85.3 && imperial.waveHeight == 2.034 && imperial.wavePeriod == 3.8)
        let metric = try Self.decode(bytes, .metric, now: 1_790_340_300)
        #expect(metric.seaTemperature == 29.6111 && metric.waveHeight == 0.62)
    }

    @Test func undefinedUnitsAndNullsLeftOut() throws {
        // 2026-09-22T00:00 at −7 h.
        let sea = try Self.decode(try Fixtures.bytes(Self.danaPoint), .imperial, now: 1_790_060_400)
        #expect(sea.swellHeight == 1.903 && sea.swellPeriod == 12.4 && sea.windWaveHeight == 0.197)
        #expect(sea.currentVelocity == nil)
    }

    @Test func implausibleValuesLeftOut() throws {
        let body = Array(
            #"{"current_units":{"wave_height":"m","sea_surface_temperature":"°C","ocean_current_velocity":"km/h"},"current":{"time":1791027900,"wave_height":95,"wave_period":4,"wave_direction":400,"sea_surface_temperature":80,"ocean_current_velocity":-3}}"#
                .utf8)
        let sea = try Self.decode(body)
        #expect(sea.waveHeight == nil && sea.waveDirection == nil && sea.seaTemperature == nil)
        #expect(sea.currentVelocity == nil && sea.wavePeriod == 4)
    }

    /// A `current` block of another time is not the present sea state: the recorded North Sea
    /// answer read two months later (or 3 h 1 min before it was made) is an error; up to 3 hours
    /// away it is the present's.
    @Test func currentOfAnotherTimeIsAnError() throws {
        let bytes = try Fixtures.bytes(Self.northSea)
        let recorded = 1_791_027_900.0
        for now in [recorded + 61 * 86_400, recorded - 3 * 3600 - 60] {
            #expect(throws: WeatherError.self) { try Self.decode(bytes, now: now) }
        }
        #expect(try Self.decode(bytes, now: recorded + 3 * 3600).waveHeight == 0.76)
        #expect(try Self.decode(bytes, now: recorded - 3 * 3600).waveHeight == 0.76)
    }

    /// A `current` block without a `time` is not known to be the present's: an error naming it,
    /// not a sea state (nor land, when its values are all `null`).
    @Test func currentWithoutATimeIsAnError() throws {
        for body in [
            #"{"current":{"wave_height":0.8,"sea_surface_temperature":14}}"#,
            #"{"current":{"time":null,"wave_height":null}}"#,
        ] {
            #expect {
                try Self.decode(Array(body.utf8))
            } throws: {
                "\($0)".contains("current.time is missing")
            }
        }
    }

    /// Only an answer whose values are all `null` is land; one whose values are all impossible is
    /// an error (nothing is known, not even that it is land).
    @Test func everyValueImpossibleIsAnErrorNotLand() throws {
        let impossible = Array(
            #"{"current":{"time":1791027900,"wave_height":95,"wave_direction":400,"sea_surface_temperature":80,"ocean_current_velocity":-3,"swell_wave_period":null}}"#
                .utf8)
        #expect(throws: WeatherError.self) { try Self.decode(impossible) }
        let nulls = Array(#"{"current":{"time":1791027900,"wave_height":null,"sea_surface_temperature":null}}"#.utf8)
        #expect(try Self.decode(nulls).isEmpty)
    }

    @Test func errorsAsTheWeatherProvidersAre() throws {
        let body = Array(
            #"{"error":true,"reason":"Cannot initialize MarineVariable from invalid String value x"}"#.utf8)
        #expect(throws: WeatherError.self) { try Self.decode(body, status: 400) }
        #expect(throws: WeatherError.self) { try Self.decode(Array("<html>".utf8)) }
        #expect(throws: WeatherError.self) { try Self.decode(Array(#"{"current":{"wave_height":"high"}}"#.utf8)) }
    }

    @Test func requestStatesTheCellSelectionAndUnits() {
        let provider = OpenMeteoMarineProvider(
            baseURL: "https://marine-api.open-meteo.com/", units: .imperial, http: FakeHTTPClient())
        let url = provider.requestURL(for: Coordinate(latitude: 53.04, longitude: 3.96))
        #expect(
            url.hasPrefix(
                "https://marine-api.open-meteo.com/v1/marine?latitude=53.04&longitude=3.96&current=wave_height,"))
        let query = OpenMeteoUnitsTests.query(url)
        #expect(query["cell_selection"] == "sea")
        #expect(query["length_unit"] == "imperial" && query["temperature_unit"] == "fahrenheit")
        #expect(query["wind_speed_unit"] == "kmh")
        #expect(query["current"]?.split(separator: ",").count == 12)
    }
}
