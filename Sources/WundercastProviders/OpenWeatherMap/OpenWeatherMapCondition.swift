#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WundercastSupport
import WundercastModel

/// The condition of an answer or of one forecast step: the first entry of its `weather` array,
/// which OpenWeatherMap documents as the primary one (the array may hold several, or none).
struct OpenWeatherMapCondition {
    /// `weather[0].id`, e.g. 803 (``WeatherCondition/init(openWeatherMapID:)``).
    var id: Int?
    /// `weather[0].description` in the requested `lang`, sanitised and at most 60 characters.
    var description: String?
    /// `weather[0].icon`, e.g. `04n`.
    var icon: String?

    /// Reads `object.weather[0]`; only the first entry's members are checked.
    init(_ object: JSONObject) throws(WeatherError) {
        guard let first = try object.objects("weather")?.first else { return }
        id = try first.integer("id", limit: 999_999, expected: "a condition id")
        description = try first.string("description").map { UntrustedText.sanitized($0, limit: 60) }
        if description?.isEmpty == true { description = nil }
        icon = try first.string("icon")
    }

    /// Day or night: from the icon's `d`/`n` suffix, else from `partOfDay` (a forecast step's
    /// `sys.pod`, `d` or `n`), else computed from the sun's altitude at `place` and `time`;
    /// `nil` when none of them is known.
    func isDay(at place: Coordinate?, time: Date?, partOfDay: String?) -> Bool? {
        if let day = WeatherCondition.isDay(openWeatherMapIcon: icon) { return day }
        if partOfDay == "d" { return true }
        if partOfDay == "n" { return false }
        guard let place, let time else { return nil }
        return Sun.isDay(at: place, time: time)
    }

    /// Sets the id, the text and the freedesktop icon of `weather`.
    func apply(to weather: inout Weather) {
        weather.openWeatherMapID = id
        weather.condition = description
        weather.icon = icon(isDay: weather.isDay)
    }

    /// Sets the id, the text and the freedesktop icon of `hour`.
    func apply(to hour: inout Forecast.Hour) {
        hour.openWeatherMapID = id
        hour.condition = description
        hour.icon = icon(isDay: hour.isDay)
    }

    private func icon(isDay: Bool?) -> String? {
        guard id != nil else { return nil }
        return WeatherCondition(openWeatherMapID: id).kind.freedesktopIcon(isDay: isDay ?? true)
    }
}
