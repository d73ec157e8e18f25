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

    /// The tooltip's wind line: `Wind 9 km/h from E`, in Beaufort with the force's WMO name in
    /// `locale`'s language (`Wind 5 Bft, fresh breeze from E`); `wind` and `direction` as the
    /// templates show them.
    static func windLine(_ wind: String, of weather: Weather?, direction: String?, locale: UserLocale) -> String {
        WindPhrase.lineStart.text(
            wind, value: weather?.windSpeed, unit: weather?.units.windSpeed, direction: direction, locale)
    }

    /// The tooltip's gusts and pressure lines, each only with what the state has: `Gusts 12 km/h`
    /// (in Beaufort `Gusts 7 Bft, near gale`), `Pressure 1035 hPa, rising +1.3 hPa/3h`.
    static func gustAndPressureLines(
        _ forecast: Forecast, values: [Placeholder: String], locale: UserLocale
    ) -> [String] {
        var lines: [String] = []
        if let gusts = values[.gusts] {
            let force = forecast.windGusts.flatMap {
                HumanFormat.beaufortName($0, unit: forecast.units.windGusts, locale)
            }
            lines.append(
                force.map { locale.tr("Gusts {gusts}, {force}", ["gusts": gusts, "force": $0]) }
                    ?? locale.tr("Gusts {gusts}", ["gusts": gusts]))
        }
        switch (values[.pressure], values[.pressureTendency]) {
        case (let pressure?, let tendency?):
            lines.append(locale.tr("Pressure {pressure}, {tendency}", ["pressure": pressure, "tendency": tendency]))
        case (let pressure?, nil): lines.append(locale.tr("Pressure {pressure}", ["pressure": pressure]))
        case (nil, let tendency?): lines.append(locale.tr("Pressure {pressure}", ["pressure": tendency]))
        case (nil, nil): break
        }
        return lines
    }

    /// One line per hour not ended at wall-clock `now` (at most ``tooltipHours``) on the
    /// place's clock, with the condition's
    /// icon in the `--icons` set: `23:00 🌧️ -6°C Slight rain (20%, 0.4 mm)` (the chance of
    /// precipitation, and the amount when some shows at ``DisplayRounding``'s precision).
    /// Numbers are rounded by ``DisplayRounding``; words, clock and decimal separator are
    /// `locale`'s. `weather` is the forecast's own (the language of its condition texts).
    static func hourLines(
        _ forecast: Forecast, now: Date, of weather: Weather?, icons: IconSet, locale: UserLocale
    ) -> [String] {
        let unit = UntrustedText.sanitized(forecast.units.temperature ?? "", limit: 8)
        var lines: [String] = []
        for hour in forecast.hours(notEndedAt: now).prefix(tooltipHours) {
            var line = Placeholder.clockText(hour.time, forecast, locale)
            if hour.hasConditionCode { line += " " + icons.icon(hour.conditionModel.kind, isDay: hour.isDay ?? true) }
            if let temperature = hour.temperature.map(DisplayRounding.temperature), !temperature.isEmpty {
                line += " \(temperature)\(unit)"
            }
            if let condition = Placeholder.conditionText(hour, of: weather, locale) { line += " \(condition)" }
            if let rain = rainText(hour.precipitationProbability, hour.precipitation, forecast, locale) {
                line += " (\(rain))"
            }
            lines.append(line)
        }
        return lines
    }

    /// `20%, 0.4 mm`: a chance of precipitation, and an amount when some shows at
    /// ``DisplayRounding``'s precision (in the forecast's precipitation unit); `nil` for neither.
    static func rainText(_ chance: Double?, _ amount: Double?, _ forecast: Forecast, _ locale: UserLocale) -> String? {
        var rain: [String] = []
        if let chance = chance.flatMap({ Placeholder.withUnit(DisplayRounding.percent($0), "%", separator: "") }) {
            rain.append(chance)
        }
        let precipitationUnit = forecast.units.precipitation
        if let raw = amount, raw > 0,
            case let rounded = DisplayRounding.precipitation(raw, unit: precipitationUnit),
            rounded.contains(where: { ("1"..."9").contains($0) }),
            let text = Placeholder.withUnit(locale.number(rounded), precipitationUnit)
        {
            rain.append(text)
        }
        return rain.isEmpty ? nil : rain.joined(separator: ", ")
    }
}
