#if canImport(Glibc)
import Glibc
#endif
import WundercastConfiguration
import WundercastPOSIX

/// Where the configuration is read from: a main file and `*.conf` drop-ins, as systemd reads
/// its own (systemd.unit(5) "drop-in", systemd-system.conf(5)).
///
/// Order: the main file first, then every drop-in sorted by file name (whichever directory it
/// is in); a later assignment overrides an earlier one. A drop-in name found in an earlier
/// directory masks the same name in later ones; a drop-in that is a symbolic link to
/// `/dev/null` masks that name altogether. Names starting with `.` and not ending in `.conf`
/// are ignored.
public struct ConfigurationSources: Sendable, Equatable {
    /// The main file (`/etc/wundercast/wundercast.conf` or `--config PATH`).
    public var mainFile: String
    /// Whether a missing main file means "no main file" (the default path, and
    /// `--config-if-exists`) rather than an error; drop-ins apply either way.
    public var mainFileOptional: Bool
    /// Drop-in directories, most important first.
    public var dropInDirectories: [String]

    public init(mainFile: String, mainFileOptional: Bool = false, dropInDirectories: [String]) {
        self.mainFile = mainFile
        self.mainFileOptional = mainFileOptional
        self.dropInDirectories = dropInDirectories
    }

    /// Where systemd would look for the drop-ins of a `wundercast/` configuration, most
    /// important first: `/etc`, `/run`, `/usr/local/lib`, `/usr/lib`.
    public static let standardDirectories = [
        "/etc/wundercast", "/run/wundercast", "/usr/local/lib/wundercast", "/usr/lib/wundercast",
    ]

    /// The sources for a command line. The default file `/etc/wundercast/wundercast.conf`
    /// (given or not) takes the drop-ins of `wundercast.conf.d/` in the four
    /// ``standardDirectories``; another file is self-contained: only `PATH.d/` next to it (a
    /// file under test, or a user's own, never picks up the machine's drop-ins).
    ///
    /// - Parameters:
    ///   - path: `--config`/`--config-if-exists` PATH, or `nil` for the default file.
    ///   - optional: `--config-if-exists`; without a PATH the default file is optional anyway.
    public static func forCommandLine(path: String?, optional: Bool) -> ConfigurationSources {
        let file = path ?? Daemon.defaultConfigPath
        let directories =
            file == Daemon.defaultConfigPath
            ? standardDirectories.map { $0 + "/wundercast.conf.d" }
            : [file + ".d"]
        return ConfigurationSources(
            mainFile: file, mainFileOptional: path == nil || optional, dropInDirectories: directories)
    }

    /// The drop-ins to apply, in order (full paths), after masking by name; the masked ones
    /// left out. Errors: a directory that cannot be listed.
    public func dropIns() -> (files: [String], errors: [ConfigurationError]) {
        var chosen: [String: String] = [:]
        var errors: [ConfigurationError] = []
        for directory in dropInDirectories {
            let names: [String]
            do {
                guard let listed = try Directory.names(in: directory) else { continue }
                names = listed
            } catch {
                errors.append(ConfigurationError(file: directory, line: 0, message: "cannot list: \(error.reason)"))
                continue
            }
            for name in names where name.hasSuffix(".conf") && !name.hasPrefix(".") && chosen[name] == nil {
                chosen[name] = directory + "/" + name
            }
        }
        let files = chosen.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }.map(\.value)
        return (files.filter { (try? Directory.kind(of: $0)) != .nullDevice }, errors)
    }
}

extension Configuration {
    /// The largest configuration file read, in bytes (1 MiB).
    static let maxFileSize = 1 << 20

    /// Reads the main file and its drop-ins (``ConfigurationSources``), applies them in order on
    /// the defaults, and checks the rules between keys and the paths that must not be
    /// directories (`[Socket] Path=`). This is what start-up, `--check-config` and a reload use.
    ///
    /// - Returns: the configuration and the `file:line` each key set came from
    ///   (``ParsedConfiguration/origins``; ``ParsedConfiguration/errors`` is empty).
    /// - Throws: ``ConfigurationErrors`` with every error of every file, in the order applied:
    ///   a file that cannot be read (`/x.conf: cannot read: No such file or directory`; a FIFO,
    ///   socket, device or directory: `cannot read: not a regular file` / `Is a directory`), a
    ///   drop-in directory that cannot be listed, and each bad line (`file:line: message`).
    public static func load(_ sources: ConfigurationSources) throws(ConfigurationErrors) -> ParsedConfiguration {
        let parsed = collect(sources)
        if !parsed.errors.isEmpty { throw ConfigurationErrors(parsed.errors) }
        return parsed
    }

    /// ``load(_:)`` without throwing: whatever could be applied, with ``ParsedConfiguration/errors``.
    static func collect(_ sources: ConfigurationSources) -> ParsedConfiguration {
        var parsed = ParsedConfiguration()
        do {
            _ = try Directory.kind(of: sources.mainFile)
            parsed = apply(file: sources.mainFile, onto: parsed)
        } catch  where error.code == ENOENT && sources.mainFileOptional {
            // No main file: the defaults, then the drop-ins.
        } catch {
            parsed = apply(file: sources.mainFile, onto: parsed)  // says why it cannot be read
        }
        let (files, listingErrors) = sources.dropIns()
        parsed.errors += listingErrors
        for file in files { parsed = apply(file: file, onto: parsed) }
        parsed = parsed.checked()
        parsed.errors += fileSystemErrors(parsed)
        return parsed
    }

    /// Reads the regular file at `path` (``WundercastPOSIX/WholeFile/read(path:limit:)``, which
    /// refuses a FIFO or device without blocking) and applies it onto `parsed`.
    static func apply(file path: String, onto parsed: ParsedConfiguration) -> ParsedConfiguration {
        do {
            let bytes = try WholeFile.read(path: path, limit: maxFileSize)
            return parse(bytes: bytes, file: path, onto: parsed)
        } catch {
            var failed = parsed
            failed.errors.append(ConfigurationError(file: path, line: 0, message: "cannot read: \(error.reason)"))
            return failed
        }
    }
}
