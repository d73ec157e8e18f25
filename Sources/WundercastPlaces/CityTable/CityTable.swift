import WundercastModel

/// The city table: every city of a table file (from libgeonames: 24,361 cities of at least
/// 15,000 people) in compact arrays, with a nearest-city index and a name search. Immutable.
///
/// The arrays are the sections of one binary image (``CityTableImage``): a file's bytes
/// (``init(image:owner:trusted:)``; the daemon holds one copy of its file, `CityTableFile`) or a
/// text table parsed onto the heap (``init(parsing:)``). No `City` objects are
/// kept: names are one byte list, regions, countries and time zones are interned,
/// coordinates are `Int32` in 1e-5 degrees and populations `Int32`. ``city(at:)`` makes a
/// ``City`` on demand. The cities are stored in the order of an implicit k-d tree over their
/// positions on the unit sphere (see ``NearestCityIndex``), so the nearest-city index costs
/// no memory of its own. The real table's image is about 0.9 MB.
public struct CityTable: Sendable {
    /// The table's first line, e.g.
    /// `# wundercast cities v1 from libgeonames 0.3.0; data © GeoNames, CC BY 4.0`.
    public let header: String
    /// The whole image, kept valid (and unchanged) by ``owner``.
    nonisolated(unsafe) let image: UnsafeRawBufferPointer
    let owner: any AnyObject & Sendable
    /// City names (UTF-8), by city index.
    let names: PackedStringsView
    /// Latitude and longitude of each city in 1e-5 degrees.
    let latitudes: Column<Int32>
    let longitudes: Column<Int32>
    /// Inhabitants of each city.
    let populations: Column<Int32>
    /// Index into ``regions`` (a region and its country) of each city.
    let regionOf: Column<UInt16>
    /// Index into ``timeZones`` of each city.
    let timeZoneOf: Column<UInt16>
    /// Interned regions (empty: none), their folded names, and their country (index into ``countryCodes``).
    let regions: PackedStringsView
    let regionsFolded: PackedStringsView
    let regionCountry: Column<UInt16>
    /// Interned countries: ISO code, English name, folded name (each may be empty).
    let countryCodes: PackedStringsView
    let countryNames: PackedStringsView
    let countryNamesFolded: PackedStringsView
    /// Interned IANA time zones (empty: none).
    let timeZones: PackedStringsView
    /// Folded names of the cities whose folded name is not just their name with ASCII letters
    /// lower-cased (`Tromsø` → `tromso`; about one in five): city indexes, ascending, and names.
    let foldedCities: Column<UInt32>
    let foldedNames: PackedStringsView

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

    /// Bytes of the table's image (``CityTableImage``), all of them resident: on the heap for a
    /// parsed text table, or the copy of the file it was read from.
    public var heldBytes: Int { image.count }

    /// The image as bytes, to write a `cities.bin` (`wundercast-cities --image`).
    public var imageBytes: [UInt8] { Array(image) }
}
