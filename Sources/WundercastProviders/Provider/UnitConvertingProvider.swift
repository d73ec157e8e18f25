import WundercastSupport
import WundercastModel

/// A provider whose answers are checked for impossible values in their own units and then
/// converted to the configured units per quantity (``Weather/published(in:)``): for providers that publish in the base `Units=` system only
/// (OpenWeatherMap, MET Norway), so that `TemperatureUnit=`, `WindSpeedUnit=`, `PressureUnit=`
/// and `PrecipitationUnit=` hold for them too. Name, secrets and errors are the base provider's.
public struct UnitConvertingProvider: WeatherProvider {
    public let base: any WeatherProvider
    public let preferences: UnitPreferences

    public init(_ base: any WeatherProvider, to preferences: UnitPreferences) {
        self.base = base
        self.preferences = preferences
    }

    public var name: String { base.name }
    public var secrets: Secrets { base.secrets }

    public func currentWeather(at coordinate: Coordinate) async throws(WeatherError) -> Weather {
        try await base.currentWeather(at: coordinate).published(in: preferences)
    }
}
