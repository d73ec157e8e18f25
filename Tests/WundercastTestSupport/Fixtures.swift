import Foundation

/// Files under `Tests/Fixtures` (real recorded inputs; see its README for origins).
public enum Fixtures {
    /// `Tests/Fixtures` of this checkout, found from this source file's path.
    public static let directory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // WundercastTestSupport
        .deletingLastPathComponent()  // Tests
        .appendingPathComponent("Fixtures")

    /// `Tests/Tools` of this checkout (fixture HTTP server, demo script).
    public static let tools: URL = directory.deletingLastPathComponent().appendingPathComponent("Tools")

    /// The fixture at `relativePath`, e.g. `"weather/open-meteo/error_400.json"`.
    public static func url(_ relativePath: String) -> URL { directory.appendingPathComponent(relativePath) }

    /// The bytes of the fixture at `relativePath`.
    public static func bytes(_ relativePath: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: url(relativePath)))
    }
}

/// Recorded Open-Meteo answers (`Tests/Fixtures/weather/open-meteo`) that the tests of several
/// modules decode: the providers', the model's (pressure tendency) and the formats'.
public enum OpenMeteoRecordings {
    public static let bucharest = "weather/open-meteo/current_bucharest_metric.json"
    public static let newYork = "weather/open-meteo/forecast_newyork_daily.json"
    public static let zagreb = "weather/open-meteo/forecast_zagreb_precipitation_probability.json"
    public static let munich = "weather/open-meteo/forecast_munich_unixtime.json"
    public static let berlin = "weather/open-meteo/forecast_berlin_minutely15_gmt.json"
}
