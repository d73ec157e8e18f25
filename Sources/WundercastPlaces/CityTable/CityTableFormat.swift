import WundercastSupport
import WundercastModel

/// The city table's text format, version 1 (written by `wundercast-cities` from libgeonames,
/// read by ``CityTable/init(parsing:)``).
///
/// The first line names format, version and origin:
/// `# wundercast cities v1 from libgeonames 0.3.0; data © GeoNames, CC BY 4.0`.
/// Then one line per city, eight fields separated by tabs:
/// name, region (may be empty), ISO country code (two capital letters, may be empty),
/// IANA time zone (may be empty), latitude and longitude (decimal degrees, at most 5
/// decimals), population (a whole number, 0 when unknown), country name (may be empty).
/// Further lines starting with `#` and empty lines are ignored. Fields never contain tabs,
/// newlines or other control characters (the writer strips them).
public enum CityTableFormat {
    /// How every table's first line begins.
    public static let signature = "# wundercast cities v1"
    /// Fields per city line.
    public static let fieldCount = 8
    /// Decimals written for latitude and longitude (1e-5° ≈ 1.1 m).
    public static let decimals = 5

    /// The first line (without newline): format, version, origin and the data's licence.
    public static func header(libraryVersion: String) -> String {
        "\(signature) from libgeonames \(field(libraryVersion)); data © GeoNames, CC BY 4.0"
    }

    /// One city line (without newline). Text fields lose control characters (tabs, newlines:
    /// ``UntrustedText/sanitized(_:limit:)``); coordinates are written with at most
    /// ``decimals`` decimals.
    public static func line(
        name: String, region: String?, countryCode: String?, timeZone: String?, latitude: Double,
        longitude: Double, population: Int, countryName: String?
    ) -> String {
        [
            field(name), field(region ?? ""), field(countryCode ?? ""), field(timeZone ?? ""),
            Coordinate.text(latitude, decimals: decimals), Coordinate.text(longitude, decimals: decimals),
            String(max(0, population)), field(countryName ?? ""),
        ].joined(separator: "\t")
    }

    /// Longest text field a reader accepts, in Unicode scalars (the writer cuts at this).
    public static let fieldLimit = 200

    /// Whether `zone` can be an IANA time zone name: at most 64 bytes of ASCII letters, digits,
    /// `/`, `_`, `-`, `+`, no empty, `.` or `..` part, not starting with `/`.
    public static func isZoneName(_ zone: some Collection<UInt8>) -> Bool {
        guard !zone.isEmpty, zone.count <= 64, zone.first != UInt8(ascii: "/") else { return false }
        let allowed = zone.allSatisfy {
            (65...90).contains($0) || (97...122).contains($0) || (48...57).contains($0)
                || [UInt8(ascii: "/"), UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "+")].contains($0)
        }
        return allowed
            && !zone.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).contains { $0.isEmpty }
    }

    /// Whether `name` shows something: it holds a letter or a digit (not only marks, spaces,
    /// joiners or other invisible characters).
    public static func isVisibleName(_ name: String) -> Bool {
        name.unicodeScalars.contains { $0.properties.isAlphabetic || $0.properties.numericType != nil }
    }

    static func field(_ text: String) -> String {
        UntrustedText.sanitized(text, limit: fieldLimit)
    }
}
