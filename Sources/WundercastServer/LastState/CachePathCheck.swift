import WundercastConfiguration

/// `[Cache] Path=` against the file system: only a regular file (or nothing yet) outside the
/// kernel's and the devices' trees may be kept there. Start-up logs a problem once and keeps
/// nothing for the run; `--check-config` reports it as an error at the key's line.
extension Configuration {
    /// Why `path` cannot hold the kept weather, or `nil`: under `/proc`, `/sys` or `/dev`, or
    /// something other than a regular file there (`lstat`: a symbolic link is itself).
    static func cachePathProblem(_ path: String) -> String? {
        for root in ["/proc", "/sys", "/dev"] where path == root || path.hasPrefix(root + "/") {
            return "is under \(root), where no file of the daemon belongs"
        }
        return LastStateFile.otherThanRegularFile(at: path).map { "is \($0), not a regular file" }
    }

    /// The error for a configured `[Cache] Path=` that ``cachePathProblem(_:)`` refuses, at the
    /// line that set it (the default path is the unit's own `CacheDirectory=`: not checked).
    static func cachePathErrors(_ parsed: ParsedConfiguration) -> [ConfigurationError] {
        let cache = parsed.configuration.cache
        guard cache.enabled, let path = cache.path, let problem = cachePathProblem(path) else { return [] }
        let at = parsed.origins["Cache.Path"] ?? ConfigurationOrigin(file: "wundercastd", line: 0)
        return [ConfigurationError(file: at.file, line: at.line, message: "Path=\"\(path)\" \(problem)")]
    }
}
