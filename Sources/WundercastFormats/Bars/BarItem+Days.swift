#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WundercastSupport
import WundercastModel

extension BarItem {
    /// One line per day of ``Forecast/days`` not over at wall-clock `now` (days before the
    /// place's day of `now` are left out), in the reader's words:
    /// `Tuesday ☁️ 20°C / 8°C Overcast (8%, 0.4 mm), wind 9 km/h from S` — the day's name
    /// (``dayName(_:today:locale:)``; after it `(rest of day)` when the provider's steps begin
    /// late in it, `(until 20:00)` when they end early), the condition's icon in the `--icons` set
    /// (the generic one for a code the model does not know, as on hour lines), high / low (a low
    /// alone as `low 8°C`), condition, the chance and amount of precipitation, the strongest wind
    /// and its direction; each part only when known.
    static func dayLines(
        _ forecast: Forecast, now: Date, of weather: Weather?, icons: IconSet, locale: UserLocale
    ) -> [String] {
        let unit = UntrustedText.sanitized(forecast.units.temperature ?? "", limit: 8)
        func degrees(_ value: Double?) -> String? {
            value.flatMap { Placeholder.withUnit(DisplayRounding.temperature($0), unit, separator: "") }
        }
        let today = forecast.localDay(at: now)
        return forecast.days(notBefore: now).map { day in
            var line = dayName(day, today: today, locale: locale)
            if let until = day.coveredUntil {
                line += " " + locale.tr("(until {time})", ["time": Placeholder.clockText(until, forecast, locale)])
            } else if day.partial == true {
                line += " " + locale.tr("(rest of day)")
            }
            if day.hasConditionCode { line += " " + icons.icon(day.conditionModel.kind, isDay: true) }
            switch (degrees(day.high), degrees(day.low)) {
            case (let high?, let low?): line += " \(high) / \(low)"
            case (let high?, nil): line += " " + high
            case (nil, let low?): line += " " + locale.tr("low {temperature}", ["temperature": low])
            case (nil, nil): break
            }
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

    /// `Today` for the day whose date is `today` (the place's day of the reader's clock, days
    /// since 1970-01-01), `Tomorrow` for the next, else the weekday of its date (`Thursday`) in
    /// `locale`'s language; the date itself (`2026-10-05`) for one that cannot be read.
    static func dayName(_ day: Forecast.Day, today: Int, locale: UserLocale) -> String {
        guard let number = Forecast.day(ofDateText: day.date) else {
            return UntrustedText.sanitized(day.date, limit: 10)
        }
        switch number - today {
        case 0: return locale.tr("Today")
        case 1: return locale.tr("Tomorrow")
        default: return weekdayName(CivilDate(daysSince1970: number).weekday, locale)
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
