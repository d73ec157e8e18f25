/// API keys stay out of the main configuration: it is often readable by every local user,
/// pasted into bug reports and echoed in error messages. `APIKeyFile=` names a file instead, and
/// any error about a value that may be a key leaves the value out.
extension Configuration {
    /// `APIKeyFile=`: empty for none, else an absolute file path (``parseFilePath(_:)``). A value that looks like a key
    /// itself is refused without being repeated.
    static func parseKeyFile(_ v: String) throws(InvalidValue) -> String? {
        if v.isEmpty { return nil }
        if looksLikeSecret(Substring(v)) {
            throw InvalidValue(
                "looks like an API key, not a path: put the key in a file only the daemon can read and name that file here",
                quotesValue: false)
        }
        return try parseFilePath(v)
    }

    /// Whether `text` looks like an API key rather than a word or a path: at least 16
    /// characters, only ASCII letters, digits, `-` and `_`, with both letters and digits
    /// (OpenWeatherMap keys are 32 hexadecimal digits).
    static func looksLikeSecret(_ text: Substring) -> Bool {
        text.count >= 16
            && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
            && text.contains(where: \.isNumber) && text.contains(where: \.isLetter)
    }

    /// The message for `APIKey=` (or `AppID=`, …) in `[Weather]`: refused whatever its value.
    static func refusedSecretKey(_ key: String) -> String {
        "\(key)= is refused: an API key does not belong in the main configuration (other users may read it, "
            + "and it ends up in bug reports); put the key alone in a file only the daemon can read and set "
            + "APIKeyFile=PATH, or give it to the service with systemd's LoadCredential=openweathermap:PATH"
    }
}
