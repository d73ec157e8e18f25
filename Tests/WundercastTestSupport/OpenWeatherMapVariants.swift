import Foundation

/// The recorded OpenWeatherMap answers and variants built from them, for tests that need a
/// current weather and a forecast of the same time (the recordings are years apart).
public enum OpenWeatherMapVariants {
    /// `/data/2.5/weather`, Zocca, 2022-08-30 14:43:12 UTC, Kelvin, `timezone` 7200.
    public static let weatherPath = "weather/openweathermap/weather_zocca_standard.json"
    /// `/data/2.5/forecast`, Moravská Třebová, Nov 2015, 40 steps, no `city.timezone`.
    public static let forecastPath = "weather/openweathermap/forecast_moravska-trebova_2015.json"
    /// Zocca's `dt`, `sys.sunrise`, `sys.sunset`.
    public static let zoccaTime = 1_661_870_592.0
    public static let zoccaSunrise = 1_661_834_187.0
    public static let zoccaSunset = 1_661_882_248.0

    /// The recorded forecast moved in time by a whole number of 3-hour steps so that its first
    /// step is the first step boundary (a multiple of 3 h since 1970) after `observed`; with
    /// `timezone`, `sunrise`, `sunset` added to `city` when given, and `pops[i]` as step i's
    /// `pop` (steps beyond `pops` get none). Everything else is as recorded.
    /// With `celsius`, the temperatures as an answer to `units=metric` would give them.
    public static func forecast(
        after observed: Double, timezone: Int? = nil, sunrise: Double? = nil, sunset: Double? = nil,
        pops: [Double] = [], celsius: Bool = false
    ) throws -> [UInt8] {
        try Fixtures.edited(forecastPath) { json in
            var list = json["list"] as? [[String: Any]] ?? []
            let first = (list.first?["dt"] as? NSNumber)?.doubleValue ?? 0
            let start = ((observed / 10_800).rounded(.down) + 1) * 10_800
            let shift = Int(start - first)
            for index in list.indices {
                let dt = (list[index]["dt"] as? NSNumber)?.intValue ?? 0
                list[index]["dt"] = dt + shift
                if index < pops.count { list[index]["pop"] = pops[index] }
                if celsius { list[index]["main"] = inCelsius(list[index]["main"]) }
            }
            json["list"] = list
            var city = json["city"] as? [String: Any] ?? [:]
            if let timezone { city["timezone"] = timezone }
            if let sunrise { city["sunrise"] = Int(sunrise) }
            if let sunset { city["sunset"] = Int(sunset) }
            json["city"] = city
        }
    }

    /// The recorded Zocca weather as an answer to `units=metric` would give it: its Kelvin
    /// temperatures minus 273.15, everything else as recorded.
    public static func weatherInCelsius() throws -> [UInt8] {
        try Fixtures.edited(weatherPath) { $0["main"] = inCelsius($0["main"]) }
    }

    /// A `main` block with `temp`, `feels_like`, `temp_min`, `temp_max` turned from K into °C.
    static func inCelsius(_ main: Any?) -> [String: Any] {
        var main = main as? [String: Any] ?? [:]
        for key in ["temp", "feels_like", "temp_min", "temp_max"] {
            if let kelvin = main[key] as? NSNumber { main[key] = kelvin.doubleValue - 273.15 }
        }
        return main
    }

    /// A fresh directory holding `weather` (default: the recorded Zocca weather) and `forecast`
    /// under the recorded names, for ``FixtureHTTPServer/init(root:startTimeout:)``: its
    /// OpenWeatherMap routes then serve a current weather and a forecast of the same time.
    public static func servedDirectory(weather: [UInt8]? = nil, forecast: [UInt8]) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "wundercast-owm-\(UUID().uuidString)")
        let folder = root.appendingPathComponent("weather/openweathermap")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(try weather ?? Fixtures.bytes(weatherPath)).write(to: root.appendingPathComponent(weatherPath))
        try Data(forecast).write(to: root.appendingPathComponent(forecastPath))
        return root
    }
}
