/// The city table in memory: every city of the table file (``CityTableFormat``; from
/// libgeonames: 24,361 cities of at least 15,000 people) in compact arrays, with a
/// nearest-city index and a name search. Immutable once parsed (``init(parsing:)``).
///
/// No `City` objects are kept: names are one byte array, regions, countries and time zones are
/// interned, coordinates are `Int32` in 1e-5 degrees and populations `Int32`. ``city(at:)``
/// makes a ``City`` on demand. The cities are stored in the order of an implicit k-d tree
/// over their positions on the unit sphere (see ``NearestCityIndex``), so the nearest-city
/// index costs no memory of its own. With the real table ``heldBytes`` is about 0.9 MB.
public struct CityTable: Sendable {
    /// The table's first line, e.g.
    /// `# wundercast cities v1 from libgeonames 0.3.0; data © GeoNames, CC BY 4.0`.
    public let header: String
    /// City names (UTF-8), by city index.
    let names: PackedStrings
    /// Latitude and longitude of each city in 1e-5 degrees.
    let latitudes: [Int32]
    let longitudes: [Int32]
    /// Inhabitants of each city.
    let populations: [Int32]
    /// Index into ``regions`` (a region and its country) of each city.
    let regionOf: [UInt16]
    /// Index into ``timeZones`` of each city.
    let timeZoneOf: [UInt16]
    /// Interned regions (empty: none), their folded names, and their country (index into ``countries``).
    let regions: PackedStrings
    let regionsFolded: PackedStrings
    let regionCountry: [UInt16]
    /// Interned countries: ISO code, English name, folded name (each may be empty).
    let countryCodes: PackedStrings
    let countryNames: PackedStrings
    let countryNamesFolded: PackedStrings
    /// Interned IANA time zones (empty: none).
    let timeZones: PackedStrings
    /// Folded names of the cities whose folded name is not just their name with ASCII letters
    /// lower-cased (`Tromsø` → `tromso`; about one in five): city indexes, ascending, and names.
    let foldedCities: [UInt32]
    let foldedNames: PackedStrings

    /// How many cities the table holds.
    public var count: Int { latitudes.count }

    /// City `index` (0 ..< ``count``), made from the compact storage. Indexes follow the
    /// k-d order, not the file's line order.
    public func city(at index: Int) -> City {
        let region = Int(regionOf[index])
        let country = Int(regionCountry[region])
        return City(
            name: names.string(index) ?? "", region: regions.string(region), country: countryCodes.string(country),
            countryName: countryNames.string(country), timeZone: timeZones.string(Int(timeZoneOf[index])),
            coordinate: coordinate(at: index), population: Int(populations[index]))
    }

    /// Where city `index` is.
    func coordinate(at index: Int) -> Coordinate {
        Coordinate(latitude: Double(latitudes[index]) / 1e5, longitude: Double(longitudes[index]) / 1e5)
    }

    /// Bytes the table holds in its arrays (capacities and array headers; the few interned
    /// strings' bytes included; the `header` string and the struct itself not).
    public var heldBytes: Int {
        names.heldBytes + latitudes.heldBytes + longitudes.heldBytes + populations.heldBytes + regionOf.heldBytes
            + timeZoneOf.heldBytes + regions.heldBytes + regionsFolded.heldBytes + regionCountry.heldBytes
            + countryCodes.heldBytes + countryNames.heldBytes + countryNamesFolded.heldBytes + timeZones.heldBytes
            + foldedCities.heldBytes + foldedNames.heldBytes
    }
}
