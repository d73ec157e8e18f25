import WundercastSupport
import WundercastModel

/// Why the state is not fresh, in a short sentence for people (the human line, bar texts and
/// tooltips), chosen by the error's code (docs/PROTOCOL.md, "Error codes"): never libcurl's or a
/// provider's raw text, which stays in `--json`, `status` and the journal. A code it does not
/// know gives the message, cut at a word boundary.
public enum HumanError {
    /// The longest text an unknown code's message is cut to, in characters.
    public static let limit = 80

    public static func text(_ error: WeatherState.ErrorInfo) -> String {
        if let known = sentences[error.code] { return known }
        if error.code.hasPrefix("http-"), let status = Int(error.code.dropFirst(5)) {
            switch status {
            case 500...599: return "the weather provider has a server error (HTTP \(status))"
            case 300...399: return "the weather provider redirected elsewhere (HTTP \(status))"
            default: return "the weather provider answered with an error (HTTP \(status))"
            }
        }
        return cut(UntrustedText.sanitized(error.message, limit: 4 * limit), to: limit)
    }

    static let sentences: [String: String] = [
        "no-fix": "no GPS fix",
        "gpsd-unreachable": "cannot reach gpsd",
        "device-gone": "the GPS receiver is gone",
        "denied": "GPS use is denied and no fallback place is set",
        "not-determined": "GPS use is not decided yet (wundercastctl authorize)",
        "fallback-name": "the fallback place was not found",
        "cached": "weather from before the restart",
        "dns": "cannot find the weather provider (name lookup failed)",
        "connect": "cannot reach the weather provider",
        "timeout": "the weather provider did not answer in time",
        "tls": "the secure connection to the weather provider failed",
        "transport": "the connection to the weather provider broke off",
        "truncated": "the weather provider's answer was cut short",
        "too-large": "the weather provider's answer was too large",
        "http-401": "the weather provider refused the API key",
        "http-403": "the weather provider refused access",
        "http-404": "the weather provider's URL is wrong",
        "http-429": "the weather provider asks to wait (too many requests)",
        "not-json": "the weather provider's answer was not weather data",
        "error-body": "the weather provider reported an error",
        "decoding": "the weather provider's answer could not be read",
        "provider-backoff": "waiting before asking the weather provider again",
        AlertsState.unavailableCode: "no usable answer from the alert source",
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
