/// The icon sets of `--icons`: one glyph per condition kind, by day and by night.
///
/// - `emoji`: Unicode emoji (with U+FE0F where the default presentation is text).
/// - `nerd`: Nerd Fonts' weather glyphs, `nf-weather-*` code points (U+E300–U+E3EB),
///   which need a Nerd Font in the bar.
/// - `weatherIcons`: Erik Flowers' Weather Icons font (2.0), its code points (U+F000–U+F0EB)
///   rather than its CSS class names, so that a bar with the `Weather Icons` font shows them
///   as text; the class name of each glyph is ``weatherIconsName(_:isDay:)``.
///
/// An unknown condition gets a generic icon (a thermometer; `nf-weather-na`, `wi-na`).
public enum IconSet: String, Sendable, CaseIterable {
    case emoji
    case nerd
    case weatherIcons = "weather-icons"

    /// The glyph for `kind`, by day (`isDay` true or unknown) or by night.
    public func icon(_ kind: WeatherCondition.Kind, isDay: Bool) -> String {
        let glyph = Self.table[kind] ?? Self.table[.unknown]!
        switch self {
        case .emoji: return isDay ? glyph.emojiDay : glyph.emojiNight
        case .nerd: return String(Unicode.Scalar(isDay ? glyph.nerdDay : glyph.nerdNight)!)
        case .weatherIcons: return String(Unicode.Scalar(isDay ? glyph.wiDay : glyph.wiNight)!)
        }
    }

    /// The Weather Icons class name of the glyph (`wi-day-sunny`); Nerd Fonts names the same
    /// glyph `nf-weather-day_sunny`.
    public static func weatherIconsName(_ kind: WeatherCondition.Kind, isDay: Bool) -> String {
        let glyph = table[kind] ?? table[.unknown]!
        return "wi-" + (isDay ? glyph.nameDay : glyph.nameNight)
    }

    struct Glyphs {
        var emojiDay: String
        var emojiNight: String
        /// Weather Icons names without `wi-`; the code points below are the same glyphs.
        var nameDay: String
        var nameNight: String
        var nerdDay: UInt32
        var nerdNight: UInt32
        var wiDay: UInt32
        var wiNight: UInt32
    }

    // Code points: Weather Icons 2.0.10 `weather-icons.css`; Nerd Fonts `glyphnames.json`
    // (`nf-weather-*`).
    static let table: [WeatherCondition.Kind: Glyphs] = [
        .clear: Glyphs(
            emojiDay: "☀\u{FE0F}", emojiNight: "🌙", nameDay: "day-sunny", nameNight: "night-clear",
            nerdDay: 0xE30D, nerdNight: 0xE32B, wiDay: 0xF00D, wiNight: 0xF02E),
        .mainlyClear: Glyphs(
            emojiDay: "🌤\u{FE0F}", emojiNight: "🌙", nameDay: "day-sunny-overcast",
            nameNight: "night-alt-partly-cloudy", nerdDay: 0xE30C, nerdNight: 0xE379, wiDay: 0xF00C, wiNight: 0xF081),
        .partlyCloudy: Glyphs(
            emojiDay: "⛅", emojiNight: "☁\u{FE0F}", nameDay: "day-cloudy", nameNight: "night-alt-cloudy",
            nerdDay: 0xE302, nerdNight: 0xE37E, wiDay: 0xF002, wiNight: 0xF086),
        .overcast: Glyphs(
            emojiDay: "☁\u{FE0F}", emojiNight: "☁\u{FE0F}", nameDay: "cloudy", nameNight: "cloudy",
            nerdDay: 0xE312, nerdNight: 0xE312, wiDay: 0xF013, wiNight: 0xF013),
        .fog: Glyphs(
            emojiDay: "🌫\u{FE0F}", emojiNight: "🌫\u{FE0F}", nameDay: "day-fog", nameNight: "night-fog",
            nerdDay: 0xE303, nerdNight: 0xE346, wiDay: 0xF003, wiNight: 0xF04A),
        .drizzle: Glyphs(
            emojiDay: "🌦\u{FE0F}", emojiNight: "🌧\u{FE0F}", nameDay: "day-sprinkle", nameNight: "night-alt-sprinkle",
            nerdDay: 0xE30B, nerdNight: 0xE328, wiDay: 0xF00B, wiNight: 0xF02B),
        .freezingDrizzle: Glyphs(
            emojiDay: "🌧\u{FE0F}", emojiNight: "🌧\u{FE0F}", nameDay: "day-rain-mix", nameNight: "night-alt-rain-mix",
            nerdDay: 0xE306, nerdNight: 0xE323, wiDay: 0xF006, wiNight: 0xF026),
        .lightRain: Glyphs(
            emojiDay: "🌦\u{FE0F}", emojiNight: "🌧\u{FE0F}", nameDay: "day-rain", nameNight: "night-alt-rain",
            nerdDay: 0xE308, nerdNight: 0xE325, wiDay: 0xF008, wiNight: 0xF028),
        .rain: Glyphs(
            emojiDay: "🌧\u{FE0F}", emojiNight: "🌧\u{FE0F}", nameDay: "rain", nameNight: "rain",
            nerdDay: 0xE318, nerdNight: 0xE318, wiDay: 0xF019, wiNight: 0xF019),
        .heavyRain: Glyphs(
            emojiDay: "☔", emojiNight: "☔", nameDay: "rain-wind", nameNight: "rain-wind",
            nerdDay: 0xE317, nerdNight: 0xE317, wiDay: 0xF018, wiNight: 0xF018),
        .freezingRain: Glyphs(
            emojiDay: "🧊", emojiNight: "🧊", nameDay: "day-sleet", nameNight: "night-alt-sleet",
            nerdDay: 0xE3AA, nerdNight: 0xE3AC, wiDay: 0xF0B2, wiNight: 0xF0B4),
        .snow: Glyphs(
            emojiDay: "🌨\u{FE0F}", emojiNight: "🌨\u{FE0F}", nameDay: "day-snow", nameNight: "night-alt-snow",
            nerdDay: 0xE30A, nerdNight: 0xE327, wiDay: 0xF00A, wiNight: 0xF02A),
        .snowGrains: Glyphs(
            emojiDay: "❄\u{FE0F}", emojiNight: "❄\u{FE0F}", nameDay: "snowflake-cold", nameNight: "snowflake-cold",
            nerdDay: 0xE36F, nerdNight: 0xE36F, wiDay: 0xF076, wiNight: 0xF076),
        .showers: Glyphs(
            emojiDay: "🌦\u{FE0F}", emojiNight: "🌧\u{FE0F}", nameDay: "day-showers", nameNight: "night-alt-showers",
            nerdDay: 0xE309, nerdNight: 0xE326, wiDay: 0xF009, wiNight: 0xF029),
        .snowShowers: Glyphs(
            emojiDay: "🌨\u{FE0F}", emojiNight: "🌨\u{FE0F}", nameDay: "snow", nameNight: "snow",
            nerdDay: 0xE31A, nerdNight: 0xE31A, wiDay: 0xF01B, wiNight: 0xF01B),
        .thunderstorm: Glyphs(
            emojiDay: "⛈\u{FE0F}", emojiNight: "⛈\u{FE0F}", nameDay: "day-thunderstorm",
            nameNight: "night-alt-thunderstorm", nerdDay: 0xE30F, nerdNight: 0xE32A, wiDay: 0xF010, wiNight: 0xF02D),
        .thunderstormWithHail: Glyphs(
            emojiDay: "⛈\u{FE0F}", emojiNight: "⛈\u{FE0F}", nameDay: "day-hail", nameNight: "night-alt-hail",
            nerdDay: 0xE304, nerdNight: 0xE321, wiDay: 0xF004, wiNight: 0xF024),
        .sleet: Glyphs(
            emojiDay: "🌨\u{FE0F}", emojiNight: "🌨\u{FE0F}", nameDay: "sleet", nameNight: "night-sleet",
            nerdDay: 0xE3AD, nerdNight: 0xE3AB, wiDay: 0xF0B5, wiNight: 0xF0B3),
        .haze: Glyphs(
            emojiDay: "🌫\u{FE0F}", emojiNight: "🌫\u{FE0F}", nameDay: "day-haze", nameNight: "smog",
            nerdDay: 0xE3AE, nerdNight: 0xE36D, wiDay: 0xF0B6, wiNight: 0xF074),
        .dust: Glyphs(
            emojiDay: "💨", emojiNight: "💨", nameDay: "dust", nameNight: "dust",
            nerdDay: 0xE35D, nerdNight: 0xE35D, wiDay: 0xF063, wiNight: 0xF063),
        .squall: Glyphs(
            emojiDay: "🌬\u{FE0F}", emojiNight: "🌬\u{FE0F}", nameDay: "strong-wind", nameNight: "strong-wind",
            nerdDay: 0xE34B, nerdNight: 0xE34B, wiDay: 0xF050, wiNight: 0xF050),
        .tornado: Glyphs(
            emojiDay: "🌪\u{FE0F}", emojiNight: "🌪\u{FE0F}", nameDay: "tornado", nameNight: "tornado",
            nerdDay: 0xE351, nerdNight: 0xE351, wiDay: 0xF056, wiNight: 0xF056),
        .unknown: Glyphs(
            emojiDay: "🌡\u{FE0F}", emojiNight: "🌡\u{FE0F}", nameDay: "na", nameNight: "na",
            nerdDay: 0xE374, nerdNight: 0xE374, wiDay: 0xF07B, wiNight: 0xF07B),
    ]
}
