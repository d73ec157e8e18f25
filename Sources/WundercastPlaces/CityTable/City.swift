import WundercastModel

/// A city of the city table (GeoNames' cities of at least 15,000 people, from libgeonames),
/// or a place found by online geocoding. Made on demand from the table's compact storage.
public struct City: Sendable, Equatable, Hashable {
    /// The name as GeoNames spells it (`Tromsø`, `Los Ángeles`).
    public var name: String
    /// State, province or region (`Bavaria`, `California`), when known.
    public var region: String?
    /// ISO 3166-1 alpha-2 country code (`DE`), when known.
    public var country: String?
    /// The country's English name as GeoNames gives it (`Germany`), when known.
    public var countryName: String?
    /// IANA time zone (`Europe/Berlin`), when known.
    public var timeZone: String?
    /// Where the city is (its centre as GeoNames gives it), to 1e-5 degrees in the table.
    public var coordinate: Coordinate
    /// Inhabitants as GeoNames counts them; 0 when unknown.
    public var population: Int

    public init(
        name: String, region: String? = nil, country: String? = nil, countryName: String? = nil,
        timeZone: String? = nil, coordinate: Coordinate, population: Int = 0
    ) {
        self.name = name
        self.region = region
        self.country = country
        self.countryName = countryName
        self.timeZone = timeZone
        self.coordinate = coordinate
        self.population = population
    }

    /// The city as a state's place, without distance and bearing (a named lookup such as
    /// `weather Tromsø`: the place found).
    public var place: WeatherState.Place {
        WeatherState.Place(name: name, region: region, country: country, timeZone: timeZone)
    }
}
