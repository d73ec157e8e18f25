/// Where a key's value came from: the file and 1-based line of the assignment that set it.
public struct ConfigurationOrigin: Sendable, Equatable, CustomStringConvertible {
    /// The file path as given to the parser (e.g. `/etc/wundercast/wundercast.conf.d/50-gpsd.conf`).
    public var file: String
    /// 1-based line of the assignment (the first line of a continued line).
    public var line: Int

    public init(file: String, line: Int) {
        self.file = file
        self.line = line
    }

    /// `file:line`.
    public var description: String { "\(file):\(line)" }
}

/// A configuration being built from one or more files (the main file, then drop-ins), with the
/// origin of every key a file set and every error found so far.
///
/// Made by ``Configuration/parse(_:file:onto:)`` and ``Configuration/parse(bytes:file:onto:)``;
/// ``checked()`` adds the rules between keys once every file is applied.
public struct ParsedConfiguration: Sendable, Equatable {
    /// The values: defaults, overridden by each assignment in the order applied.
    public var configuration: Configuration
    /// For each key set by a file, `"Section.Key"` (e.g. `"Location.GPSD"`) → where the last
    /// assignment was. A key absent here has its default.
    public var origins: [String: ConfigurationOrigin]
    /// Every error, in the order found; empty when the configuration is valid.
    public var errors: [ConfigurationError]
    /// The files applied, in order (as named to the parser).
    public var files: [String] = []
    /// Order in which keys were last assigned (the later file or line wins), for rules between keys.
    var sequence: [String: Int] = [:]

    /// Starts from `configuration` (by default all defaults) with no origins and no errors.
    public init(_ configuration: Configuration = Configuration()) {
        self.configuration = configuration
        origins = [:]
        errors = []
    }

    /// The configuration, or every error.
    ///
    /// - Throws: ``ConfigurationErrors`` with ``errors`` when there is any.
    public func get() throws(ConfigurationErrors) -> Configuration {
        guard errors.isEmpty else { throw ConfigurationErrors(errors) }
        return configuration
    }

    mutating func assigned(_ key: String, at origin: ConfigurationOrigin) {
        origins[key] = origin
        sequence[key] = (sequence.values.max() ?? 0) + 1
    }
}

/// Every error found in a configuration (its files and drop-ins), each as `file:line: message`,
/// in the order found. Never empty.
public struct ConfigurationErrors: Error, Sendable, Equatable, CustomStringConvertible {
    public var errors: [ConfigurationError]

    public init(_ errors: [ConfigurationError]) {
        precondition(!errors.isEmpty, "ConfigurationErrors needs at least one error")
        self.errors = errors
    }

    /// One error per line, without a final newline.
    public var description: String { errors.map(\.description).joined(separator: "\n") }
}
