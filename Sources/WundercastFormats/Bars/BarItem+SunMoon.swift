import WundercastSupport
import WundercastModel

extension BarItem {
    /// The "Sun and moon" section: `Sunrise 07:00, sunset 17:19` (today's, on the place's clock),
    /// then `Moon: waxing gibbous, 68% lit, rises 00:19, sets 09:35` (``MoonText``); each only
    /// when the state has it.
    static func sunAndMoonLines(_ state: WeatherState, values: [Placeholder: String], locale: UserLocale) -> [String] {
        var lines: [String] = []
        switch (values[.sunrise], values[.sunset]) {
        case (let sunrise?, let sunset?):
            lines.append(locale.tr("Sunrise {sunrise}, sunset {sunset}", ["sunrise": sunrise, "sunset": sunset]))
        case (let sunrise?, nil): lines.append(locale.tr("Sunrise {sunrise}", ["sunrise": sunrise]))
        case (nil, let sunset?): lines.append(locale.tr("Sunset {sunset}", ["sunset": sunset]))
        case (nil, nil): break
        }
        if let moon = state.moon {
            lines.append(locale.tr("Moon: {details}", ["details": MoonText.details(moon, locale)]))
        }
        return lines
    }
}
