#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WundercastSupport
import WundercastModel

/// The one human line of `wundercastctl now` and `watch`, e.g.
/// `3°C Overcast, humidity 72%, wind 9 km/h from E, moon waxing gibbous, 68% lit, rises 00:19,
/// 12 km NE of Regensburg, 2 min ago` (the Moon when the state has it: ``MoonText``), in the
/// reader's language (``UserLocale``; the daemon's `STATUS=` line is English). Numbers
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
    public static func line(
        _ state: WeatherState, now: Date, age style: AgeStyle = .relative, locale: UserLocale = .english
    ) -> String {
        let stamped = state.stamped(now: now)
        let place = placeText(stamped, locale)
        let reason = stamped.error.map { HumanError.text($0, locale) }
        guard let weather = stamped.weather else {
            switch stamped.status {
            case .fetching:
                return place.map { locale.tr("fetching weather for {place}…", ["place": $0]) }
                    ?? locale.tr("fetching weather…")
            case .noLocation:
                return reason.map { locale.tr("no location: {reason}", ["reason": $0]) } ?? locale.tr("no location yet")
            case .offline, .error, .stale, .fresh:
                let status = statusName(stamped.status, locale)
                return reason.map { locale.tr("{status}: {reason}", ["status": status, "reason": $0]) } ?? status
            }
        }
        var parts: [String] = []
        let head = [
            weather.temperature.flatMap {
                Placeholder.withUnit(DisplayRounding.temperature($0), weather.units.temperature, separator: "")
            }, Placeholder.conditionText(weather, locale),
        ].compactMap { $0 }.joined(separator: " ")
        if !head.isEmpty { parts.append(head) }
        if let humidity = weather.relativeHumidity.map(DisplayRounding.percent), !humidity.isEmpty {
            parts.append(locale.tr("humidity {humidity}", ["humidity": humidity + "%"]))
        }
        if let wind = windText(weather, locale) { parts.append(wind) }
        if parts.isEmpty { parts.append(locale.tr("weather without values")) }
        if let moon = stamped.moon {
            parts.append(locale.tr("moon {details}", ["details": MoonText.details(moon, locale)]))
        }
        // While fetching, the published place is the new one and the weather still the old:
        // the place goes with "updating", not with the old weather.
        let fetching = stamped.status == .fetching
        if let place, !fetching { parts.append(place) }
        switch style {
        case .relative:
            if let age = stamped.ageSeconds { parts.append(ageText(age, locale)) }
            if stamped.ageUnknown == true { parts.append(unknownAge(locale)) }
        case .clockTime:
            if let fetched = stamped.fetchedAt {
                parts.append(
                    stamped.ageUnknown == true
                        ? unknownAge(locale)
                        : locale.tr("weather of {time} UTC", ["time": locale.clock.text(fetched, utcOffsetSeconds: 0)]))
            }
        }
        var line = parts.joined(separator: ", ")
        switch stamped.status {
        case .stale:
            // A last known position already says why in the place text.
            if stamped.location?.status != .lastKnown {
                line += " (" + (reason.map { locale.tr("stale: {reason}", ["reason": $0]) } ?? locale.tr("stale")) + ")"
            }
        case .fetching:
            line += "; " + (place.map { locale.tr("updating for {place}…", ["place": $0]) } ?? locale.tr("updating…"))
        default: break
        }
        if let note = stamped.location.flatMap({ PlaceText.alternativesNote($0, locale) }) { line += " (\(note))" }
        return line
    }

    /// The state's status in words for people (`fresh`, `no location`): the human line and the
    /// tooltip's `Status:` line (`{status}` and the classes keep the protocol's words).
    public static func statusName(_ status: WeatherState.Status, _ locale: UserLocale = .english) -> String {
        switch status {
        case .fresh: locale.tr("fresh")
        case .stale: locale.tr("stale")
        case .fetching: locale.tr("fetching")
        case .offline: locale.tr("offline")
        case .error: locale.tr("error")
        case .noLocation: locale.tr("no location")
        }
    }

    /// `wind 9 km/h from E` (`wind 0 km/h` when calm: no direction), in the published unit; a
    /// Beaufort force with its WMO name, `wind 5 Bft, fresh breeze from E`.
    static func windText(_ weather: Weather, _ locale: UserLocale) -> String? {
        guard let speed = weather.windSpeed,
            let text = Placeholder.withUnit(DisplayRounding.windSpeed(speed), weather.units.windSpeed)
        else { return nil }
        let calm = DisplayRounding.windSpeed(speed) == "0"
        let direction = calm ? nil : weather.windDirection.map { PlaceText.compass($0, locale) }
        return WindPhrase.inLine.text(
            text, value: speed, unit: weather.units.windSpeed, direction: direction, locale)
    }

    /// The WMO name of a wind `speed` labelled `Bft` (``Beaufort/name``) in `locale`'s language:
    /// `fresh breeze` for 5 (German `frische Brise`); `nil` for another unit or a value that is
    /// no force (not a whole number 0–12).
    public static func beaufortName(_ speed: Double, unit: String?, _ locale: UserLocale = .english) -> String? {
        guard WindSpeedUnit(label: unit ?? "") == .bft, let whole = Int(exactly: speed),
            let force = Beaufort(rawValue: whole)
        else { return nil }
        return locale.trp(Beaufort.messageContext, force.name)
    }

    /// The place (``PlaceText/location(_:_:)``: the configured name, else `12 km NE of
    /// Regensburg`, else `lat,lon` as published); for a last known position followed by why,
    /// e.g. `48.12,11.57 (no GPS fix for 3 min)`. `state` must be stamped.
    static func placeText(_ state: WeatherState, _ locale: UserLocale) -> String? {
        guard let location = state.location else { return nil }
        let place = PlaceText.location(location, locale)
        guard location.status == .lastKnown, let error = state.error else { return place }
        if error.known == .noFix, let age = location.ageSeconds {
            return locale.tr("{place} (no GPS fix for {span})", ["place": place, "span": spanText(age, locale)])
        }
        return locale.tr(
            "{place} (last known position: {reason})", ["place": place, "reason": HumanError.text(error, locale)])
    }

    /// The age of weather kept from before a restart when it cannot be told (clock not known to be right)
    /// (``WeatherState/ageUnknown``).
    public static func unknownAge(_ locale: UserLocale = .english) -> String { locale.tr("age unknown") }

    /// `just now`, `42 s ago`, `2 min ago`, `3 h ago`, `2 d ago`.
    public static func ageText(_ seconds: Int, _ locale: UserLocale = .english) -> String {
        switch seconds {
        case ..<5: locale.tr("just now")
        case ..<60: locale.trn("{n} s ago", "{n} s ago", seconds)
        case ..<3600: locale.trn("{n} min ago", "{n} min ago", seconds / 60)
        case ..<86400: locale.trn("{n} h ago", "{n} h ago", seconds / 3600)
        default: locale.trn("{n} d ago", "{n} d ago", seconds / 86400)
        }
    }

    /// `4 s`, `42 s`, `2 min`, `3 h`, `2 d`.
    public static func spanText(_ seconds: Int, _ locale: UserLocale = .english) -> String {
        switch seconds {
        case ..<60: locale.trn("{n} s", "{n} s", seconds)
        case ..<3600: locale.trn("{n} min", "{n} min", seconds / 60)
        case ..<86400: locale.trn("{n} h", "{n} h", seconds / 3600)
        default: locale.trn("{n} d", "{n} d", seconds / 86400)
        }
    }
}
