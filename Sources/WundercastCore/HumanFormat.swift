#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The one human line of `wundercastctl now` and `watch`, e.g.
/// `3°C Overcast, humidity 72%, 44.44,26.13, 2 min ago`. Staleness is always shown: a
/// reader never takes old weather for fresh.
public enum HumanFormat {
    /// Formats `state` as seen at wall-clock `now`.
    public static func line(_ state: WeatherState, now: Date) -> String {
        let stamped = state.stamped(now: now)
        let place = placeText(stamped.location)
        guard let weather = stamped.weather else {
            switch stamped.status {
            case .fetching:
                return "fetching weather" + (place.map { " for \($0)" } ?? "") + "…"
            case .noLocation:
                return "no location" + (stamped.error.map { ": \($0.message)" } ?? " yet")
            case .offline, .error, .stale, .fresh:
                return "\(stamped.status.rawValue)" + (stamped.error.map { ": \($0.message)" } ?? "")
            }
        }
        var parts: [String] = []
        var head =
            weather.temperature.map { "\(Int($0.rounded()))\(weather.units.temperature)" }
            ?? "?\(weather.units.temperature)"
        if let condition = weather.condition { head += " \(condition)" }
        parts.append(head)
        if let humidity = weather.relativeHumidity { parts.append("humidity \(Int(humidity.rounded()))%") }
        // While fetching, the published place is the new one and the weather still the old:
        // the place goes with "updating", not with the old weather.
        let fetching = stamped.status == .fetching
        if let place, !fetching { parts.append(place) }
        if let age = stamped.ageSeconds { parts.append(ageText(age)) }
        var line = parts.joined(separator: ", ")
        switch stamped.status {
        case .stale: line += " (stale" + (stamped.error.map { ": \($0.message)" } ?? "") + ")"
        case .fetching: line += "; updating" + (place.map { " for \($0)" } ?? "") + "…"
        default: break
        }
        return line
    }

    /// `name` if known, else `lat,lon` as published.
    static func placeText(_ location: WeatherState.Location?) -> String? {
        guard let location else { return nil }
        if let name = location.name { return name }
        return Coordinate.text(location.latitude, decimals: 6) + "," + Coordinate.text(location.longitude, decimals: 6)
    }

    /// `just now`, `42 s ago`, `2 min ago`, `3 h ago`, `2 d ago`.
    public static func ageText(_ seconds: Int) -> String {
        switch seconds {
        case ..<5: "just now"
        case ..<60: "\(seconds) s ago"
        case ..<3600: "\(seconds / 60) min ago"
        case ..<86400: "\(seconds / 3600) h ago"
        default: "\(seconds / 86400) d ago"
        }
    }
}
