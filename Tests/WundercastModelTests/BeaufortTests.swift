import Foundation
import Testing
import WundercastModel

/// The Beaufort force of the WMO table (``Beaufort``) and `WindSpeedUnit=bft`.
@Suite struct BeaufortTests {
    /// Issue 19's edges: the speed in m/s is rounded half up to 0.1 before the table.
    @Test(arguments: [(0.2, 0), (0.3, 1), (32.6, 11), (32.7, 12)])
    func issueEdges(speed: Double, force: Int) {
        #expect(Beaufort(metresPerSecond: speed).rawValue == force)
    }

    /// Every bound of the table (WMO: 0–0.2, 0.3–1.5, 1.6–3.3, 3.4–5.4, 5.5–7.9, 8.0–10.7,
    /// 10.8–13.8, 13.9–17.1, 17.2–20.7, 20.8–24.4, 24.5–28.4, 28.5–32.6, ≥ 32.7 m/s): its lowest
    /// speed is the force, 0.1 m/s less the force below.
    @Test func everyBoundOfTheTable() {
        let lowest = [0.0, 0.3, 1.6, 3.4, 5.5, 8.0, 10.8, 13.9, 17.2, 20.8, 24.5, 28.5, 32.7]
        #expect(Beaufort.allCases.map(\.lowerBound) == lowest)
        for (force, bound) in lowest.enumerated() {
            #expect(Beaufort(metresPerSecond: bound).rawValue == force, "\(bound) m/s")
            if force > 0 { #expect(Beaufort(metresPerSecond: bound - 0.1).rawValue == force - 1, "\(bound - 0.1) m/s") }
        }
    }

    /// Half up at the hundredths: 0.25 is 0.3 (force 1), 0.249 is 0.2 (calm); 1.55 (binary
    /// 1.5500000000000000444) is 1.6, force 2; 32.65 is 32.7, force 12; below zero is calm, a
    /// hurricane stays 12.
    @Test(arguments: [
        (0.25, 1), (0.249, 0), (1.55, 2), (1.549, 1), (32.65, 12), (32.649, 11), (-3, 0), (0, 0), (80, 12),
        (1e300, 12),
    ])
    func roundedHalfUpToATenth(speed: Double, force: Int) {
        #expect(Beaufort(metresPerSecond: speed).rawValue == force)
    }

    @Test func wmoNames() {
        #expect(
            Beaufort.allCases.map(\.name) == [
                "calm", "light air", "light breeze", "gentle breeze", "moderate breeze", "fresh breeze",
                "strong breeze",
                "near gale", "gale", "strong gale", "storm", "violent storm", "hurricane",
            ])
    }

    /// As a wind speed unit: labelled `Bft`, whole forces from any unit (4.7 km/h is 1.31 m/s,
    /// force 1; 12.2 km/h is 3.39 m/s, force 3 — 3.4 after rounding; 21 kn is 10.8 m/s, force 6)
    /// by classification where wind is converted (``PhysicalUnits/windConversion(from:to:)``);
    /// no linear conversion leads to or from it, and a value labelled `Bft` is never converted to
    /// a speed.
    @Test func asAWindSpeedUnit() throws {
        #expect(WindSpeedUnit.bft.label == "Bft")
        #expect(WindSpeedUnit(label: "Bft") == .bft && WindSpeedUnit(label: "beaufort") == .bft)
        #expect(WindSpeedUnit.configurable.contains(.bft))
        func force(_ speed: Double, _ label: String) throws -> Double? {
            let conversion = try #require(PhysicalUnits.windConversion(from: label, to: .bft))
            #expect(conversion.label == "Bft")
            return conversion.apply(speed)
        }
        #expect(try force(4.7, "km/h") == 1)
        #expect(try force(12.2, "km/h") == 3)
        #expect(try force(11.9, "km/h") == 2)
        #expect(try force(21, "kn") == 6)
        #expect(try force(73, "mph") == 11)
        #expect(try force(74, "mph") == 12)
        #expect(try force(0.2, "m/s") == 0)
        #expect(try force(5, "Bft") == 5)
        #expect(PhysicalUnits.windConversion(from: "Bft", to: .kmh) == nil)
        #expect(PhysicalUnits.windConversion(from: "km/h", to: .ms)?.apply(36) == 10, "speeds stay linear")
        #expect(PhysicalUnits.conversion(from: "m/s", to: WindSpeedUnit.bft) == nil, "no factor makes a force")
        #expect(!WindSpeedUnit.bft.converts(to: .ms) && !WindSpeedUnit.ms.converts(to: .bft))
        let labelled = PhysicalUnits.convert(5, label: "Bft", to: WindSpeedUnit.kmh)
        #expect(labelled.value == 5 && labelled.label == "Bft")
    }

    /// Speeds that are not wind (ocean currents) are in knots when wind is in Beaufort, else in
    /// the wind's unit.
    @Test func otherSpeedsInKnotsWithBeaufort() {
        #expect(UnitPreferences(.metric, windSpeed: .bft).otherSpeeds == .kn)
        #expect(UnitPreferences(.imperial, windSpeed: .bft).otherSpeeds == .kn)
        #expect(UnitPreferences(.metric).otherSpeeds == .kmh)
        #expect(UnitPreferences(.imperial).otherSpeeds == .mph)
        #expect(UnitPreferences(.metric, windSpeed: .ms).otherSpeeds == .ms)
    }

    /// A weather's wind and gusts become forces, labelled `Bft`; other values keep their units.
    @Test func weatherConvertedToBeaufort() {
        let weather = Weather(
            temperature: -5.3, windSpeed: 4.7, units: WeatherUnits(temperature: "°C", windSpeed: "km/h"),
            forecast: Forecast(windGusts: 40, units: .init(windGusts: "km/h")))
        let converted = weather.converted(to: UnitPreferences(.metric, windSpeed: .bft))
        #expect(converted.windSpeed == 1)
        #expect(converted.units.windSpeed == "Bft")
        #expect(converted.forecast?.windGusts == 6)
        #expect(converted.forecast?.units.windGusts == "Bft")
        #expect(converted.temperature == -5.3)
        // A force is a plausible wind: it is kept.
        #expect(converted.withoutImpossibleValues().windSpeed == 1)
        #expect(converted.withoutImpossibleValues().forecast?.windGusts == 6)
    }
}
