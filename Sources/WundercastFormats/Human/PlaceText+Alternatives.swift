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
    /// gives. `nil` without alternatives.
    public static func alternativesNote(_ location: WeatherState.Location) -> String? {
        guard let alternatives = location.alternatives, !alternatives.isEmpty else { return nil }
        let count = alternatives.count
        let counted =
            (count >= WeatherState.Alternative.limit ? "at least \(count)" : "\(count)")
            + (count == 1 ? " other place" : " other places")
        let name = UntrustedText.sanitized(location.place?.name ?? alternatives[0].name, limit: nameLimit)
        let other =
            alternatives.first {
                $0.region != location.place?.region || $0.country != location.place?.country
            } ?? alternatives[0]
        let query = UntrustedText.sanitized(other.query, limit: 2 * nameLimit)
        return "also \(counted) named \(name): ask for '\(query)'"
    }
}
