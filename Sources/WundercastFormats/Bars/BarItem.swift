#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WundercastSupport
import WundercastModel

/// What every status bar format shows, before it is written in that bar's format: built once
/// from the daemon's state (``init(state:now:options:)``) or for a daemon that is down or
/// refused (``unavailable(_:reason:)``). Every text in it is sanitized (no control characters,
/// bounded); each format escapes it for its bar.
public struct BarItem: Sendable, Equatable {
    /// How much attention the item asks for; i3status-rust's block states, and the colour of
    /// i3blocks and i3bar in a colour scheme (``BarColors``).
    public enum Urgency: String, Sendable, CaseIterable {
        /// Fresh weather.
        case idle = "Idle"
        /// A fetch is under way.
        case info = "Info"
        /// Not used for weather: there is no "good" weather to flag.
        case good = "Good"
        /// Stale weather, no location, or an error answer to a request.
        case warning = "Warning"
        /// Severe weather (``WeatherCondition/isSevere``), no weather at all, or no daemon.
        case critical = "Critical"
    }

    /// Why there is no state to show.
    public enum Unavailable: String, Sendable {
        /// The daemon is not running or did not answer in time.
        case offline
        /// The daemon answered with an `ERROR`.
        case error

        /// The class and waybar `alt`: `daemon-offline`, `daemon-error` — apart from the
        /// state's own `offline` and `error` (the daemon runs; the weather provider failed).
        public var className: String { "daemon-" + rawValue }
    }

    /// The bar's text: the template (default `{icon} {temperature}{unit} {condition}`), with
    /// ` (stale)`, ` (updating)` or the like when the weather is not fresh; as runs, the icon
    /// apart (``RenderedText``), for a format that escapes it and may give the icon a font.
    public var textRuns: RenderedText
    /// Text for a narrow bar (and the same marker), as runs: the short template's, else the
    /// template's when one is given, else `{icon} {temperature}{unit}`.
    public var shortTextRuns: RenderedText
    /// ``textRuns`` as plain text.
    public var text: String { textRuns.plain }
    /// ``shortTextRuns`` as plain text.
    public var shortText: String { shortTextRuns.plain }
    /// The details in sections (``TooltipSection``, ``tooltipSections(_:values:icons:locale:)``):
    /// alerts, now, next hours, next days, sea, sun and moon, then place, age and status.
    public var tooltipSections: [TooltipSection]
    /// ``tooltipSections`` as plain lines, each heading a line of its own: for a bar that
    /// renders no markup.
    public var tooltip: [String] { tooltipSections.flatMap { ($0.heading.map { [$0] } ?? []) + $0.lines } }
    /// The condition kind (`partlyCloudy`, see ``WeatherCondition/Kind``) when there is weather,
    /// then `stale`, `offline`, `error`, `noLocation`, `fetching` as they apply, `severe` (derived
    /// from the condition, never from an alert), then for an official alert in force `alert` and
    /// `alert-moderate`, `alert-severe` or `alert-extreme` by its CAP severity, and
    /// `alerts-unavailable` while the alert source does not answer, then `hot` or `cold`
    /// (``temperatureBand``).
    public var classes: [String]
    /// The condition kind, else the status (`offline`, `noLocation`, …): waybar's `alt`.
    public var alt: String
    /// Relative humidity in whole percent, when known: waybar's `percentage`.
    public var percentage: Int?
    public var urgency: Urgency
    /// The temperature's band by `--hot` and `--cold` (``TemperatureBands``), whatever the status:
    /// the class says it always; the colour only while the urgency is idle (``BarColors``).
    public var temperatureBand: TemperatureBands.Band?
    /// Severe weather, derived from the condition (``WeatherCondition/isSevere``; no authority
    /// issued it), or an official alert of CAP severity Severe or Extreme in force: i3blocks
    /// exits 33, i3bar sets `urgent`.
    public var isSevere: Bool
    /// Whether the item shows weather (else `--hide-offline` hides it).
    public var hasWeather: Bool
    /// The i3status-rust icon name (`weather_sun`, `weather_clouds`, `weather_fog`,
    /// `weather_rain`, `weather_snow`, `weather_thunder`, `weather_default`; at night
    /// `weather_moon`, `weather_clouds_night`, `weather_fog_night`, `weather_rain_night`,
    /// `weather_thunder_night`) for its `icon` member.
    public var i3statusIcon: String

    /// The default template of bars.
    public static let defaultTemplate = try! Template("{icon} {temperature}{unit} {condition}")
    static let shortTemplate = try! Template("{icon} {temperature}{unit}")

    /// The item for the daemon's `state` as seen at wall-clock `now`. `template` shapes the text
    /// (default ``defaultTemplate``); `shortTemplate` the short text, else `template` when given,
    /// else `{icon} {temperature}{unit}`. `iconInText` false: `{icon}` is empty in both, for a bar
    /// that shows the icon from a member of its own (``OutputFormat/hasIconMember``). The texts
    /// are in `locale`'s words, clock and decimal separator (classes, `alt` and icon names stay
    /// machine words). `bands`: `--hot` and `--cold` (``temperatureBand``).
    public init(
        state: WeatherState, now: Date, icons: IconSet = .emoji, template: Template? = nil,
        shortTemplate: Template? = nil, iconInText: Bool = true, locale: UserLocale = .english,
        bands: TemperatureBands = .none
    ) {
        var values = Placeholder.values(state, now: now, icons: icons, locale: locale)
        if !iconInText { values[.icon] = nil }
        let condition = state.weather?.conditionModel ?? WeatherCondition(kind: .unknown)
        hasWeather = state.weather != nil
        let alert = state.alerts?.mostSevere
        let urgentAlert = alert.map { $0.severity <= .severe } ?? false
        isSevere = (hasWeather && condition.isSevere) || urgentAlert
        percentage = state.weather?.relativeHumidity.flatMap {
            (0...100).contains($0) ? DisplayRounding.integer($0) : nil
        }
        i3statusIcon =
            hasWeather ? Self.i3statusIcon(condition.kind, isDay: state.weather?.isDay) : "weather_default"

        let marker: String
        switch state.status {
        case .fresh: marker = ""
        case .stale: marker = " (" + locale.tr("stale") + ")"
        case .fetching: marker = hasWeather ? " (" + locale.tr("updating") + ")" : ""
        case .offline, .error, .noLocation: marker = ""
        }
        let fallback = Self.statusText(state, locale)
        let rendered = (template ?? Self.defaultTemplate).text(values)
        // With weather, the template's text as it is: one whose values are all empty (`{alert}`
        // with none in force) shows nothing, never a status the state is not ("no weather yet").
        textRuns = hasWeather ? (rendered.isEmpty ? rendered : rendered + marker) : RenderedText(fallback)
        let short = (shortTemplate ?? template ?? Self.shortTemplate).text(values)
        shortTextRuns = hasWeather && !short.isEmpty ? short + marker : textRuns

        var classes: [String] = hasWeather ? [condition.kind.rawValue] : []
        if state.status != .fresh { classes.append(state.status.rawValue) }
        if hasWeather && condition.isSevere { classes.append("severe") }
        if let alert {
            classes.append("alert")
            if alert.severity <= .moderate { classes.append("alert-" + alert.severity.rawValue.lowercased()) }
        }
        if state.alerts?.status == .unavailable { classes.append("alerts-unavailable") }
        temperatureBand = bands.band(state.weather)
        if let temperatureBand { classes.append(temperatureBand.rawValue) }
        self.classes = classes
        alt = hasWeather ? condition.kind.rawValue : state.status.rawValue

        switch state.status {
        case _ where isSevere: urgency = .critical
        case .fresh: urgency = .idle
        case .fetching: urgency = .info
        case .stale, .noLocation: urgency = .warning
        case .offline, .error: urgency = .critical
        }
        // Any official alert in force asks for attention.
        if alert != nil, urgency == .idle || urgency == .info { urgency = .warning }
        tooltipSections = Self.tooltipSections(state, now: now, values: values, icons: icons, locale: locale)
    }

    /// The item when there is no state: the daemon is down or silent (`offline`), or answered
    /// with an `ERROR` (`error`); `reason` is shown in the tooltip (sanitized here, as it is):
    /// wundercastctl's own advice when offline, up to ``offlineReasonLimit`` characters (its
    /// text and a socket path of up to 108 bytes fit whole), the daemon's text bounded as any.
    public static func unavailable(_ kind: Unavailable, reason: String, locale: UserLocale = .english) -> BarItem {
        let text = "⚠ " + (kind == .offline ? locale.tr("wundercast offline") : locale.tr("wundercast error"))
        let limit = kind == .offline ? offlineReasonLimit : UntrustedText.defaultLimit
        return BarItem(
            text: text, shortText: "⚠",
            tooltip: [TooltipSection(lines: [UntrustedText.sanitized(reason, limit: limit)])],
            classes: [kind.className],
            alt: kind.className, percentage: nil, urgency: kind == .offline ? .critical : .warning, isSevere: false,
            hasWeather: false, i3statusIcon: "weather_default")
    }

    /// The bound of an offline reason: 400 characters.
    public static let offlineReasonLimit = 400

    init(
        text: String, shortText: String, tooltip: [TooltipSection], classes: [String], alt: String, percentage: Int?,
        urgency: Urgency, isSevere: Bool, hasWeather: Bool, i3statusIcon: String
    ) {
        self.textRuns = RenderedText(text)
        self.shortTextRuns = RenderedText(shortText)
        self.tooltipSections = tooltip
        self.classes = classes
        self.alt = alt
        self.percentage = percentage
        self.urgency = urgency
        self.isSevere = isSevere
        self.hasWeather = hasWeather
        self.i3statusIcon = i3statusIcon
    }

    /// Text without weather: `no location`, `weather offline`, `fetching weather…`.
    static func statusText(_ state: WeatherState, _ locale: UserLocale) -> String {
        switch state.status {
        case .noLocation: "⚠ " + locale.tr("no location")
        case .offline: "⚠ " + locale.tr("weather offline")
        case .error: "⚠ " + locale.tr("weather error")
        case .fetching: locale.tr("fetching weather…")
        case .fresh, .stale: locale.tr("no weather yet")
        }
    }

    /// The icon of `kind`, by the names of i3status-rust's weather block ("Used Icons" in its
    /// `src/blocks/weather.rs`, 0.32 and later; each of its icon sets has them): at night
    /// (`isDay == false`, the day flag that also chooses `{icon}`: the provider's, else the
    /// sun's position) the night variants; snow and the default have none. An unknown day flag
    /// (`nil`) gives the day icons. Dust and squalls have no icon of their own: the default.
    static func i3statusIcon(_ kind: WeatherCondition.Kind, isDay: Bool?) -> String {
        let night = isDay == false
        switch kind {
        case .clear, .mainlyClear: return night ? "weather_moon" : "weather_sun"
        case .partlyCloudy, .overcast: return night ? "weather_clouds_night" : "weather_clouds"
        case .fog, .haze: return night ? "weather_fog_night" : "weather_fog"
        case .drizzle, .freezingDrizzle, .lightRain, .rain, .heavyRain, .freezingRain, .showers:
            return night ? "weather_rain_night" : "weather_rain"
        case .snow, .snowGrains, .snowShowers, .sleet: return "weather_snow"
        case .thunderstorm, .thunderstormWithHail, .tornado: return night ? "weather_thunder_night" : "weather_thunder"
        case .dust, .squall, .unknown: return "weather_default"
        }
    }
}
