/// A language of OpenWeatherMap's condition texts (`lang`; `weather[].description`), as
/// OpenWeatherMap 2.5 documents them under "Multilingual support". Config `[Weather] Language=`.
public struct OpenWeatherMapLanguage: Sendable, Equatable {
    /// The code sent as `lang=`, lower case (`en`, `pt_br`, `zh_cn`).
    public let code: String

    /// Every documented code: Afrikaans `af`, Albanian `al`, Arabic `ar`, Azerbaijani `az`,
    /// Bulgarian `bg`, Catalan `ca`, Czech `cz`, Danish `da`, German `de`, Greek `el`, English
    /// `en`, Basque `eu`, Persian `fa`, Finnish `fi`, French `fr`, Galician `gl`, Hebrew `he`,
    /// Hindi `hi`, Croatian `hr`, Hungarian `hu`, Indonesian `id`, Italian `it`, Japanese `ja`,
    /// Korean `kr`, Latvian `la`, Lithuanian `lt`, Macedonian `mk`, Norwegian `no`, Dutch `nl`,
    /// Polish `pl`, Portuguese `pt`, Brazilian Portuguese `pt_br`, Romanian `ro`, Russian `ru`,
    /// Swedish `sv`/`se`, Slovak `sk`, Slovenian `sl`, Spanish `sp`/`es`, Serbian `sr`, Thai `th`,
    /// Turkish `tr`, Ukrainian `ua`/`uk`, Vietnamese `vi`, Chinese `zh_cn`/`zh_tw`, Zulu `zu`.
    public static let codes: [String] = [
        "af", "al", "ar", "az", "bg", "ca", "cz", "da", "de", "el", "en", "eu", "fa", "fi", "fr", "gl", "he", "hi",
        "hr", "hu", "id", "it", "ja", "kr", "la", "lt", "mk", "no", "nl", "pl", "pt", "pt_br", "ro", "ru", "sv", "se",
        "sk", "sl", "sp", "es", "sr", "th", "tr", "ua", "uk", "vi", "zh_cn", "zh_tw", "zu",
    ]

    /// The language of `text`, in any case (`pt_BR` is `pt_br`); `nil` for a code not listed
    /// in ``codes``.
    public init?(_ text: String) {
        let lower = text.lowercased()
        guard Self.codes.contains(lower) else { return nil }
        code = lower
    }
}
