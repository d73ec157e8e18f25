import WundercastModel

extension Configuration.WeatherSettings {
    /// The units published: `Units=` with the overrides `TemperatureUnit=`, `WindSpeedUnit=`,
    /// `PressureUnit=`, `PrecipitationUnit=`.
    public var unitPreferences: UnitPreferences {
        UnitPreferences(
            units, temperature: temperatureUnit, windSpeed: windSpeedUnit, pressure: pressureUnit,
            precipitation: precipitationUnit)
    }
}

extension Configuration {
    /// `[Weather]` keys that override `Units=` for one quantity, in the order of the sample file.
    /// An empty value (the default) follows `Units=`.
    static let unitKeys: [Key] = [
        Key(name: "TemperatureUnit") { (c, v) throws(InvalidValue) in
            c.weather.temperatureUnit = try unitOverride(v, TemperatureUnit.configurable, quantity: "temperatures")
        },
        Key(name: "WindSpeedUnit") { (c, v) throws(InvalidValue) in
            c.weather.windSpeedUnit = try unitOverride(v, WindSpeedUnit.configurable, quantity: "wind speeds")
        },
        Key(name: "PressureUnit") { (c, v) throws(InvalidValue) in
            c.weather.pressureUnit = try unitOverride(v, PressureUnit.configurable, quantity: "pressures")
        },
        Key(name: "PrecipitationUnit") { (c, v) throws(InvalidValue) in
            c.weather.precipitationUnit = try unitOverride(
                v, PrecipitationUnit.configurable, quantity: "precipitation amounts")
        },
    ]

    /// One of `choices` by its exact name (`kn`, `inHg`), or `nil` for an empty value (follow
    /// `Units=`); anything else is refused, listing the choices.
    private static func unitOverride<U: PhysicalUnit & RawRepresentable<String>>(
        _ v: String, _ choices: [U], quantity: String
    ) throws(InvalidValue) -> U? {
        if v.isEmpty { return nil }
        guard let unit = choices.first(where: { $0.rawValue == v }) else {
            throw InvalidValue(
                "is not one of: \(choices.map(\.rawValue).joined(separator: ", ")) (the unit of \(quantity); empty follows Units=)"
            )
        }
        return unit
    }
}
