import WundercastSupport
import WundercastModel

extension BarItem {
    /// One line per day of ``Forecast/days``, in the reader's words:
    /// `Tuesday ☁️ 20°C / 8°C Overcast (8%, 0.4 mm), wind 9 km/h from S` — the day's name
    /// (``dayName(_:index:locale:)``; `(rest of day)` after it when the provider's steps cover only
    /// part of it), the condition's icon in the `--icons` set, high / low, condition, the chance
    /// and amount of precipitation, the strongest wind and its direction; each part only when known.
    static func dayLines(_ forecast: Forecast, of weather: Weather?, icons: IconSet, locale: UserLocale) -> [String] {
        let unit = UntrustedText.sanitized(forecast.units.temperature ?? "", limit: 8)
        func degrees(_ value: Double?) -> String? {
            value.flatMap { Placeholder.withUnit(DisplayRounding.temperature($0), unit, separator: "") }
        }
        return (forecast.days ?? []).enumerated().map { index, day in
            var line = dayName(day, index: index, locale: locale)
            if day.partial == true { line += " " + locale.tr("(rest of day)") }
            if day.conditionName != nil { line += " " + icons.icon(day.conditionModel.kind, isDay: true) }
            let range = [degrees(day.high), degrees(day.low)].compactMap { $0 }.joined(separator: " / ")
            if !range.isEmpty { line += " " + range }
            if let condition = Placeholder.conditionText(day, of: weather, locale) { line += " " + condition }
            if let rain = rainText(day.precipitationProbability, day.precipitation, forecast, locale) {
                line += " (\(rain))"
            }
            let wind = Weather(
                windSpeed: day.windSpeed, windDirection: day.windDirection,
                units: WeatherUnits(temperature: "", windSpeed: forecast.units.windSpeed ?? ""))
            if let text = HumanFormat.windText(wind, locale) { line += ", " + text }
            return line
        }
    }

    /// `Today`, `Tomorrow` for the first two days, else the weekday of its date (`Thursday`) in
    /// `locale`'s language; the date itself (`2026-10-05`) for one that cannot be read.
    static func dayName(_ day: Forecast.Day, index: Int, locale: UserLocale) -> String {
        switch index {
        case 0: return locale.tr("Today")
        case 1: return locale.tr("Tomorrow")
        default:
            guard let number = Forecast.day(ofDateText: day.date) else {
                return UntrustedText.sanitized(day.date, limit: 10)
            }
            return weekdayName(CivilDate(daysSince1970: number).weekday, locale)
        }
    }

    /// The name of weekday `weekday` (0 = Sunday … 6 = Saturday) in `locale`'s language, capitalised
    /// (it begins a tooltip line).
    public static func weekdayName(_ weekday: Int, _ locale: UserLocale = .english) -> String {
        switch weekday {
        case 0: locale.tr("Sunday")
        case 1: locale.tr("Monday")
        case 2: locale.tr("Tuesday")
        case 3: locale.tr("Wednesday")
        case 4: locale.tr("Thursday")
        case 5: locale.tr("Friday")
        default: locale.tr("Saturday")
        }
    }
}
