/// API keys and passwords stay out of the main configuration: it is often readable by every
/// local user, pasted into bug reports and echoed in error messages. `APIKeyFile=` and
/// `[MQTT] PasswordFile=` name a file instead, and any error about a value that may be a secret
/// leaves the value out.
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

    /// `[MQTT] PasswordFile=`: empty for none, else an absolute file path (``parseFilePath(_:)``).
    /// A refused value is never repeated, whatever it looks like: a password may be any text.
    static func parsePasswordFile(_ v: String) throws(InvalidValue) -> String? {
        if v.isEmpty { return nil }
        do {
            return try parseFilePath(v)
        } catch {
            throw InvalidValue(
                "\(error.reason) (the value is not repeated: it may be the password; put the password alone in a file only the daemon can read and name that file here)",
                quotesValue: false)
        }
    }

    /// Key names, by section, that would hold a secret itself: refused whatever their value,
    /// which no message repeats.
    static let secretKeyNames: [String: Set<String>] = [
        "Weather": ["apikey", "api_key", "appid", "key", "token"],
        "MQTT": ["password", "passwd", "pass"],
    ]

    /// The message for `APIKey=` (or `AppID=`, …) in `[Weather]` and `Password=` in `[MQTT]`,
    /// refused whatever their value; `nil` for any other key (names compared in any case).
    static func refusedSecretKey(_ key: String, in section: String) -> String? {
        guard secretKeyNames[section]?.contains(key.lowercased()) == true else { return nil }
        if section == "MQTT" {
            return "\(key)= is refused: a password does not belong in the main configuration (other users may read it, "
                + "and it ends up in bug reports); put the password alone in a file only the daemon can read and set "
                + "PasswordFile=PATH, or give it to the service with systemd's LoadCredential=mqtt:PATH"
        }
        return "\(key)= is refused: an API key does not belong in the main configuration (other users may read it, "
            + "and it ends up in bug reports); put the key alone in a file only the daemon can read and set "
            + "APIKeyFile=PATH, or give it to the service with systemd's LoadCredential=openweathermap:PATH"
    }
}
