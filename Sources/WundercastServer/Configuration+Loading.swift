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
