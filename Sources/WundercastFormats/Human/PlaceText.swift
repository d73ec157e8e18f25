import WundercastSupport
import WundercastModel

/// Place and direction texts for the human line, bars and templates. Every text from the daemon
/// is sanitized here (``UntrustedText``): no control characters, bounded length.
public enum PlaceText {
    /// The longest place or region name shown, in Unicode scalars.
    public static let nameLimit = 60

    /// `12 km NE of Regensburg` (distance in whole km, rounded), `near Regensburg` under 1 km,
    /// and without a distance when `nearWithoutDistance` (the daemon's position as a reader of
    /// rounded positions sees it: ``location(_:_:)``); else `Tromsø` without distance (a named
    /// lookup); `nil` without a place. In `locale`'s words and compass points
    /// (`12 km NO von Regensburg`).
    public static func nearest(
        _ place: WeatherState.Place?, nearWithoutDistance: Bool = false, _ locale: UserLocale = .english
    ) -> String? {
        guard let place else { return nil }
        let name = UntrustedText.sanitized(place.name, limit: nameLimit)
        guard !name.isEmpty else { return nil }
        let near = locale.tr("near {place}", ["place": name])
        guard let distance = place.distance else { return nearWithoutDistance ? near : name }
        guard distance >= 0 else { return name }
        if distance < 1000 { return near }
        let direction = place.bearing.map { point(UntrustedText.sanitized($0, limit: 3), locale) } ?? ""
        let km = String(kilometres(distance))
        return direction.isEmpty
            ? locale.tr("{km} km from {place}", ["km": km, "place": name])
            : locale.tr("{km} km {direction} of {place}", ["km": km, "direction": direction, "place": name])
    }

    /// Whole kilometres of `metres`, rounded half up.
    public static func kilometres(_ metres: Int) -> Int { (metres + 500) / 1000 }

    /// What the human line calls a position: the configured name (the fallback's), else for a
    /// name other places share the place with its region and country (``qualified(_:)``), else
    /// the nearest place (``nearest(_:_:)``; `near Munich` for the daemon's position given without
    /// distance, as to a reader of rounded positions), else `lat,lon` as published. In `locale`'s
    /// words.
    public static func location(_ location: WeatherState.Location, _ locale: UserLocale = .english) -> String {
        if let name = location.name.map({ UntrustedText.sanitized($0, limit: nameLimit) }), !name.isEmpty {
            return name
        }
        if let place = location.place, location.alternatives?.isEmpty == false, let text = qualified(place) {
            return text
        }
        if let near = nearest(location.place, nearWithoutDistance: location.source != .lookup, locale) {
            return near
        }
        return coordinates(latitude: location.latitude, longitude: location.longitude)
    }

    /// `44.44,26.13`: at most 6 decimals, no trailing zeros.
    public static func coordinates(latitude: Double, longitude: Double) -> String {
        Coordinate.text(latitude, decimals: 6) + "," + Coordinate.text(longitude, decimals: 6)
    }

    /// `48.14° N 11.58° E`: latitude and longitude with their hemispheres instead of signs, at
    /// most `decimals` decimals each, no trailing zeros (``latitude(_:decimals:_:)``); the
    /// hemispheres in `locale`'s letters (German `O` for east), the numbers as published.
    public static func hemispheres(
        latitude: Double, longitude: Double, decimals: Int = 6, _ locale: UserLocale = .english
    ) -> String {
        self.latitude(latitude, decimals: decimals, locale) + " "
            + self.longitude(longitude, decimals: decimals, locale)
    }

    /// `48.14° N`, `33.9° S`; `0°` on the equator (as rounded to `decimals`).
    public static func latitude(_ degrees: Double, decimals: Int = 6, _ locale: UserLocale = .english) -> String {
        hemisphere(degrees, decimals: decimals, positive: "N", negative: "S", locale)
    }

    /// `11.58° E`, `70.5° W`; `0°` on the prime meridian (as rounded to `decimals`).
    public static func longitude(_ degrees: Double, decimals: Int = 6, _ locale: UserLocale = .english) -> String {
        hemisphere(degrees, decimals: decimals, positive: "E", negative: "W", locale)
    }

    static func hemisphere(
        _ degrees: Double, decimals: Int, positive: String, negative: String, _ locale: UserLocale
    ) -> String {
        let text = Coordinate.text(abs(degrees), decimals: decimals)
        guard text != "0" else { return "0°" }
        return text + "° " + point(degrees < 0 ? negative : positive, locale)
    }

    /// The 8 compass points in English (as the daemon writes `bearing`), messages in the
    /// context `compass point`.
    static let points = [
        NP_("compass point", "N"), NP_("compass point", "NE"), NP_("compass point", "E"),
        NP_("compass point", "SE"), NP_("compass point", "S"), NP_("compass point", "SW"),
        NP_("compass point", "W"), NP_("compass point", "NW"),
    ]

    /// 8-point compass name of a direction in degrees clockwise from north (`N`, `NE`, … `NW`),
    /// in `locale`'s abbreviations (German `NO` for `NE`).
    public static func compass(_ degrees: Double, _ locale: UserLocale = .english) -> String {
        guard degrees.isFinite else { return "" }
        let normalized = (degrees.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360)
        return locale.trp("compass point", points[Int((normalized / 45).rounded()) % 8])
    }

    /// A compass point in English (`NE`: the daemon's `bearing`) in `locale`'s abbreviation;
    /// any other text as it is.
    public static func point(_ english: String, _ locale: UserLocale) -> String {
        points.contains(english) ? locale.trp("compass point", english) : english
    }
}
