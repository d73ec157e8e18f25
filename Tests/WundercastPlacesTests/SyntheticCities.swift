import WundercastPlaces

/// A row of a small hand-made city table.
struct Row {
    var name: String
    var region: String? = nil
    var country: String? = nil
    var countryName: String? = nil
    var timeZone: String? = nil
    var latitude: Double
    var longitude: Double
    var population: Int = 20_000
}

/// A city table of `rows`, written with ``CityTableFormat`` and parsed back.
func cityTable(_ rows: [Row]) throws -> CityTable {
    let lines =
        [CityTableFormat.header(libraryVersion: "test")]
        + rows.map {
            CityTableFormat.line(
                name: $0.name, region: $0.region, countryCode: $0.country, timeZone: $0.timeZone, latitude: $0.latitude,
                longitude: $0.longitude, population: $0.population, countryName: $0.countryName)
        }
    return try CityTable(parsing: Array((lines.joined(separator: "\n") + "\n").utf8))
}

/// The names of `cities`.
func names(_ cities: [City]) -> [String] { cities.map(\.name) }
