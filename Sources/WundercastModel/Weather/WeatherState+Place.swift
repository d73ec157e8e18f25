extension WeatherState {
    /// The nearest city to a position, from the city table built from GeoNames
    /// (libgeonames' data, on the machine: no position leaves it for a name), e.g.
    /// `{"name":"Regensburg","region":"Bavaria","country":"DE","distance":12000,"bearing":"NE","timeZone":"Europe/Berlin"}`.
    /// For a named lookup (`weather Tromsø`) it is the place found, without distance and bearing.
    /// For a reader of rounded positions (`PublicPrecision=`, the journal, MQTT) it is the city
    /// named for the rounded position alone — the most populous within half a cell of it, else
    /// the nearest — also without distance and bearing (`near Munich`).
    public struct Place: Sendable, Equatable, Hashable, Codable {
        /// The city's name as GeoNames spells it (`Tromsø`).
        public var name: String
        /// State, province or region (`Bavaria`), when GeoNames has one.
        public var region: String?
        /// ISO 3166-1 alpha-2 country code (`DE`).
        public var country: String?
        /// Metres from the city to the position; absent for a reader of rounded positions.
        public var distance: Int?
        /// 8-point compass direction from the city to the position (`N`, `NE`, … `NW`).
        public var bearing: String?
        /// IANA time zone (`Europe/Berlin`), when known.
        public var timeZone: String?

        public init(
            name: String, region: String? = nil, country: String? = nil, distance: Int? = nil, bearing: String? = nil,
            timeZone: String? = nil
        ) {
            self.name = name
            self.region = region
            self.country = country
            self.distance = distance
            self.bearing = bearing
            self.timeZone = timeZone
        }
    }
}
