#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WundercastSupport
import WundercastModel

/// The sea state of a `/v1/marine` body (``OpenMeteoMarineProvider``).
extension OpenMeteoBody {
    /// The values of `current` (else of the `hourly` hour that contains `now`), checked in the
    /// answer's units, then converted to `requested`. Labels missing or `"undefined"` are taken
    /// to be what was asked (m or ft, °C or °F, km/h; s and °).
    func seaState(cell: MarineCell, now: Date, requested: UnitPreferences) throws(WeatherError) -> SeaState {
        let (block, values, labels, time) = try marineValues(now: now)
        var sea = SeaState(cell: cell.centre, time: time)
        func number(_ key: String) throws(WeatherError) -> Double? {
            try ProviderDecoding.number(values[key], "\(block).\(key)")
        }
        func label(_ key: String) throws(WeatherError) -> String? {
            try ProviderDecoding.unit(labels, "\(block)_units", key)
        }
        func height(_ key: String) throws(WeatherError) -> Double? {
            let unit = try label(key).map { LengthUnit(label: $0) } ?? requested.waveHeight
            guard let unit, let value = try number(key), SeaState.plausibleHeight(unit.toBase(value)) else {
                return nil
            }
            return unit.convert(value, to: requested.waveHeight)
        }
        func period(_ key: String) throws(WeatherError) -> Double? {
            guard try label(key).map({ $0 == "s" }) ?? true, let value = try number(key) else { return nil }
            return SeaState.plausiblePeriod(value) ? value : nil
        }
        func direction(_ key: String) throws(WeatherError) -> Double? {
            guard try label(key).map({ $0 == "°" }) ?? true, let value = try number(key) else { return nil }
            return Weather.direction(value).map(Weather.noNegativeZero)
        }
        sea.waveHeight = try height("wave_height")
        sea.waveDirection = try direction("wave_direction")
        sea.wavePeriod = try period("wave_period")
        sea.windWaveHeight = try height("wind_wave_height")
        sea.windWaveDirection = try direction("wind_wave_direction")
        sea.windWavePeriod = try period("wind_wave_period")
        sea.swellHeight = try height("swell_wave_height")
        sea.swellDirection = try direction("swell_wave_direction")
        sea.swellPeriod = try period("swell_wave_period")
        let temperatureUnit =
            try label("sea_surface_temperature").map { TemperatureUnit(label: $0) }
            ?? requested.seaTemperature
        if let temperatureUnit, let value = try number("sea_surface_temperature"),
            SeaState.plausibleSeaTemperature(temperatureUnit.toBase(value))
        {
            sea.seaTemperature = temperatureUnit.convert(value, to: requested.seaTemperature)
        }
        let speedUnit = try label("ocean_current_velocity").map { WindSpeedUnit(label: $0) } ?? WindSpeedUnit.kmh
        if let speedUnit, speedUnit != .bft, let value = try number("ocean_current_velocity"),
            SeaState.plausibleCurrent(speedUnit.toBase(value))
        {
            sea.currentVelocity = speedUnit.convert(value, to: requested.currentSpeed)
        }
        sea.currentDirection = try direction("ocean_current_direction")
        // All null is land; values that were there but none kept is an answer gone wrong.
        let present = OpenMeteoMarineProvider.variables.contains { key in
            if case .number? = values[key] { true } else { false }
        }
        if sea.isEmpty, present {
            throw .decoding(
                message:
                    "every value of the answer is impossible (waves, sea temperature, current out of any sea's range)")
        }
        sea.units = SeaState.Units(
            height: requested.waveHeight.label, seaTemperature: requested.seaTemperature.label,
            currentVelocity: requested.currentSpeed.label)
        return sea
    }

    /// The block read (`current`, or `hourly` at the hour containing `now`), its values, its
    /// unit labels and the values' time. Throws ``WeatherError/decoding(message:)`` when neither
    /// block has values for `now`: no hour contains it, or `current.time` is missing or more
    /// than ``OpenMeteoMarineProvider/currentTolerance`` from it.
    private func marineValues(
        now: Date
    ) throws(WeatherError) -> (String, [String: JSONValue], [String: JSONValue], Date?) {
        if let current {
            guard case .object(let values) = current else {
                throw .decoding(message: "current is \(current.kind), expected an object")
            }
            let labels = try ProviderDecoding.object(currentUnits, name: "current_units") ?? [:]
            guard let time = try instant(values["time"], "current.time") else {
                throw .decoding(message: "current.time is missing: not known to be the present sea state")
            }
            if abs(time.timeIntervalSince(now)) > OpenMeteoMarineProvider.currentTolerance {
                let hours = Int((time.timeIntervalSince(now) / 3600).rounded(.towardZero))
                throw .decoding(
                    message: "current.time is \(hours) hours from the present time: not the present sea state")
            }
            return ("current", values, labels, Weather.plausibleTime(time))
        }
        let labels = try ProviderDecoding.object(hourlyUnits, name: "hourly_units") ?? [:]
        guard let series = try ProviderDecoding.object(hourly, name: "hourly") else {
            throw .decoding(message: "missing member 'current'")
        }
        guard case .array(let times)? = series["time"] else {
            throw .decoding(message: "hourly.time is missing or not an array")
        }
        for (index, value) in times.enumerated() {
            guard let start = try instant(value, "hourly.time.\(index)"),
                start <= now, now < start.addingTimeInterval(3600)
            else { continue }
            var values: [String: JSONValue] = [:]
            for (key, column) in series {
                guard case .array(let column) = column else {
                    throw .decoding(message: "hourly.\(key) is \(column.kind), expected an array")
                }
                guard column.count == times.count else {
                    throw .decoding(message: "hourly.\(key) has \(column.count) values for \(times.count) times")
                }
                values[key] = column[index]
            }
            return ("hourly", values, labels, Weather.plausibleTime(start))
        }
        // No values for now is not land: nothing is known.
        throw .decoding(message: "no hour of hourly.time contains the present time")
    }
}
