extension Weather {
    /// This weather in the `wanted` units, converted by the unit strings it carries: what every
    /// provider calls after decoding (their own unit strings, e.g. `"K"`, `"m/s"`, `"mp/h"`,
    /// `"hPa"`, `"inch"`, in ``units`` and ``Forecast/units``).
    ///
    /// - Temperature (``units``.temperature): ``temperature``, ``apparentTemperature``.
    /// - Wind speed (``units``.windSpeed): ``windSpeed``.
    /// - The forecast (``Forecast/converted(to:)``): hours' temperatures and precipitation
    ///   amounts, the days' highs, lows, amounts and strongest winds, gusts, sea-level pressure and the
    ///   pressure tendency's change.
    ///
    /// Each label becomes the wanted unit's (``PhysicalUnit/label``). A value whose label names no
    /// unit of its quantity (or has no label) is left as it is with its label, never relabelled.
    /// Humidity, probabilities and directions have no units to convert. Converted values are
    /// rounded to ``PhysicalUnits/convertedDecimals`` decimals; values already in the wanted unit
    /// keep their precision. No value comes out `-0` (a provider that set one directly included).
    public func converted(to wanted: UnitPreferences) -> Weather {
        var copy = self
        copy.relativeHumidity = relativeHumidity.map(Weather.noNegativeZero)
        copy.windDirection = windDirection.map(Weather.noNegativeZero)
        (copy.temperature, copy.apparentTemperature, copy.windSpeed) = (
            temperature.map(Weather.noNegativeZero), apparentTemperature.map(Weather.noNegativeZero),
            windSpeed.map(Weather.noNegativeZero)
        )
        if let conversion = PhysicalUnits.conversion(from: units.temperature, to: wanted.temperature) {
            copy.temperature = copy.temperature.map(conversion.apply)
            copy.apparentTemperature = copy.apparentTemperature.map(conversion.apply)
            copy.units.temperature = conversion.label
        }
        if let conversion = PhysicalUnits.windConversion(from: units.windSpeed, to: wanted.windSpeed) {
            copy.windSpeed = copy.windSpeed.map(conversion.apply)
            copy.units.windSpeed = conversion.label
        }
        copy.forecast = forecast?.converted(to: wanted)
        return copy
    }
}

extension Forecast {
    /// This forecast in the `wanted` units, by the labels in ``units`` (see
    /// ``Weather/converted(to:)``); the tendency by its own ``PressureTendency/unit``.
    public func converted(to wanted: UnitPreferences) -> Forecast {
        var copy = self.withoutNegativeZero()
        let original = copy
        if let conversion = PhysicalUnits.conversion(from: units.temperature, to: wanted.temperature) {
            copy.hours = original.hours?.map { hour in
                var hour = hour
                hour.temperature = hour.temperature.map(conversion.apply)
                return hour
            }
            copy.days = original.days?.map { day in
                var day = day
                day.high = day.high.map(conversion.apply)
                day.low = day.low.map(conversion.apply)
                return day
            }
            copy.units.temperature = conversion.label
        }
        if let conversion = PhysicalUnits.conversion(from: units.precipitation, to: wanted.precipitation) {
            copy.hours = copy.hours?.map { hour in
                var hour = hour
                hour.precipitation = hour.precipitation.map(conversion.apply)
                return hour
            }
            copy.days = copy.days?.map { day in
                var day = day
                day.precipitation = day.precipitation.map(conversion.apply)
                return day
            }
            copy.units.precipitation = conversion.label
        }
        if let conversion = PhysicalUnits.windConversion(from: units.windGusts, to: wanted.windSpeed) {
            (copy.windGusts, copy.units.windGusts) = (original.windGusts.map(conversion.apply), conversion.label)
        }
        if let conversion = PhysicalUnits.windConversion(from: units.windSpeed, to: wanted.windSpeed) {
            copy.days = copy.days?.map { day in
                var day = day
                day.windSpeed = day.windSpeed.map(conversion.apply)
                return day
            }
            copy.units.windSpeed = conversion.label
        }
        (copy.seaLevelPressure, copy.units.seaLevelPressure) = PhysicalUnits.convert(
            original.seaLevelPressure, label: units.seaLevelPressure, to: wanted.pressure)
        copy.pressureTendency = original.pressureTendency?.converted(to: wanted.pressure)
        return copy
    }

    /// Every number of the forecast with `-0` as `0`.
    func withoutNegativeZero() -> Forecast {
        let zero = Weather.noNegativeZero
        var copy = self
        copy.hours = hours?.map { hour in
            var hour = hour
            hour.temperature = hour.temperature.map(zero)
            hour.precipitation = hour.precipitation.map(zero)
            hour.precipitationProbability = hour.precipitationProbability.map(zero)
            return hour
        }
        copy.days = days?.map { day in
            var day = day
            day.high = day.high.map(zero)
            day.low = day.low.map(zero)
            day.precipitation = day.precipitation.map(zero)
            day.precipitationProbability = day.precipitationProbability.map(zero)
            day.windSpeed = day.windSpeed.map(zero)
            day.windDirection = day.windDirection.map(zero)
            return day
        }
        copy.windGusts = windGusts.map(zero)
        copy.seaLevelPressure = seaLevelPressure.map(zero)
        copy.pressureTendency?.change = zero(pressureTendency?.change ?? 0)
        return copy
    }
}
