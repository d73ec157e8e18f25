import WundercastCore
import WundercastPOSIX

extension Configuration {
    /// The largest configuration file read, in bytes (1 MiB).
    static let maxFileSize = 1 << 20

    /// Reads the regular file at `path` (``WundercastPOSIX/WholeFile/read(path:limit:)``) and parses it
    /// (``WundercastCore/Configuration/parse(_:file:)``); errors name `path` as given.
    ///
    /// - Throws: ``ConfigurationError`` with line 0 and the operating system's reason when the
    ///   file cannot be read (e.g. `/etc/x.conf: cannot read: No such file or directory`), or
    ///   when it is not a regular file, not UTF-8 or larger than 1 MiB; otherwise whatever
    ///   `parse(_:file:)` throws (with the 1-based line).
    public static func load(path: String) throws(ConfigurationError) -> Configuration {
        let bytes: [UInt8]
        do {
            bytes = try WholeFile.read(path: path, limit: maxFileSize)
        } catch {
            throw ConfigurationError(file: path, line: 0, message: "cannot read: \(error.reason)")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw ConfigurationError(file: path, line: 0, message: "is not valid UTF-8 text")
        }
        return try parse(text, file: path)
    }
}

extension Daemon.Instance {
    /// `[Socket]` as the server takes it: `PreciseGroup=` resolved to its id once, at start
    /// (`getgrnam_r`). A group that does not exist, or cannot be looked up, gives one warning
    /// and nobody beyond root and the daemon's own user reads precisely.
    func socketSettings(_ configuration: Configuration) -> SocketServer.Settings {
        let name = configuration.socket.preciseGroup
        guard !name.isEmpty else { return .init(configuration.socket, preciseGroupID: nil) }
        do {
            if let gid = try GroupDatabase.gid(named: name) {
                return .init(configuration.socket, preciseGroupID: gid)
            }
            logger.warning(
                "PreciseGroup=\(name): no such group; only root and the daemon's own user get precise positions")
        } catch {
            logger.warning(
                "PreciseGroup=\(name): \(error); only root and the daemon's own user get precise positions")
        }
        return .init(configuration.socket, preciseGroupID: nil)
    }
}
