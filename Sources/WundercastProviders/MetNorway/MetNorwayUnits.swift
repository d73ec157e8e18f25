import WundercastSupport
import WundercastModel

/// Units of MET Norway's values: read from the answer's `properties.meta.units`
/// (`"celsius"`, `"m/s"`, `"hPa"`, `"mm"`, `"%"`, `"degrees"`) and converted to what
/// `[Weather] Units=` asks for, in one place.
enum MetNorwayUnits {
    /// The units locationforecast 2.0 documents, used when `meta.units` does not name one.
    static let documented: [String: String] = [
        "air_temperature": "celsius", "wind_speed": "m/s", "wind_speed_of_gust": "m/s",
        "air_pressure_at_sea_level": "hPa", "precipitation_amount": "mm", "relative_humidity": "%",
        "wind_from_direction": "degrees", "probability_of_precipitation": "%",
    ]

    /// `value`, given in met.no's unit `unit`, in the unit `system` publishes, with that unit's
    /// label: temperatures in °C (metric) or °F (imperial), wind speeds in km/h or mph (from
    /// `"m/s"`, `"km/h"`, `"mph"`, `"kn"`), `"degrees"` as `°`; other units (hPa, mm, %) are
    /// kept, and so is a unit this table does not know (its label sanitised, at most 16
    /// characters). A converted value is rounded to 0.01 (no binary noise such as 13.680000000000001).
    static func convert(_ value: Double, from unit: String, to system: UnitSystem) -> (value: Double, unit: String) {
        let metric = system == .metric
        let converted: (Double, String)? =
            switch unit {
            case "celsius": metric ? (value, "°C") : (value * 9 / 5 + 32, "°F")
            case "fahrenheit": metric ? ((value - 32) * 5 / 9, "°C") : (value, "°F")
            case "kelvin": metric ? (value - 273.15, "°C") : ((value - 273.15) * 9 / 5 + 32, "°F")
            case "m/s": metric ? (value * 3.6, "km/h") : (value / 0.44704, "mph")
            case "km/h": metric ? (value, "km/h") : (value / 1.609344, "mph")
            case "mph": metric ? (value * 1.609344, "km/h") : (value, "mph")
            case "kn", "knots": metric ? (value * 1.852, "km/h") : (value * 1.852 / 1.609344, "mph")
            case "degrees": (value, "°")
            default: nil
            }
        guard let (number, label) = converted else { return (value, UntrustedText.sanitized(unit, limit: 16)) }
        let rounded = number == value ? value : (number * 100).rounded() / 100
        return (Weather.noNegativeZero(rounded), label)
    }

    /// The label `convert` gives values of `unit` under `system`.
    static func label(_ unit: String, _ system: UnitSystem) -> String {
        convert(0, from: unit, to: system).unit
    }
}
