import WundercastConfiguration

import WundercastPOSIX

/// Checks of configured paths against the file system, at the `file:line` that set them.
extension Configuration {
    /// Errors: `[Socket] Path=` where something other than a socket stands (a directory, a
    /// regular file, a symbolic link, a FIFO): the daemon leaves it in place and does not start
    /// (``UnixSocket/Occupant``). Whose a socket there is depends on the user the daemon runs
    /// as, so only the start checks that.
    static func fileSystemErrors(_ parsed: ParsedConfiguration) -> [ConfigurationError] {
        let path = parsed.configuration.socket.path
        guard let occupant = try? UnixSocket.Occupant(at: path), occupant.kind != .socket else { return [] }
        let at = origin(parsed, "Socket.Path")
        let message =
            occupant.kind == .directory
            ? "Path=\"\(path)\" is a directory; name the socket file in it (e.g. \(path)/wundercast.sock)"
            : "Path=\"\(path)\" is \(occupant.refusal)"
        return [ConfigurationError(file: at.file, line: at.line, message: message)]
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
