import WundercastSupport
import WundercastModel

extension PlaceText {
    /// `Springfield, Missouri, US`: a place with its region and country code (those known), for
    /// a name other places share; `nil` for an empty name.
    public static func qualified(_ place: WeatherState.Place) -> String? {
        let name = UntrustedText.sanitized(place.name, limit: nameLimit)
        guard !name.isEmpty else { return nil }
        let qualifiers = [place.region, place.country].compactMap { $0 }.map {
            UntrustedText.sanitized($0, limit: nameLimit)
        }
        return ([name] + qualifiers.filter { !$0.isEmpty }).joined(separator: ", ")
    }

    /// For a lookup whose name other places share (``WeatherState/Location/alternatives``):
    /// `also 7 other places named Springfield: ask for 'Springfield, Massachusetts'` — the
    /// query that names the first of them in another region or country than the place shown
    /// (``WeatherState/Alternative/query``); `at least 10` when the daemon gave as many as it
    /// gives. `nil` without alternatives. In `locale`'s words; the query as the daemon names it.
    public static func alternativesNote(_ location: WeatherState.Location, _ locale: UserLocale = .english) -> String? {
        guard let alternatives = location.alternatives, !alternatives.isEmpty else { return nil }
        let count = alternatives.count
        let name = UntrustedText.sanitized(location.place?.name ?? alternatives[0].name, limit: nameLimit)
        let other =
            alternatives.first {
                $0.region != location.place?.region || $0.country != location.place?.country
            } ?? alternatives[0]
        let values = ["name": name, "query": UntrustedText.sanitized(other.query, limit: 2 * nameLimit)]
        return count >= WeatherState.Alternative.limit
            ? locale.trn(
                "also at least {n} other place named {name}: ask for '{query}'",
                "also at least {n} other places named {name}: ask for '{query}'", count, values)
            : locale.trn(
                "also {n} other place named {name}: ask for '{query}'",
                "also {n} other places named {name}: ask for '{query}'", count, values)
    }
}
