/// Two-letter abbreviations of US states (USPS) and Canadian provinces and territories
/// (Canada Post), which people write after a city's name (`Los Angeles, CA`), and a few
/// common country names GeoNames spells otherwise.
enum RegionAbbreviations {
    /// The folded region name (as in GeoNames, without `State of`) that `abbreviation`
    /// (folded, lower case) stands for in the country `countryCode` (`US` or `CA`).
    static func region(_ abbreviation: [UInt8], country countryCode: String) -> String? {
        guard abbreviation.count == 2 else { return nil }
        let key = String(decoding: abbreviation, as: UTF8.self)
        switch countryCode {
        case "US": return unitedStates[key]
        case "CA": return canada[key]
        default: return nil
        }
    }

    static let unitedStates: [String: String] = [
        "al": "alabama", "ak": "alaska", "az": "arizona", "ar": "arkansas", "ca": "california",
        "co": "colorado", "ct": "connecticut", "de": "delaware", "dc": "district of columbia",
        "fl": "florida", "ga": "georgia", "hi": "hawaii", "id": "idaho", "il": "illinois", "in": "indiana",
        "ia": "iowa", "ks": "kansas", "ky": "kentucky", "la": "louisiana", "me": "maine", "md": "maryland",
        "ma": "massachusetts", "mi": "michigan", "mn": "minnesota", "ms": "mississippi", "mo": "missouri",
        "mt": "montana", "ne": "nebraska", "nv": "nevada", "nh": "new hampshire", "nj": "new jersey",
        "nm": "new mexico", "ny": "new york", "nc": "north carolina", "nd": "north dakota", "oh": "ohio",
        "ok": "oklahoma", "or": "oregon", "pa": "pennsylvania", "ri": "rhode island", "sc": "south carolina",
        "sd": "south dakota", "tn": "tennessee", "tx": "texas", "ut": "utah", "vt": "vermont",
        "va": "virginia", "wa": "washington", "wv": "west virginia", "wi": "wisconsin", "wy": "wyoming",
    ]

    static let canada: [String: String] = [
        "ab": "alberta", "bc": "british columbia", "mb": "manitoba", "nb": "new brunswick",
        "nl": "newfoundland and labrador", "ns": "nova scotia", "nt": "northwest territories", "nu": "nunavut",
        "on": "ontario", "pe": "prince edward island", "qc": "quebec", "sk": "saskatchewan",
        "yt": "yukon territory",
    ]

    /// Folded country names people write → ISO code, where GeoNames' name differs
    /// (`United States of America`, `United Kingdom`, `Republic of Korea`).
    static let countryAliases: [String: String] = [
        "usa": "US", "united states": "US", "america": "US", "uk": "GB", "great britain": "GB",
        "britain": "GB", "south korea": "KR", "korea": "KR", "czechia": "CZ", "holland": "NL",
        "the netherlands": "NL",
    ]
}
