#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WundercastSupport
import WundercastModel

/// The forecast blocks of a `/v1/forecast` body: `hourly` and `daily` (parallel arrays under a
/// `time` array, units in `hourly_units`/`daily_units`), plus the current gusts and pressure.
///
/// - A missing or `null` block is left out; so is a missing series in it, and a `null` in a series.
/// - `time` entries are unix seconds (`timeformat=unixtime`, as the daemon asks) or local
///   `yyyy-MM-ddTHH:mm` (`daily.time`: `yyyy-MM-dd`) read with `utc_offset_seconds`; an hour
///   whose time is `null` is skipped.
/// - A block that has series but no `time`, a series whose length differs from `time`'s, or a
///   value of the wrong type throws ``WeatherError/decoding(message:)`` naming the member (the
///   values could not be placed in time).
extension OpenMeteoBody {
    /// The `hourly=` variables requested, in this order.
    static let hourlyVariables = [
        "temperature_2m", "precipitation_probability", "precipitation", "weather_code", "is_day", "pressure_msl",
    ]
    /// The `daily=` variables requested, in this order.
    static let dailyVariables = [
        "weather_code", "temperature_2m_max", "temperature_2m_min", "precipitation_sum",
        "precipitation_probability_max", "wind_speed_10m_max", "wind_direction_10m_dominant", "sunrise", "sunset",
    ]

    /// The forecast after `observed` (`current.time`): `nil` when the body gives nothing for it.
    /// Without an observation time there are no hours, days or tendency (the wall clock is never used).
    func forecast(
        current: [String: JSONValue], labels currentLabels: [String: JSONValue], observed: Date?,
        requested: UnitPreferences
    ) throws(WeatherError) -> Forecast? {
        let offset = try offsetSeconds()
        let fallback = WeatherUnits.wanted(requested)
        var forecast = Forecast(utcOffsetSeconds: utcOffsetSeconds == nil ? nil : Int(offset))
        if case .string(let name)? = timezone, let zone = ZoneInfoDatabase.validatedName(name) {
            forecast.timeZone = zone
            if zone.hasPrefix("Etc/GMT") { forecast.nauticalTime = true }
        }

        forecast.windGusts = try ProviderDecoding.number(current["wind_gusts_10m"], "current.wind_gusts_10m")
            .map(Weather.noNegativeZero)
        if forecast.windGusts != nil {
            forecast.units.windGusts =
                try ProviderDecoding.unit(currentLabels, "current_units", "wind_gusts_10m") ?? fallback.windSpeed
        }
        forecast.seaLevelPressure = try ProviderDecoding.number(current["pressure_msl"], "current.pressure_msl")
            .map(Weather.noNegativeZero)
        if forecast.seaLevelPressure != nil {
            forecast.units.seaLevelPressure =
                try ProviderDecoding.unit(currentLabels, "current_units", "pressure_msl") ?? "hPa"
        }

        if let hourly = try Series(block: hourly, name: "hourly", units: hourlyUnits, unitsName: "hourly_units") {
            let times = try hourly.times { value, path throws(WeatherError) in try instant(value, path) }
            let temperatures = try hourly.numbers("temperature_2m")
            let probabilities = try hourly.numbers("precipitation_probability")
            let amounts = try hourly.numbers("precipitation")
            let codes = try hourly.numbers("weather_code")
            let days = try hourly.values("is_day") { value, path throws(WeatherError) in try Self.flag(value, path) }
            let pressures = try hourly.numbers("pressure_msl")
            var hours: [Forecast.Hour] = []
            var samples: [PressureTendency.Sample] = []
            for (index, time) in times.enumerated() {
                guard let time else { continue }
                hours.append(
                    Forecast.Hour(
                        time: time, temperature: temperatures[index], precipitationProbability: probabilities[index],
                        precipitation: amounts[index],
                        weatherCode: try Self.code(codes[index], "hourly.weather_code[\(index)]"),
                        isDay: days[index] ?? sunIsUp(at: time)))
                if let pressure = pressures[index] { samples.append(.init(time: time, pressure: pressure)) }
            }
            if let observed {
                let next = Forecast.nextHours(hours, after: observed)
                forecast.hours = next.isEmpty ? nil : next
                if next.contains(where: { $0.temperature != nil }) {
                    forecast.units.temperature = try hourly.unit("temperature_2m") ?? fallback.temperature
                }
                if next.contains(where: { $0.precipitation != nil }) {
                    forecast.units.precipitation = try hourly.unit("precipitation") ?? requested.precipitation.label
                }
                if next.contains(where: { $0.precipitationProbability != nil }) {
                    forecast.units.precipitationProbability = try hourly.unit("precipitation_probability") ?? "%"
                }
                // The threshold is in hPa (Open-Meteo's only pressure unit): other units are
                // converted to it, unknown ones give no tendency.
                if let unit = PressureUnit(label: try hourly.unit("pressure_msl") ?? PressureUnit.hPa.label) {
                    let inHectopascals = samples.map {
                        PressureTendency.Sample(time: $0.time, pressure: unit.toBase($0.pressure))
                    }
                    forecast.pressureTendency = PressureTendency.compute(inHectopascals, at: observed, source: .hourly)
                }
            }
        }

        if let observed,
            let daily = try Series(block: daily, name: "daily", units: dailyUnits, unitsName: "daily_units")
        {
            let today = Forecast.localDay(of: observed, utcOffsetSeconds: Int(offset))
            let dates = try daily.times { value, path throws(WeatherError) -> Int? in
                switch value {
                case .null: return nil
                case .number(let seconds) where abs(seconds) < 1e11:
                    return Forecast.localDay(
                        startingAt: Date(timeIntervalSince1970: seconds), utcOffsetSeconds: Int(offset))
                case .string(let text):
                    guard let day = Forecast.day(ofDateText: text) else {
                        throw .decoding(message: "\(path) is \"\(text)\", expected unix seconds or yyyy-MM-dd")
                    }
                    return day
                case .number(let seconds): throw .decoding(message: "\(path) is \(seconds), expected unix seconds")
                default: throw .decoding(message: "\(path) is \(value.kind), expected a number or a string")
                }
            }
            try addDays(to: &forecast, daily, dates: dates, from: today, fallback: fallback, requested: requested)
        }
        return forecast.isEmpty ? nil : forecast
    }
}

extension OpenMeteoBody {
    /// The daily entries from local day `today` on (consecutive; at most
    /// ``Forecast/dayRange``'s upper bound: the request's `forecast_days` is `[Weather] Days=`):
    /// `daily.weather_code`, `temperature_2m_max`/`_min`, `precipitation_sum`,
    /// `precipitation_probability_max`, `wind_speed_10m_max`, `wind_direction_10m_dominant`,
    /// `sunrise`, `sunset`, with their `daily_units`.
    fileprivate func addDays(
        to forecast: inout Forecast, _ daily: Series, dates: [Int?], from today: Int, fallback: WeatherUnits,
        requested: UnitPreferences
    ) throws(WeatherError) {
        let highs = try daily.numbers("temperature_2m_max")
        let lows = try daily.numbers("temperature_2m_min")
        let amounts = try daily.numbers("precipitation_sum")
        let chances = try daily.numbers("precipitation_probability_max")
        let winds = try daily.numbers("wind_speed_10m_max")
        let directions = try daily.numbers("wind_direction_10m_dominant")
        let codes = try daily.numbers("weather_code")
        let sunrises = try daily.values("sunrise") { value, path throws(WeatherError) in try instant(value, path) }
        let sunsets = try daily.values("sunset") { value, path throws(WeatherError) in try instant(value, path) }
        let limit = Forecast.dayRange.upperBound
        var days: [Forecast.Day?] = []
        for number in today..<(today + limit) {
            guard let index = dates.firstIndex(of: number) else { break }
            days.append(
                Forecast.Day(
                    date: Forecast.dateText(day: number), high: highs[index], low: lows[index],
                    precipitation: amounts[index], precipitationProbability: chances[index],
                    windSpeed: winds[index], windDirection: directions[index],
                    weatherCode: try Self.code(codes[index], "daily.weather_code[\(index)]"),
                    sunrise: sunrises[index], sunset: sunsets[index]))
        }
        forecast.days = Forecast.consecutive(days, limit: limit)
        let kept = forecast.days ?? []
        if kept.contains(where: { $0.high != nil || $0.low != nil }), forecast.units.temperature == nil {
            let maximum = try daily.unit("temperature_2m_max")
            let minimum = try daily.unit("temperature_2m_min")
            forecast.units.temperature = maximum ?? minimum ?? fallback.temperature
        }
        if kept.contains(where: { $0.precipitation != nil }), forecast.units.precipitation == nil {
            forecast.units.precipitation = try daily.unit("precipitation_sum") ?? requested.precipitation.label
        }
        if kept.contains(where: { $0.precipitationProbability != nil }), forecast.units.precipitationProbability == nil
        {
            forecast.units.precipitationProbability = try daily.unit("precipitation_probability_max") ?? "%"
        }
        if kept.contains(where: { $0.windSpeed != nil }) {
            forecast.units.windSpeed = try daily.unit("wind_speed_10m_max") ?? fallback.windSpeed
        }
    }
}

/// One block of parallel series (`hourly`, `daily`): its `time` array and the other arrays,
/// each checked to be as long as `time`.
fileprivate struct Series {
    let name: String
    let members: [String: JSONValue]
    let labels: [String: JSONValue]
    let unitsName: String
    let count: Int

    /// `nil` for a missing or `null` block.
    init?(block: JSONValue?, name: String, units: JSONValue?, unitsName: String) throws(WeatherError) {
        guard let members = try ProviderDecoding.object(block, name: name) else { return nil }
        self.name = name
        self.members = members
        self.labels = try ProviderDecoding.object(units, name: unitsName) ?? [:]
        self.unitsName = unitsName
        switch members["time"] {
        case .array(let times)?: count = times.count
        case nil, .null?: throw .decoding(message: "missing member '\(name).time'")
        case let other?: throw .decoding(message: "\(name).time is \(other.kind), expected an array")
        }
    }

    /// Each `time` entry read by `read` (given the entry and its path).
    func times<T>(_ read: (JSONValue, String) throws(WeatherError) -> T?) throws(WeatherError) -> [T?] {
        try values("time", read)
    }

    /// The series `key` read entry by entry (a `null` entry may stay `nil`), or all `nil`
    /// when the block has no such series.
    func values<T>(_ key: String, _ read: (JSONValue, String) throws(WeatherError) -> T?) throws(WeatherError) -> [T?] {
        let array: [JSONValue]
        switch members[key] {
        case nil, .null?: return Array(repeating: nil, count: count)
        case .array(let entries)?: array = entries
        case let other?: throw .decoding(message: "\(name).\(key) is \(other.kind), expected an array")
        }
        guard array.count == count else {
            throw .decoding(message: "\(name).\(key) has \(array.count) values for \(count) times")
        }
        var out: [T?] = []
        out.reserveCapacity(count)
        for (index, entry) in array.enumerated() { out.append(try read(entry, "\(name).\(key)[\(index)]")) }
        return out
    }

    /// The series `key` of numbers (or `null`).
    func numbers(_ key: String) throws(WeatherError) -> [Double?] {
        try values(key) { value, path throws(WeatherError) in try ProviderDecoding.number(value, path) }
    }

    /// The unit label of series `key`, `nil` when not labelled.
    func unit(_ key: String) throws(WeatherError) -> String? {
        try ProviderDecoding.unit(labels, unitsName, key)
    }
}
