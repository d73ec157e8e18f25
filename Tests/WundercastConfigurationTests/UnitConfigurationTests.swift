import Testing
import WundercastModel
import WundercastConfiguration

/// `[Weather] Units=` and the per-quantity overrides: parsing, errors with file:line, and the
/// units they give.
@Suite struct UnitConfigurationTests {
    static let goodCases: [ConfigCase] = [
        .init("[Weather]\nTemperatureUnit=fahrenheit") { $0.weather.temperatureUnit = .fahrenheit },
        .init("[Weather]\nWindSpeedUnit=kn") { $0.weather.windSpeedUnit = .kn },
        .init("[Weather]\nWindSpeedUnit=ms") { $0.weather.windSpeedUnit = .ms },
        .init("[Weather]\nWindSpeedUnit=bft") { $0.weather.windSpeedUnit = .bft },
        .init("[Weather]\nPressureUnit=inHg") { $0.weather.pressureUnit = .inHg },
        .init("[Weather]\nPressureUnit=mmHg") { $0.weather.pressureUnit = .mmHg },
        .init("[Weather]\nPrecipitationUnit=inch") { $0.weather.precipitationUnit = .inch },
        .init("[Weather]\nWindSpeedUnit=kn\nWindSpeedUnit=") { $0.weather.windSpeedUnit = nil },
        .init("[Weather]\nWindSpeedUnit = \"mph\"") { $0.weather.windSpeedUnit = .mph },
        .init("[Weather]\nUnits=imperial\nTemperatureUnit=celsius\nPressureUnit=hPa") {
            $0.weather.units = .imperial
            $0.weather.temperatureUnit = .celsius
            $0.weather.pressureUnit = .hPa
        },
    ]

    @Test(arguments: goodCases)
    func parsesKey(_ c: ConfigCase) throws {
        #expect(try Configuration.parse(c.text) == c.expected)
    }

    static let errorCases: [ErrorCase] = [
        .init(
            "[Weather]\nTemperatureUnit=kelvin", line: 2,
            "TemperatureUnit=\"kelvin\" is not one of: celsius, fahrenheit (the unit of temperatures; empty follows Units=)"
        ),
        .init(
            "[Weather]\nUnits=metric\n\nWindSpeedUnit=knots", line: 4,
            "WindSpeedUnit=\"knots\" is not one of: kmh, ms, mph, kn, bft (the unit of wind speeds; empty follows Units=)"
        ),
        .init(
            "[Weather]\nWindSpeedUnit=km/h", line: 2,
            "WindSpeedUnit=\"km/h\" is not one of: kmh, ms, mph, kn, bft (the unit of wind speeds; empty follows Units=)"
        ),
        .init(
            "[Weather]\nPressureUnit=hpa", line: 2,
            "PressureUnit=\"hpa\" is not one of: hPa, inHg, mmHg (the unit of pressures; empty follows Units=)"),
        .init(
            "[Weather]\nPressureUnit=kPa", line: 2,
            "PressureUnit=\"kPa\" is not one of: hPa, inHg, mmHg (the unit of pressures; empty follows Units=)"),
        .init(
            "[Weather]\nPrecipitationUnit=in", line: 2,
            "PrecipitationUnit=\"in\" is not one of: mm, inch (the unit of precipitation amounts; empty follows Units=)"
        ),
        .init(
            "[Weather]\nPrecipitationUnit=\u{1B}[2J", line: 2,
            "PrecipitationUnit=\"\\u{1b}[2J\" is not one of: mm, inch (the unit of precipitation amounts; empty follows Units=)"
        ),
        .init(
            "[Location]\nWindSpeedUnit=kn", line: 2,
            "unknown key WindSpeedUnit= in [Location] (known keys: Authorization, GPSD, MaxHorizontalError, MaxFixAge, Fallback)"
        ),
    ]

    @Test(arguments: errorCases)
    func refusesValue(_ c: ErrorCase) {
        #expect(throws: ConfigurationError(file: "units.conf", line: c.line, message: c.message)) {
            try Configuration.parse(c.text, file: "units.conf")
        }
    }

    @Test func theUnitsConfiguredAreThePreferences() throws {
        #expect(Configuration().weather.unitPreferences == .metric)
        let imperial = try Configuration.parse("[Weather]\nUnits=imperial")
        #expect(imperial.weather.unitPreferences == .imperial)
        let sailor = try Configuration.parse("[Weather]\nWindSpeedUnit=kn\nPressureUnit=hPa\nUnits=imperial")
        #expect(
            sailor.weather.unitPreferences
                == UnitPreferences(temperature: .fahrenheit, windSpeed: .kn, pressure: .hPa, precipitation: .inch))
        let all = try Configuration.parse(
            "[Weather]\nTemperatureUnit=celsius\nWindSpeedUnit=ms\nPressureUnit=mmHg\nPrecipitationUnit=mm\nUnits=imperial"
        )
        #expect(
            all.weather.unitPreferences
                == UnitPreferences(temperature: .celsius, windSpeed: .ms, pressure: .mmHg, precipitation: .mm))
    }

    /// Every value a key lists is accepted.
    @Test func everyListedValueParses() throws {
        for unit in TemperatureUnit.configurable {
            #expect(
                try Configuration.parse("[Weather]\nTemperatureUnit=\(unit.rawValue)").weather.temperatureUnit == unit)
        }
        for unit in WindSpeedUnit.configurable {
            #expect(try Configuration.parse("[Weather]\nWindSpeedUnit=\(unit.rawValue)").weather.windSpeedUnit == unit)
        }
        for unit in PressureUnit.configurable {
            #expect(try Configuration.parse("[Weather]\nPressureUnit=\(unit.rawValue)").weather.pressureUnit == unit)
        }
        for unit in PrecipitationUnit.configurable {
            #expect(
                try Configuration.parse("[Weather]\nPrecipitationUnit=\(unit.rawValue)").weather.precipitationUnit
                    == unit)
        }
    }
}
