import WundercastModel

extension Publisher {
    /// The sea state's fields of a weather-change entry (``SeaState``), each only with a value:
    /// `WUNDERCAST_MARINE_SOURCE`, `WUNDERCAST_WAVE_HEIGHT` (+ `_UNIT`), `WUNDERCAST_WAVE_PERIOD`
    /// (s), `WUNDERCAST_SWELL_HEIGHT` (in the wave height's unit), `WUNDERCAST_SEA_TEMPERATURE`
    /// (+ `_UNIT`), `WUNDERCAST_CURRENT_VELOCITY` (+ `_UNIT`). The cell is not written: the
    /// entry's position fields, at `[Journal] Precision=`, say where.
    static func marineJournalFields(_ marine: SeaState?) -> [(String, String)] {
        guard let marine else { return [] }
        var fields: [(String, String)] = [("WUNDERCAST_MARINE_SOURCE", marine.source)]
        if let height = marine.waveHeight {
            fields += [("WUNDERCAST_WAVE_HEIGHT", "\(height)"), ("WUNDERCAST_WAVE_HEIGHT_UNIT", marine.units.height)]
        }
        if let period = marine.wavePeriod { fields.append(("WUNDERCAST_WAVE_PERIOD", "\(period)")) }
        if let swell = marine.swellHeight { fields.append(("WUNDERCAST_SWELL_HEIGHT", "\(swell)")) }
        if let temperature = marine.seaTemperature {
            fields += [
                ("WUNDERCAST_SEA_TEMPERATURE", "\(temperature)"),
                ("WUNDERCAST_SEA_TEMPERATURE_UNIT", marine.units.seaTemperature),
            ]
        }
        if let velocity = marine.currentVelocity {
            fields += [
                ("WUNDERCAST_CURRENT_VELOCITY", "\(velocity)"),
                ("WUNDERCAST_CURRENT_VELOCITY_UNIT", marine.units.currentVelocity),
            ]
        }
        return fields
    }
}
