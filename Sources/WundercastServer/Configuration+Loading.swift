import WundercastConfiguration

import WundercastPOSIX

extension Configuration {
    /// Reads the one file at `path`, without drop-ins (``load(_:)`` reads those too), and
    /// parses it (``WundercastConfiguration/Configuration/parse(bytes:file:onto:)``); errors name `path`
    /// as given.
    ///
    /// - Throws: the first ``ConfigurationError``: line 0 and the operating system's reason when
    ///   the file cannot be read (e.g. `/etc/x.conf: cannot read: No such file or directory`), or
    ///   when it is not a regular file or larger than 1 MiB; else the first bad line.
    public static func load(path: String) throws(ConfigurationError) -> Configuration {
        let parsed = apply(file: path, onto: ParsedConfiguration()).checked()
        if let first = parsed.errors.first { throw first }
        return parsed.configuration
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
