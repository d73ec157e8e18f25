import WundercastSupport
import WundercastModel

/// Why the state is not fresh, in a short sentence for people (the human line, bar texts and
/// tooltips) in the reader's language, chosen by the error's code (docs/PROTOCOL.md, "Error
/// codes"): never libcurl's or a provider's raw text, which stays in `--json`, `status` and the
/// journal. A code it does not know gives the message as sent (untranslated), cut at a word
/// boundary.
public enum HumanError {
    /// The longest text an unknown code's message is cut to, in characters.
    public static let limit = 80

    public static func text(_ error: WeatherState.ErrorInfo, _ locale: UserLocale = .english) -> String {
        if let known = sentences[error.code] { return locale.tr(known) }
        if error.code.hasPrefix("http-"), let status = Int(error.code.dropFirst(5)) {
            let values: [String: String] = ["status": String(status)]
            switch status {
            case 500...599: return locale.tr("the weather provider has a server error (HTTP {status})", values)
            case 300...399: return locale.tr("the weather provider redirected elsewhere (HTTP {status})", values)
            default: return locale.tr("the weather provider answered with an error (HTTP {status})", values)
            }
        }
        return cut(UntrustedText.sanitized(error.message, limit: 4 * limit), to: limit)
    }

    /// The English sentence of each known code (messages of the catalogue).
    static let sentences: [String: String] = [
        "no-fix": N_("no GPS fix"),
        "gpsd-unreachable": N_("cannot reach gpsd"),
        "device-gone": N_("the GPS receiver is gone"),
        "denied": N_("GPS use is denied and no fallback place is set"),
        "not-determined": N_("GPS use is not decided yet (wundercastctl authorize)"),
        "fallback-name": N_("the fallback place was not found"),
        "cached": N_("weather from before the restart"),
        "dns": N_("cannot find the weather provider (name lookup failed)"),
        "connect": N_("cannot reach the weather provider"),
        "timeout": N_("the weather provider did not answer in time"),
        "tls": N_("the secure connection to the weather provider failed"),
        "transport": N_("the connection to the weather provider broke off"),
        "truncated": N_("the weather provider's answer was cut short"),
        "too-large": N_("the weather provider's answer was too large"),
        "http-401": N_("the weather provider refused the API key"),
        "http-403": N_("the weather provider refused access"),
        "http-404": N_("the weather provider's URL is wrong"),
        "http-429": N_("the weather provider asks to wait (too many requests)"),
        "not-json": N_("the weather provider's answer was not weather data"),
        "error-body": N_("the weather provider reported an error"),
        "decoding": N_("the weather provider's answer could not be read"),
        "provider-backoff": N_("waiting before asking the weather provider again"),
        AlertsState.unavailableCode: N_("no usable answer from the alert source"),
    ]

    /// `text` cut to at most `limit` characters at a word boundary, with `…` when cut.
    public static func cut(_ text: String, to limit: Int) -> String {
        guard text.count > limit else { return text }
        let head = text.prefix(limit - 1)
        var words = head.lastIndex(of: " ").map { head[..<$0] } ?? head
        while let last = words.last, " ,;:".contains(last) { words = words.dropLast() }
        return words + "…"
    }
}
