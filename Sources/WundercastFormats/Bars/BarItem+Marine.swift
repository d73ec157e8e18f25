import WundercastSupport
import WundercastModel

extension BarItem {
    /// The tooltip's sea lines (`weather.marine`), each only with what the state has, in
    /// `locale`'s words and decimal separator:
    /// `Waves 1.2 m from SW, 5 s`, `Wind waves 0.6 m from W, 3 s`, `Swell 0.3 m from W, 8 s`,
    /// `Sea temperature 18°C`, `Current 0.6 kn towards NE` (waves come *from* a direction, the
    /// current flows *towards* one: the Marine API's conventions).
    static func seaLines(_ marine: SeaState?, locale: UserLocale) -> [String] {
        guard let marine else { return [] }
        func parts(_ height: Double?, _ direction: Double?, _ period: Double?) -> String? {
            let parts = [
                height.flatMap { Placeholder.height($0, marine, locale) },
                direction.map { locale.tr("from {direction}", ["direction": PlaceText.compass($0, locale)]) },
                period.flatMap(Placeholder.period),
            ].compactMap { $0 }
            return parts.isEmpty ? nil : parts.joined(separator: ", ")
        }
        var lines: [String] = []
        if let waves = parts(marine.waveHeight, marine.waveDirection, marine.wavePeriod) {
            lines.append(locale.tr("Waves {values}", ["values": waves]))
        }
        if let windWaves = parts(marine.windWaveHeight, marine.windWaveDirection, marine.windWavePeriod) {
            lines.append(locale.tr("Wind waves {values}", ["values": windWaves]))
        }
        if let swell = parts(marine.swellHeight, marine.swellDirection, marine.swellPeriod) {
            lines.append(locale.tr("Swell {values}", ["values": swell]))
        }
        var values: [Placeholder: String] = [:]
        Placeholder.marineValues(marine, locale, into: &values)
        if let temperature = values[.seaTemperature] {
            lines.append(locale.tr("Sea temperature {temperature}", ["temperature": temperature]))
        }
        if let speed = values[.current] {
            lines.append(
                marine.currentDirection.map {
                    locale.tr(
                        "Current {speed} towards {direction}",
                        ["speed": speed, "direction": PlaceText.compass($0, locale)])
                } ?? locale.tr("Current {speed}", ["speed": speed]))
        }
        return lines
    }
}
