#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WundercastSupport
import WundercastModel

extension BarItem {
    /// The tooltip's sections as seen at wall-clock `now`, in this order, each only with lines (an empty one is left out):
    /// 1. official alerts in force (no heading);
    /// 2. **Now**: condition, temperature, humidity, wind, gusts, pressure;
    /// 3. **Next hours**: ``hourLines(_:now:of:icons:locale:)``;
    /// 4. **Next days**: ``dayLines(_:now:of:icons:locale:)``;
    /// 5. **Sea**: the sea state's lines (`weather.marine`, ``seaLines(_:locale:)``);
    /// 6. **Sun and moon**: sunrise and sunset, the Moon (``sunAndMoonLines(_:values:locale:)``);
    /// 7. place, age and status (no heading).
    static func tooltipSections(
        _ state: WeatherState, now: Date, values: [Placeholder: String], icons: IconSet, locale: UserLocale
    ) -> [TooltipSection] {
        var sections = [TooltipSection(lines: alertLines(state.alerts, locale))]
        sections.append(
            TooltipSection(heading: locale.tr("Now"), lines: nowLines(state, values: values, locale: locale)))
        if let forecast = state.weather?.forecast {
            sections.append(
                TooltipSection(
                    heading: locale.tr("Next hours"),
                    lines: hourLines(forecast, now: now, of: state.weather, icons: icons, locale: locale)))
            sections.append(
                TooltipSection(
                    heading: locale.tr("Next days"),
                    lines: dayLines(forecast, now: now, of: state.weather, icons: icons, locale: locale)))
        }
        sections.append(
            TooltipSection(heading: locale.tr("Sea"), lines: seaLines(state.weather?.marine, locale: locale)))
        sections.append(
            TooltipSection(
                heading: locale.tr("Sun and moon"), lines: sunAndMoonLines(state, values: values, locale: locale)))
        sections.append(TooltipSection(lines: footerLines(state, values: values, locale: locale)))
        return sections.filter { !$0.lines.isEmpty }
    }

    /// Condition, temperature (and apparent), humidity, wind, then gusts and pressure.
    static func nowLines(_ state: WeatherState, values: [Placeholder: String], locale: UserLocale) -> [String] {
        var lines: [String] = []
        if let condition = values[.condition] { lines.append(condition) }
        let unit = values[.unit] ?? ""
        if let temperature = values[.temperature] {
            let shown = temperature + unit
            lines.append(
                values[.apparent].map {
                    locale.tr(
                        "Temperature {temperature} (feels like {apparent})",
                        ["temperature": shown, "apparent": $0 + unit])
                } ?? locale.tr("Temperature {temperature}", ["temperature": shown]))
        } else if let apparent = values[.apparent] {
            lines.append(locale.tr("Feels like {apparent}", ["apparent": apparent + unit]))
        }
        if let humidity = values[.humidity] { lines.append(locale.tr("Humidity {humidity}", ["humidity": humidity])) }
        if let wind = values[.wind] {
            lines.append(windLine(wind, of: state.weather, direction: values[.windDirection], locale: locale))
        }
        if let forecast = state.weather?.forecast {
            lines += gustAndPressureLines(forecast, values: values, locale: locale)
        }
        return lines
    }

    /// Place, age and status.
    static func footerLines(_ state: WeatherState, values: [Placeholder: String], locale: UserLocale) -> [String] {
        var lines: [String] = []
        if let location = state.location {
            let coordinates = PlaceText.coordinates(latitude: location.latitude, longitude: location.longitude)
            let place = values[.place] ?? coordinates
            lines.append(place == coordinates ? place : "\(place) (\(coordinates))")
        }
        if state.ageUnknown == true {
            lines.append(locale.tr("Updated before the restart (age unknown)"))
        } else if let age = values[.age] {
            lines.append(locale.tr("Updated {age}", ["age": age]))
        }
        let status = HumanFormat.statusName(state.status, locale)
        lines.append(
            state.error.map {
                locale.tr("Status: {status}: {reason}", ["status": status, "reason": HumanError.text($0, locale)])
            } ?? locale.tr("Status: {status}", ["status": status]))
        return lines
    }
}
