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

    /// The source among `enabled` that covers `country`; `nil` when none does (or the country
    /// is unknown).
    public static func source(forCountry country: String?, among enabled: Set<AlertSourceID>) -> AlertSourceID? {
        guard let country = country?.uppercased() else { return nil }
        return enabled.sorted().first { countries[$0]?.contains(country) == true }
    }
}
