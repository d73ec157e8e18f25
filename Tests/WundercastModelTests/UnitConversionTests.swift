import Foundation
import Testing
import WundercastModel
import WundercastTestSupport

/// The conversion module (Sources/WundercastModel/Units): unit strings read into units, known
/// values converted, unknown strings left alone.
@Suite struct UnitConversionTests {
    /// Published reference values: 0 °C = 32 °F, 273.15 K = 0 °C, 1 kn = 1.852 km/h (1852 m per
    /// hour), 1 m/s = 3.6 km/h, 1 inHg = 33.8639 hPa, 1 mmHg = 1.33322 hPa, 25.4 mm = 1 in.
    @Test func knownValues() {
        #expect(TemperatureUnit.celsius.convert(0, to: .fahrenheit) == 32)
        #expect(TemperatureUnit.fahrenheit.convert(32, to: .celsius) == 0)
        #expect(TemperatureUnit.celsius.convert(100, to: .fahrenheit) == 212)
        #expect(TemperatureUnit.fahrenheit.convert(-40, to: .celsius) == -40)
        #expect(TemperatureUnit.kelvin.convert(273.15, to: .celsius) == 0)
        #expect(TemperatureUnit.kelvin.convert(255.372, to: .fahrenheit) == -0.0004)
        #expect(TemperatureUnit.kelvin.convert(300, to: .fahrenheit) == 80.33)
        #expect(WindSpeedUnit.kn.convert(1, to: .kmh) == 1.852)
        #expect(WindSpeedUnit.ms.convert(1, to: .kmh) == 3.6)
        #expect(WindSpeedUnit.kmh.convert(3.6, to: .ms) == 1)
        #expect(WindSpeedUnit.mph.convert(1, to: .kmh) == 1.6093)
        #expect(WindSpeedUnit.kmh.convert(1.852, to: .kn) == 1)
        #expect(WindSpeedUnit.ms.convert(10, to: .kn) == 19.4384)
        #expect(PressureUnit.inHg.convert(1, to: .hPa) == 33.8639)
        #expect(PressureUnit.mmHg.convert(1, to: .hPa) == 1.3332)
        #expect(abs(PressureUnit.mmHg.toBase(1) - 1.33322) < 5e-6)
        #expect(abs(PressureUnit.inHg.toBase(1) - 33.8639) < 5e-5)
        #expect(PressureUnit.hPa.convert(1013.25, to: .inHg) == 29.9213)
        #expect(PressureUnit.hPa.convert(1013.25, to: .mmHg) == 760)
        #expect(PressureUnit.kPa.convert(101.325, to: .hPa) == 1013.25)
        #expect(PressureUnit.pa.convert(101_325, to: .hPa) == 1013.25)
        #expect(PrecipitationUnit.mm.convert(25.4, to: .inch) == 1)
        #expect(PrecipitationUnit.inch.convert(1, to: .mm) == 25.4)
        #expect(PrecipitationUnit.cm.convert(1, to: .mm) == 10)
    }

    /// Every unit converts to every other of its quantity and back, to the resolution kept (half
    /// a unit of the 4th decimal in each unit, 0.0001 inHg being 0.0034 hPa).
    @Test func roundTrips() {
        func check<U: PhysicalUnit>(_ units: [U], _ values: [Double]) {
            for a in units {
                for b in units {
                    let scale = (b.toBase(1) - b.toBase(0)) / (a.toBase(1) - a.toBase(0))
                    let tolerance = 0.00005 * scale + 0.00005 + 1e-9
                    for value in values {
                        let there = a.convert(value, to: b)
                        #expect(abs(b.convert(there, to: a) - value) <= tolerance, "\(value) \(a) → \(b) → \(a)")
                    }
                }
            }
        }
        check(Array(TemperatureUnit.allCases), [-40, -5.3, 0, 22.5, 300])
        // The Beaufort force is a scale of ranges, not a unit to go back from (BeaufortTests).
        check(WindSpeedUnit.allCases.filter { $0 != .bft }, [0, 4.7, 12.2, 150])
        check(Array(PressureUnit.allCases), [870, 1013.25, 1084])
        check(Array(PrecipitationUnit.allCases), [0, 0.1, 2.5, 300])
    }

    @Test(arguments: [
        ("°C", TemperatureUnit.celsius), ("℃", .celsius), ("C", .celsius), ("celsius", .celsius), (" °c ", .celsius),
        ("°F", .fahrenheit), ("fahrenheit", .fahrenheit), ("K", .kelvin), ("kelvin", .kelvin),
    ])
    func temperatureStrings(_ text: String, _ unit: TemperatureUnit) {
        #expect(TemperatureUnit(label: text) == unit)
    }

    @Test(arguments: [
        ("km/h", WindSpeedUnit.kmh), ("kmh", .kmh), ("m/s", .ms), ("meter/sec", .ms), ("mph", .mph), ("mp/h", .mph),
        ("miles/hour", .mph), ("kn", .kn), ("kt", .kn), ("knots", .kn), ("KN", .kn),
    ])
    func windSpeedStrings(_ text: String, _ unit: WindSpeedUnit) {
        #expect(WindSpeedUnit(label: text) == unit)
    }

    @Test(arguments: [
        ("hPa", PressureUnit.hPa), ("mbar", .hPa), ("inHg", .inHg), ("mmHg", .mmHg), ("torr", .mmHg), ("kPa", .kPa),
        ("Pa", .pa),
    ])
    func pressureStrings(_ text: String, _ unit: PressureUnit) {
        #expect(PressureUnit(label: text) == unit)
    }

    @Test(arguments: [("mm", PrecipitationUnit.mm), ("inch", .inch), ("in", .inch), ("inches", .inch), ("cm", .cm)])
    func precipitationStrings(_ text: String, _ unit: PrecipitationUnit) {
        #expect(PrecipitationUnit(label: text) == unit)
    }

    /// Strings of another quantity, empty, Open-Meteo's "undefined", or nonsense name no unit.
    @Test(arguments: ["", "undefined", "km/h", "hPa", "%", "°", "wmo code", "Beaufort", "°C\u{1B}[2J", "degrees"])
    func unknownTemperatureStrings(_ text: String) {
        #expect(TemperatureUnit(label: text) == nil)
    }

    @Test(arguments: ["", "undefined", "°C", "K", "B", "km", "m", "knots/h", "hPa"])
    func unknownWindStrings(_ text: String) {
        #expect(WindSpeedUnit(label: text) == nil)
    }

    @Test(arguments: ["", "undefined", "mm", "in", "atm", "psi", "bar", "hPa/3h"])
    func unknownPressureStrings(_ text: String) {
        #expect(PressureUnit(label: text) == nil)
    }

    @Test(arguments: ["", "undefined", "hPa", "m", "mm/h", "l/m²", "%"])
    func unknownPrecipitationStrings(_ text: String) {
        #expect(PrecipitationUnit(label: text) == nil)
    }

    @Test func labelsArePublishedSpellings() {
        #expect(TemperatureUnit.allCases.map(\.label) == ["°C", "°F", "K"])
        #expect(WindSpeedUnit.allCases.map(\.label) == ["km/h", "m/s", "mph", "kn", "Bft"])
        #expect(PressureUnit.allCases.map(\.label) == ["hPa", "inHg", "mmHg", "kPa", "Pa"])
        #expect(PrecipitationUnit.allCases.map(\.label) == ["mm", "in", "cm"])
        // Each label reads back as its unit.
        for unit in TemperatureUnit.allCases { #expect(TemperatureUnit(label: unit.label) == unit) }
        for unit in WindSpeedUnit.allCases { #expect(WindSpeedUnit(label: unit.label) == unit) }
        for unit in PressureUnit.allCases { #expect(PressureUnit(label: unit.label) == unit) }
        for unit in PrecipitationUnit.allCases { #expect(PrecipitationUnit(label: unit.label) == unit) }
    }

    @Test func unknownLabelsLeaveValueAndLabelAlone() {
        // A Beaufort force is no speed to convert: left as it is (BeaufortTests).
        let beaufort = PhysicalUnits.convert(4, label: "Bft", to: WindSpeedUnit.kn)
        #expect(beaufort.value == 4 && beaufort.label == "Bft")
        let unlabelled = PhysicalUnits.convert(4, label: nil, to: WindSpeedUnit.kn)
        #expect(unlabelled.value == 4 && unlabelled.label == nil)
        let known = PhysicalUnits.convert(4, label: "m/s", to: WindSpeedUnit.kn)
        #expect(known.value == 7.7754 && known.label == "kn")
    }

    /// Converted values never carry `-0`, and values already in the wanted unit are untouched.
    @Test func convertedValuesAreNeverNegativeZero() {
        let tiny = TemperatureUnit.celsius.convert(-0.00001, to: .kelvin) - 273.15
        #expect(tiny == 0)
        for value in [-0.0, -0.00001, -0.00004] {
            let converted = PrecipitationUnit.mm.convert(value, to: .inch)
            #expect(converted == 0 && converted.sign == .plus, "\(value)")
        }
        #expect(WindSpeedUnit.kn.convert(0.123456789, to: .kn) == 0.123456789)
        #expect(TemperatureUnit.fahrenheit.convert(31.99999, to: .celsius).sign == .plus)
    }

    @Test func preferencesFollowTheSystemThenTheOverrides() {
        #expect(
            UnitPreferences.metric
                == UnitPreferences(temperature: .celsius, windSpeed: .kmh, pressure: .hPa, precipitation: .mm))
        #expect(
            UnitPreferences.imperial
                == UnitPreferences(temperature: .fahrenheit, windSpeed: .mph, pressure: .inHg, precipitation: .inch))
        let sailor = UnitPreferences(.metric, windSpeed: .kn, pressure: .hPa)
        #expect(sailor == UnitPreferences(temperature: .celsius, windSpeed: .kn, pressure: .hPa, precipitation: .mm))
        let mixed = UnitPreferences(.imperial, temperature: .celsius, precipitation: .mm)
        #expect(mixed == UnitPreferences(temperature: .celsius, windSpeed: .mph, pressure: .inHg, precipitation: .mm))
    }
}
