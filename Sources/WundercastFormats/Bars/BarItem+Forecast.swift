#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WundercastSupport
import WundercastModel

extension BarItem {
    /// Hours of the forecast shown in the tooltip (the state carries up to 12).
    public static let tooltipHours = 6

    /// The tooltip's forecast lines, each only with what the state has:
    /// `Gusts 12 km/h`, `Pressure 1035 hPa, rising +1.3 hPa/3h`, `Today: high 0°C, low -9°C`,
    /// `Tomorrow: …`, `Sunrise 07:00, sunset 17:19`, then one line per hour on the place's clock:
    /// `23:00 -6°C Clear sky (20%, 0.4 mm)` (the chance of precipitation, and the amount when
    /// some shows at ``DisplayRounding``'s precision). Numbers are rounded by ``DisplayRounding``.
    static func forecastLines(_ forecast: Forecast, values: [Placeholder: String]) -> [String] {
        let unit = UntrustedText.sanitized(forecast.units.temperature ?? "", limit: 8)
        var lines: [String] = []
        if let gusts = values[.gusts] {
            let force = forecast.windGusts.flatMap { HumanFormat.beaufortName($0, unit: forecast.units.windGusts) }
            lines.append("Gusts \(gusts)" + (force.map { ", \($0)" } ?? ""))
        }
        if let pressure = values[.pressure] {
            lines.append("Pressure \(pressure)" + (values[.pressureTendency].map { ", \($0)" } ?? ""))
        } else if let tendency = values[.pressureTendency] {
            lines.append("Pressure \(tendency)")
        }
        for (name, day) in [("Today", forecast.today), ("Tomorrow", forecast.tomorrow)] {
            let parts = [("high", day?.high), ("low", day?.low)].compactMap { name, value in
                value.flatMap { Placeholder.withUnit(DisplayRounding.temperature($0), unit, separator: "") }.map {
                    "\(name) \($0)"
                }
            }
            if !parts.isEmpty { lines.append("\(name): " + parts.joined(separator: ", ")) }
        }
        let sun = [values[.sunrise].map { "Sunrise \($0)" }, values[.sunset].map { "sunset \($0)" }].compactMap { $0 }
        if !sun.isEmpty {
            var line = sun.joined(separator: ", ")
            line = line.prefix(1).uppercased() + line.dropFirst()
            lines.append(line)
        }
        for hour in (forecast.hours ?? []).prefix(tooltipHours) {
            var line = Placeholder.clockText(hour.time, forecast)
            if let temperature = hour.temperature.map(DisplayRounding.temperature), !temperature.isEmpty {
                line += " \(temperature)\(unit)"
            }
            if let condition = hourCondition(hour) { line += " \(condition)" }
            var rain: [String] = []
            if let chance = hour.precipitationProbability.flatMap({
                Placeholder.withUnit(DisplayRounding.percent($0), "%", separator: "")
            }) {
                rain.append(chance)
            }
            let precipitationUnit = forecast.units.precipitation
            if let raw = hour.precipitation, raw > 0,
                case let amount = DisplayRounding.precipitation(raw, unit: precipitationUnit),
                amount.contains(where: { ("1"..."9").contains($0) }),
                let text = Placeholder.withUnit(amount, precipitationUnit)
            {
                rain.append(text)
            }
            if !rain.isEmpty { line += " (" + rain.joined(separator: ", ") + ")" }
            lines.append(line)
        }
        return lines
    }

    /// The hour's condition text (sanitized), else the condition model's name for its code.
    static func hourCondition(_ hour: Forecast.Hour) -> String? {
        if let text = hour.condition.map({ UntrustedText.sanitized($0, limit: 60) }), !text.isEmpty { return text }
        return hour.hasConditionCode ? hour.conditionModel.kind.name : nil
    }
}
