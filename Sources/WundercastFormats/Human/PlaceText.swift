import WundercastSupport
import WundercastModel

/// Place and direction texts for the human line, bars and templates. Every text from the daemon
/// is sanitized here (``UntrustedText``): no control characters, bounded length.
public enum PlaceText {
    /// The longest place or region name shown, in Unicode scalars.
    public static let nameLimit = 60

    /// `12 km NE of Regensburg` (distance in whole km, rounded), `near Regensburg` under 1 km,
    /// `Tromsø` for a named lookup without distance; `nil` without a place.
    public static func nearest(_ place: WeatherState.Place?) -> String? {
        guard let place else { return nil }
        let name = UntrustedText.sanitized(place.name, limit: nameLimit)
        guard !name.isEmpty else { return nil }
        guard let distance = place.distance, distance >= 0 else { return name }
        if distance < 1000 { return "near \(name)" }
        let direction = place.bearing.map { UntrustedText.sanitized($0, limit: 3) } ?? ""
        return "\(kilometres(distance)) km" + (direction.isEmpty ? " from " : " \(direction) of ") + name
    }

    /// Whole kilometres of `metres`, rounded half up.
    public static func kilometres(_ metres: Int) -> Int { (metres + 500) / 1000 }

    /// What the human line calls a position: the configured name (the fallback's), else for a
    /// name other places share the place with its region and country (``qualified(_:)``), else
    /// the nearest place (``nearest(_:)``; `near Munich` for the daemon's position given without
    /// distance, as to a reader of rounded positions), else `lat,lon` as published.
    public static func location(_ location: WeatherState.Location) -> String {
        if let name = location.name.map({ UntrustedText.sanitized($0, limit: nameLimit) }), !name.isEmpty {
            return name
        }
        if let place = location.place, location.alternatives?.isEmpty == false, let text = qualified(place) {
            return text
        }
        if let near = nearest(location.place) {
            let named = location.source != .lookup && location.place?.distance == nil
            return named ? "near \(near)" : near
        }
        return coordinates(latitude: location.latitude, longitude: location.longitude)
    }

    /// `44.44,26.13`: at most 6 decimals, no trailing zeros.
    public static func coordinates(latitude: Double, longitude: Double) -> String {
        Coordinate.text(latitude, decimals: 6) + "," + Coordinate.text(longitude, decimals: 6)
    }

    /// `48.14° N 11.58° E`: latitude and longitude with their hemispheres instead of signs, at
    /// most `decimals` decimals each, no trailing zeros (``latitude(_:decimals:)``).
    public static func hemispheres(latitude: Double, longitude: Double, decimals: Int = 6) -> String {
        self.latitude(latitude, decimals: decimals) + " " + self.longitude(longitude, decimals: decimals)
    }

    /// `48.14° N`, `33.9° S`; `0°` on the equator (as rounded to `decimals`).
    public static func latitude(_ degrees: Double, decimals: Int = 6) -> String {
        hemisphere(degrees, decimals: decimals, positive: "N", negative: "S")
    }

    /// `11.58° E`, `70.5° W`; `0°` on the prime meridian (as rounded to `decimals`).
    public static func longitude(_ degrees: Double, decimals: Int = 6) -> String {
        hemisphere(degrees, decimals: decimals, positive: "E", negative: "W")
    }

    static func hemisphere(_ degrees: Double, decimals: Int, positive: String, negative: String) -> String {
        let text = Coordinate.text(abs(degrees), decimals: decimals)
        guard text != "0" else { return "0°" }
        return text + "° " + (degrees < 0 ? negative : positive)
    }

    /// 8-point compass name of a direction in degrees clockwise from north (`N`, `NE`, … `NW`).
    public static func compass(_ degrees: Double) -> String {
        let points = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]
        guard degrees.isFinite else { return "" }
        let normalized = (degrees.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360)
        return points[Int((normalized / 45).rounded()) % 8]
    }
}
