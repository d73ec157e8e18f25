extension WeatherState {
    /// Another place that a looked-up name also matches (`weather Springfield`: the other
    /// Springfields), as the city table (or online geocoding) gives it, e.g.
    /// `{"name":"Springfield","region":"Illinois","country":"US","latitude":39.80172,"longitude":-89.64371,"population":116565}`.
    /// Members without a value are omitted.
    public struct Alternative: Sendable, Equatable, Hashable, Codable {
        /// At most this many alternatives are given with an answer (the best matches).
        public static let limit = 10

        /// The place's name (`Springfield`).
        public var name: String
        /// State, province or region (GeoNames' `admin1`: `Illinois`), when known.
        public var region: String?
        /// ISO 3166-1 alpha-2 country code (`US`), when known.
        public var country: String?
        /// Where the place is, degrees north and east (to 1e-5 degrees from the city table).
        public var latitude: Double
        public var longitude: Double
        /// Inhabitants as GeoNames counts them; absent when unknown.
        public var population: Int?

        public init(
            name: String, region: String? = nil, country: String? = nil, latitude: Double, longitude: Double,
            population: Int? = nil
        ) {
            self.name = name
            self.region = region
            self.country = country
            self.latitude = latitude
            self.longitude = longitude
            self.population = population
        }

        /// The text that asks for this place by name (`weather`, `Fallback=`): the name with its
        /// region after a comma (`Springfield, Illinois`), else with its country code
        /// (`Springfield, US`; also for a region that holds a comma itself), else the name alone:
        /// the qualifiers the place search understands (`PlaceQuery`).
        public var query: String {
            if let region, !region.isEmpty, !region.contains(",") { return "\(name), \(region)" }
            if let country, !country.isEmpty { return "\(name), \(country)" }
            return name
        }
    }
}
