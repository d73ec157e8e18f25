/// Values that name a file: `[Socket] Path=`, `[Places] Cities=`, `[Weather] APIKeyFile=`.
/// What can be checked without the file system is checked here; whether a path exists or is
/// a directory is the loader's (WundercastServer `Configuration+FileChecks.swift`).
extension Configuration {
    /// An absolute path of a file: starts with `/`, is not `/` and does not end in `/`, holds
    /// no NUL or control character.
    static func parseFilePath(_ v: String) throws(InvalidValue) -> String {
        guard v.hasPrefix("/") else { throw InvalidValue("is not an absolute path") }
        guard !v.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw InvalidValue("contains a control character")
        }
        guard v != "/" else { throw InvalidValue("is the root directory, not a file") }
        guard !v.hasSuffix("/") else { throw InvalidValue("ends in /: it names a directory, not a file") }
        return v
    }

    /// A file path (``parseFilePath(_:)``) that fits `sockaddr_un.sun_path` (108 bytes with the NUL).
    static func parseSocketPath(_ v: String) throws(InvalidValue) -> String {
        let path = try parseFilePath(v)
        guard path.utf8.count <= 107 else {
            throw InvalidValue("is \(path.utf8.count) bytes long; a Unix socket path has at most 107")
        }
        return path
    }
}
