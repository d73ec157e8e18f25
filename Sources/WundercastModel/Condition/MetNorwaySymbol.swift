/// A MET Norway weather symbol code (Source: locationforecast 2.0 `next_1_hours.summary.symbol_code`,
/// also `next_6_hours`/`next_12_hours`), read into the one condition model and a day, night or
/// polar-twilight variant.
///
/// The codes are those of met.no's weathericons legend: 41 symbols, 21 of them with the
/// variants `_day`, `_night` and `_polartwilight` (83 codes). They are read by their parts,
/// so every code of the legend maps, and so do the two spellings the API uses by mistake
/// (`lightssleetshowersandthunder`, `lightssnowshowersandthunder`) beside the correct ones:
///
/// | symbol | kind | severe |
/// |---|---|---|
/// | `clearsky` | clear | |
/// | `fair` | mainlyClear | |
/// | `partlycloudy` | partlyCloudy | |
/// | `cloudy` | overcast | |
/// | `fog` | fog | |
/// | `lightrain`, `rain` / `heavyrain` | lightRain, rain / heavyRain | heavy |
/// | `[light\|heavy]rainshowers` | showers | heavy |
/// | `[light\|heavy]sleet[showers]` | sleet | heavy |
/// | `[light\|heavy]snow` | snow | heavy |
/// | `[light\|heavy]snowshowers` | snowShowers | heavy |
/// | any of the rain, sleet and snow symbols + `andthunder` | thunderstorm | yes |
///
/// Anything else (an empty or unknown code, an unknown suffix) is ``WeatherCondition/Kind/unknown``
/// with no variant, never an error.
public struct MetNorwaySymbol: Sendable, Equatable {
    /// The variant of a symbol: drawn for day, for night, or for the polar twilight (the sun
    /// below the horizon all day, but light at midday).
    public enum Variant: String, Sendable, Equatable {
        case day
        case night
        case polarTwilight = "polartwilight"
    }

    public var condition: WeatherCondition
    /// From the suffix; `nil` for symbols without variants (`cloudy`, `rain`, `fog`) and
    /// unknown codes.
    public var variant: Variant?

    /// Day (`true`) or night (`false`) from the variant; the polar twilight counts as night
    /// (the sun is below the horizon). `nil` without a variant: ask ``Sun/isDay(at:time:)``.
    public var isDay: Bool? {
        variant.map { $0 == .day }
    }

    /// Reads `code` (at most 64 bytes are looked at; longer codes are unknown).
    public init(code: String?) {
        condition = WeatherCondition(kind: .unknown)
        variant = nil
        guard let code, code.utf8.count <= 64 else { return }
        var base = Substring(code)
        var variant: Variant?
        if let underscore = code.lastIndex(of: "_") {
            guard let v = Variant(rawValue: String(code[code.index(after: underscore)...])) else { return }
            variant = v
            base = code[..<underscore]
        }
        guard let condition = Self.condition(of: base) else { return }
        self.condition = condition
        self.variant = variant
    }

    /// The condition of a symbol without its suffix, or `nil` when it is not one.
    static func condition(of symbol: Substring) -> WeatherCondition? {
        switch symbol {
        case "clearsky": return WeatherCondition(kind: .clear)
        case "fair": return WeatherCondition(kind: .mainlyClear)
        case "partlycloudy": return WeatherCondition(kind: .partlyCloudy)
        case "cloudy": return WeatherCondition(kind: .overcast)
        case "fog": return WeatherCondition(kind: .fog)
        default: break
        }
        // [light|lights|heavy] (rain|sleet|snow) [showers] [andthunder]
        var rest = symbol
        func take(_ prefix: String) -> Bool {
            guard rest.hasPrefix(prefix) else { return false }
            rest = rest.dropFirst(prefix.count)
            return true
        }
        let intensity: Int
        if take("heavy") {
            intensity = 1
        } else if take("lights") {
            // The API's misspellings: "lightssleet…" and "lightssnow…" (only with showers and
            // thunder). "lightsleet" and "lightsnow" are read by the branch below.
            guard rest.hasPrefix("sleetshowersandthunder") || rest.hasPrefix("snowshowersandthunder") else {
                rest = symbol.dropFirst("light".count)
                return Self.precipitation(&rest, intensity: -1)
            }
            intensity = -1
        } else if take("light") {
            intensity = -1
        } else {
            intensity = 0
        }
        return Self.precipitation(&rest, intensity: intensity)
    }

    /// `(rain|sleet|snow) [showers] [andthunder]`, all of `rest`; `intensity` −1 light, 0
    /// moderate, 1 heavy.
    private static func precipitation(_ rest: inout Substring, intensity: Int) -> WeatherCondition? {
        let kinds: [(String, Kind, Kind)] = [
            ("rain", .rain, .showers), ("sleet", .sleet, .sleet), ("snow", .snow, .snowShowers),
        ]
        guard let (word, steady, showery) = kinds.first(where: { rest.hasPrefix($0.0) }) else { return nil }
        rest = rest.dropFirst(word.count)
        var kind = steady
        if rest.hasPrefix("showers") {
            rest = rest.dropFirst("showers".count)
            kind = showery
        } else if word == "rain" {
            kind = intensity < 0 ? .lightRain : intensity > 0 ? .heavyRain : .rain
        }
        if rest == "andthunder" { return WeatherCondition(kind: .thunderstorm, isSevere: true) }
        guard rest.isEmpty else { return nil }
        return WeatherCondition(kind: kind, isSevere: intensity > 0)
    }

    typealias Kind = WeatherCondition.Kind
}

extension WeatherCondition {
    /// The condition of a MET Norway symbol code such as `lightrainshowers_day` (see
    /// ``MetNorwaySymbol``, which also gives the day/night variant); unknown codes give
    /// ``Kind/unknown``.
    public init(metNorwaySymbolCode code: String?) {
        self = MetNorwaySymbol(code: code).condition
    }
}
