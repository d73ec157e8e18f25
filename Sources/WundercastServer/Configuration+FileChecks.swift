import WundercastCore
import WundercastPOSIX

/// Checks of configured paths against the file system, at the `file:line` that set them.
extension Configuration {
    /// Errors: `[Socket] Path=` that is an existing directory (binding there would fail, and
    /// the daemon would otherwise remove whatever is at that path first).
    static func fileSystemErrors(_ parsed: ParsedConfiguration) -> [ConfigurationError] {
        let path = parsed.configuration.socket.path
        guard (try? Directory.kind(of: path)) == .directory else { return [] }
        let at = origin(parsed, "Socket.Path")
        return [
            ConfigurationError(
                file: at.file, line: at.line,
                message: "Path=\"\(path)\" is a directory; name the socket file in it (e.g. \(path)/wundercast.sock)")
        ]
    }

    /// Warnings (`--check-config` prints them; start-up logs the same cases when it meets
    /// them and carries on): a `[Places] Cities=` table that is missing or unreadable (the
    /// daemon then runs without place names).
    public static func fileSystemWarnings(_ parsed: ParsedConfiguration) -> [ConfigurationError] {
        let cities = parsed.configuration.places.cities
        guard !cities.isEmpty else { return [] }
        let reason: String
        do {
            switch try Directory.kind(of: cities) {
            case .regularFile: return []
            case .directory: reason = "is a directory"
            case .nullDevice, .other: reason = "is not a regular file"
            }
        } catch {
            reason = "cannot be read: \(error.reason)"
        }
        let at = origin(parsed, "Places.Cities")
        return [
            ConfigurationError(
                file: at.file, line: at.line,
                message:
                    "warning: Cities=\"\(cities)\" \(reason); the daemon runs without place names (make install installs the table)"
            )
        ]
    }

    /// Where `key` was set, or `wundercastd` (line 0) for a default: `wundercastd: warning: …`.
    private static func origin(_ parsed: ParsedConfiguration, _ key: String) -> ConfigurationOrigin {
        parsed.origins[key] ?? ConfigurationOrigin(file: "wundercastd", line: 0)
    }
}
