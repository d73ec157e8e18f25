import WundercastModel

/// Which alert source covers a position: by the country of its nearest city (the city table,
/// `location.place.country`, ISO 3166-1 alpha-2). Near a border the nearest city may be across
/// it, and at sea it is the nearest coast's country (README "Alerts" says so).
public enum AlertRouting {
    /// The countries each source serves: NWS the United States and the territories it issues
    /// for (Puerto Rico, the US Virgin Islands, Guam, the Northern Mariana Islands, American
    /// Samoa); MetAlerts Norway with Svalbard and Jan Mayen (land and its sea areas); Bright Sky
    /// (DWD) Germany; ECCC Canada.
    public static let countries: [AlertSourceID: Set<String>] = [
        .nws: ["US", "PR", "VI", "GU", "MP", "AS"],
        .metAlerts: ["NO", "SJ"],
        .brightSky: ["DE"],
        .eccc: ["CA"],
    ]

    /// The farthest the nearest city may be for its country to stand for the position: 500 km
    /// (a boat within a day's sail of the coast; not the middle of an ocean, where the nearest
    /// city is 2,000 km away and no authority's area reaches).
    public static let maximumDistance = 500_000

    /// The country a position is routed by: its nearest city's (`place`, with the distance in
    /// metres), when that city is within ``maximumDistance``.
    public static func country(of place: WeatherState.Place?) -> String? {
        guard let place, let distance = place.distance, distance <= maximumDistance else { return nil }
        return place.country
    }

    /// The source among `enabled` that covers `country`; `nil` when none does (or the country
    /// is unknown).
    public static func source(forCountry country: String?, among enabled: Set<AlertSourceID>) -> AlertSourceID? {
        guard let country = country?.uppercased() else { return nil }
        return enabled.sorted().first { countries[$0]?.contains(country) == true }
    }
}
