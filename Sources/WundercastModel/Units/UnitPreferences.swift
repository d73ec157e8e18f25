/// The units the daemon publishes, one per quantity: `[Weather] Units=` as the base, each
/// overridden by `TemperatureUnit=`, `WindSpeedUnit=`, `PressureUnit=`, `PrecipitationUnit=`.
/// Providers are asked for these units where they can be (Open-Meteo: temperature, wind speed,
/// precipitation) and every value is then converted by its unit string
/// (``Weather/converted(to:)``).
public struct UnitPreferences: Sendable, Equatable {
    public var temperature: TemperatureUnit
    /// Wind speed and gusts.
    public var windSpeed: WindSpeedUnit
    /// Sea-level pressure and its tendency.
    public var pressure: PressureUnit
    /// Precipitation amounts.
    public var precipitation: PrecipitationUnit

    public init(
        temperature: TemperatureUnit, windSpeed: WindSpeedUnit, pressure: PressureUnit,
        precipitation: PrecipitationUnit
    ) {
        self.temperature = temperature
        self.windSpeed = windSpeed
        self.pressure = pressure
        self.precipitation = precipitation
    }

    /// `system`'s units, each replaced by its override when one is given: metric is °C, km/h,
    /// hPa, mm; imperial °F, mph, inHg, in.
    public init(
        _ system: UnitSystem, temperature: TemperatureUnit? = nil, windSpeed: WindSpeedUnit? = nil,
        pressure: PressureUnit? = nil, precipitation: PrecipitationUnit? = nil
    ) {
        let base =
            switch system {
            case .metric: (TemperatureUnit.celsius, WindSpeedUnit.kmh, PressureUnit.hPa, PrecipitationUnit.mm)
            case .imperial: (TemperatureUnit.fahrenheit, WindSpeedUnit.mph, PressureUnit.inHg, PrecipitationUnit.inch)
            }
        self.init(
            temperature: temperature ?? base.0, windSpeed: windSpeed ?? base.1, pressure: pressure ?? base.2,
            precipitation: precipitation ?? base.3)
    }

    /// The unit of speeds that are not wind (the machine's speed over ground): the wind's, or
    /// knots when wind is in Beaufort (a force is for wind only). Ocean currents take knots or
    /// km/h from it (``currentSpeed``, the Marine API's two units).
    public var otherSpeeds: WindSpeedUnit { windSpeed == .bft ? .kn : windSpeed }

    /// °C, km/h, hPa, mm.
    public static let metric = UnitPreferences(.metric)
    /// °F, mph, inHg, in.
    public static let imperial = UnitPreferences(.imperial)
}

extension WeatherUnits {
    /// The labels of values in `preferences` (`°C`, `km/h`, `°`, `%`).
    public static func wanted(_ preferences: UnitPreferences) -> WeatherUnits {
        WeatherUnits(temperature: preferences.temperature.label, windSpeed: preferences.windSpeed.label)
    }
}
