#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WundercastSupport
import WundercastModel

/// The one human line of `wundercastctl now` and `watch`, e.g.
/// `3°C Overcast, humidity 72%, wind 9 km/h from E, 12 km NE of Regensburg, 2 min ago`. Numbers
/// are rounded by ``DisplayRounding`` (never `-0`). Staleness is always shown: a
/// reader never takes old weather for fresh, nor a last known position for the current one
/// (`…, 48.12,11.57 (no GPS fix for 3 min), …`). A value the provider did not give is left
/// out, never shown as `?`. Texts from the daemon are sanitized (no control characters, bounded).
public enum HumanFormat {
    /// How a line says when the weather was fetched.
    public enum AgeStyle: Sendable {
        /// `2 min ago`: for a line read now (`now`, `watch`).
        case relative
        /// `weather of 14:05 UTC`: for a line kept and read later (systemd's `STATUS=`).
        case clockTime
    }

    /// Formats `state` as seen at wall-clock `now`.
    public static func line(_ state: WeatherState, now: Date, age style: AgeStyle = .relative) -> String {
        let stamped = state.stamped(now: now)
        let place = placeText(stamped)
        guard let weather = stamped.weather else {
            switch stamped.status {
            case .fetching:
                return "fetching weather" + (place.map { " for \($0)" } ?? "") + "…"
            case .noLocation:
                return "no location" + (stamped.error.map { ": \(HumanError.text($0))" } ?? " yet")
            case .offline, .error, .stale, .fresh:
                return "\(stamped.status.rawValue)"
                    + (stamped.error.map { ": \(HumanError.text($0))" } ?? "")
            }
        }
        var parts: [String] = []
        let head = [
            weather.temperature.flatMap {
                Placeholder.withUnit(DisplayRounding.temperature($0), weather.units.temperature, separator: "")
            }, Placeholder.conditionText(weather),
        ].compactMap { $0 }.joined(separator: " ")
        if !head.isEmpty { parts.append(head) }
        if let humidity = weather.relativeHumidity.map(DisplayRounding.percent), !humidity.isEmpty {
            parts.append("humidity \(humidity)%")
        }
        if let wind = windText(weather) { parts.append(wind) }
        if parts.isEmpty { parts.append("weather without values") }
        // While fetching, the published place is the new one and the weather still the old:
        // the place goes with "updating", not with the old weather.
        let fetching = stamped.status == .fetching
        if let place, !fetching { parts.append(place) }
        switch style {
        case .relative:
            if let age = stamped.ageSeconds { parts.append(ageText(age)) }
            if stamped.ageUnknown == true { parts.append(unknownAge) }
        case .clockTime:
            if let fetched = stamped.fetchedAt {
                parts.append(
                    stamped.ageUnknown == true
                        ? unknownAge : "weather of \(Forecast.clockText(fetched, utcOffsetSeconds: 0)) UTC")
            }
        }
        var line = parts.joined(separator: ", ")
        switch stamped.status {
        case .stale:
            // A last known position already says why in the place text.
            if stamped.location?.status != .lastKnown {
                line += " (stale" + (stamped.error.map { ": \(HumanError.text($0))" } ?? "") + ")"
            }
        case .fetching: line += "; updating" + (place.map { " for \($0)" } ?? "") + "…"
        default: break
        }
        if let note = stamped.location.flatMap(PlaceText.alternativesNote) { line += " (\(note))" }
        return line
    }

    /// `wind 9 km/h from E` (`wind 0 km/h` when calm: no direction), in the published unit; a
    /// Beaufort force with its WMO name, `wind 5 Bft, fresh breeze from E`.
    static func windText(_ weather: Weather) -> String? {
        guard let speed = weather.windSpeed,
            let text = Placeholder.withUnit(DisplayRounding.windSpeed(speed), weather.units.windSpeed)
        else { return nil }
        let calm = DisplayRounding.windSpeed(speed) == "0"
        let direction = calm ? "" : weather.windDirection.map(PlaceText.compass) ?? ""
        let force = beaufortName(speed, unit: weather.units.windSpeed).map { ", \($0)" } ?? ""
        return "wind \(text)\(force)" + (direction.isEmpty ? "" : " from \(direction)")
    }

    /// The WMO name of a wind `speed` labelled `Bft` (``Beaufort/name``): `fresh breeze` for 5;
    /// `nil` for another unit or a value that is no force (not a whole number 0–12).
    public static func beaufortName(_ speed: Double, unit: String?) -> String? {
        guard WindSpeedUnit(label: unit ?? "") == .bft, let whole = Int(exactly: speed),
            let force = Beaufort(rawValue: whole)
        else { return nil }
        return force.name
    }

    /// The place (``PlaceText/location(_:)``: the configured name, else `12 km NE of
    /// Regensburg`, else `lat,lon` as published); for a last known position followed by why,
    /// e.g. `48.12,11.57 (no GPS fix for 3 min)`. `state` must be stamped.
    static func placeText(_ state: WeatherState) -> String? {
        guard let location = state.location else { return nil }
        let place = PlaceText.location(location)
        guard location.status == .lastKnown, let error = state.error else { return place }
        if error.known == .noFix, let age = location.ageSeconds {
            return place + " (no GPS fix for \(spanText(age)))"
        }
        return place + " (last known position: \(HumanError.text(error)))"
    }

    /// The age of weather kept from before a restart when it cannot be told (clock not known to be right)
    /// (``WeatherState/ageUnknown``).
    public static let unknownAge = "age unknown"

    /// `just now`, `42 s ago`, `2 min ago`, `3 h ago`, `2 d ago`.
    public static func ageText(_ seconds: Int) -> String {
        seconds < 5 ? "just now" : spanText(seconds) + " ago"
    }

    /// `4 s`, `42 s`, `2 min`, `3 h`, `2 d`.
    public static func spanText(_ seconds: Int) -> String {
        switch seconds {
        case ..<60: "\(seconds) s"
        case ..<3600: "\(seconds / 60) min"
        case ..<86400: "\(seconds / 3600) h"
        default: "\(seconds / 86400) d"
        }
    }
}
