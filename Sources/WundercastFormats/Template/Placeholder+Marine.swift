import WundercastSupport
import WundercastModel

extension Placeholder {
    /// The values of the sea-state placeholders (`{waves}`, `{wavePeriod}`, `{swell}`,
    /// `{seaTemperature}`, `{current}`), each only when `marine` has it; numbers in `locale`'s
    /// decimal separator, units as the daemon labelled them (sanitized, bounded).
    static func marineValues(_ marine: SeaState, _ locale: UserLocale, into values: inout [Placeholder: String]) {
        values[.waves] = marine.waveHeight.flatMap { height($0, marine, locale) }
        values[.wavePeriod] = marine.wavePeriod.flatMap { period($0) }
        values[.swell] = marine.swellHeight.flatMap { height($0, marine, locale) }
        values[.seaTemperature] = marine.seaTemperature.flatMap {
            withUnit(DisplayRounding.temperature($0), marine.units.seaTemperature, separator: "")
        }
        values[.current] = marine.currentVelocity.flatMap { currentSpeed($0, marine, locale) }
    }

    /// A height to 0.1 (`1.2 m`, `4.1 ft`).
    static func height(_ value: Double, _ marine: SeaState, _ locale: UserLocale) -> String? {
        withUnit(locale.number(DisplayRounding.text(value, decimals: 1)), marine.units.height)
    }

    /// A period in whole seconds (`5 s`).
    static func period(_ value: Double) -> String? {
        withUnit(DisplayRounding.text(value, decimals: 0), "s")
    }

    /// A current's speed to 0.1 (`0.6 kn`).
    static func currentSpeed(_ value: Double, _ marine: SeaState, _ locale: UserLocale) -> String? {
        withUnit(locale.number(DisplayRounding.text(value, decimals: 1)), marine.units.currentVelocity)
    }
}
