import WundercastSupport
import WundercastModel

extension Weather {
    /// A decoded answer, still in the provider's own units (its unit strings), made into what a
    /// provider returns: values no weather has left out, and an answer whose values were all
    /// impossible refused (``Weather/possibleValues()``), then converted to `wanted`
    /// (``Weather/converted(to:)``). The one place of that order: judged before any conversion,
    /// because a conversion can hide the impossible (a 400 m/s wind is force 12 like any
    /// hurricane's). Every provider's answer passes here once (Open-Meteo's decoders,
    /// ``UnitConvertingProvider`` for the others); an answer with no value at all is refused
    /// later, at the provider's door (``Weather/checkedHasWeather()``, in any units).
    ///
    /// - Throws: ``WeatherError/decoding(message:)`` when every value was impossible.
    public func published(in wanted: UnitPreferences) throws(WeatherError) -> Weather {
        try possibleValues().converted(to: wanted)
    }
}
