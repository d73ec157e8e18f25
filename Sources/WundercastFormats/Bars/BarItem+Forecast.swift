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

    /// The tooltip's forecast lines, each only with what the state has:
    /// `Gusts 12 km/h` (in Beaufort `Gusts 7 Bft, near gale`), `Pressure 1035 hPa, rising +1.3 hPa/3h`, `Today: high 0°C, low -9°C`,
    /// `Tomorrow: …`, `Sunrise 07:00, sunset 17:19`, then one line per hour on the place's clock:
    /// `23:00 -6°C Clear sky (20%, 0.4 mm)` (the chance of precipitation, and the amount when
    /// some shows at ``DisplayRounding``'s precision). Numbers are rounded by ``DisplayRounding``;
    /// words, clock and decimal separator are `locale`'s. `weather` is the forecast's own (the
    /// language of its condition texts).
    static func forecastLines(
        _ forecast: Forecast, of weather: Weather?, values: [Placeholder: String], locale: UserLocale
    ) -> [String] {
        let unit = UntrustedText.sanitized(forecast.units.temperature ?? "", limit: 8)
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
        for (day, isToday) in [(forecast.today, true), (forecast.tomorrow, false)] {
            func degrees(_ value: Double?) -> String? {
                value.flatMap { Placeholder.withUnit(DisplayRounding.temperature($0), unit, separator: "") }
            }
            let parts = [
                degrees(day?.high).map { locale.tr("high {temperature}", ["temperature": $0]) },
                degrees(day?.low).map { locale.tr("low {temperature}", ["temperature": $0]) },
            ].compactMap { $0 }
            guard !parts.isEmpty else { continue }
            let values: [String: String] = ["values": parts.joined(separator: ", ")]
            lines.append(isToday ? locale.tr("Today: {values}", values) : locale.tr("Tomorrow: {values}", values))
        }
        switch (values[.sunrise], values[.sunset]) {
        case (let sunrise?, let sunset?):
            lines.append(locale.tr("Sunrise {sunrise}, sunset {sunset}", ["sunrise": sunrise, "sunset": sunset]))
        case (let sunrise?, nil): lines.append(locale.tr("Sunrise {sunrise}", ["sunrise": sunrise]))
        case (nil, let sunset?): lines.append(locale.tr("Sunset {sunset}", ["sunset": sunset]))
        case (nil, nil): break
        }
        for hour in (forecast.hours ?? []).prefix(tooltipHours) {
            var line = Placeholder.clockText(hour.time, forecast, locale)
            if let temperature = hour.temperature.map(DisplayRounding.temperature), !temperature.isEmpty {
                line += " \(temperature)\(unit)"
            }
            if let condition = Placeholder.conditionText(hour, of: weather, locale) { line += " \(condition)" }
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
                let text = Placeholder.withUnit(locale.number(amount), precipitationUnit)
            {
                rain.append(text)
            }
            if !rain.isEmpty { line += " (" + rain.joined(separator: ", ") + ")" }
            lines.append(line)
        }
        return lines
    }
}
