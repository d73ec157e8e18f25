import WundercastConfiguration

import WundercastPOSIX

extension Daemon.Options {
    /// Where `--config`/`--config-if-exists` (or the default) say the configuration is.
    var configurationSources: ConfigurationSources {
        .forCommandLine(path: configPath, optional: configOptional)
    }
}

extension Daemon {
    /// `wundercastd --check-config`: reads the configuration as start-up would (main file and
    /// drop-ins), sets up the provider (a bad `APIKeyFile=` fails it) and resolves `[MQTT]` (a bad
    /// `PasswordFile=` fails it).
    ///
    /// Valid: prints ``WundercastConfiguration/ParsedConfiguration/effectiveText()`` to stdout (every
    /// key, its value and `# file:line` or `# (default)`), preceded by the files read as
    /// `# file` comment lines; warnings (`file:line: warning: …`) and
    /// `wundercastd: configuration OK` go to stderr; returns 0. Invalid: every error as
    /// `file:line: message` on stderr, nothing on stdout; returns 1. No value printed is a
    /// secret: keys are refused in the file, and `APIKeyFile=` is a path.
    static func checkConfiguration(_ options: Options) -> Int32 {
        let parsed = Configuration.collect(options.configurationSources)
        let errors = parsed.errors + Configuration.cachePathErrors(parsed)
        guard errors.isEmpty else {
            writeError(errors.map { "\($0)\n" }.joined())
            return 1
        }
        let configuration = parsed.configuration
        // The provider too: a key file that is missing, empty or not a key stops the start
        // as surely as a bad line. A key from systemd's credentials exists only under the unit.
        let weather = configuration.weather
        let keyFromUnit =
            weather.provider == .openWeatherMap && weather.apiKeyFile == nil
            && (Environment.value("CREDENTIALS_DIRECTORY") ?? "").isEmpty
        if !keyFromUnit {
            // The provider's HTTP client needs a loop to be made on; nothing is fetched.
            let loop: EventLoop
            do {
                loop = try EventLoop(name: "wundercast-chk")
            } catch {
                writeError("wundercastd: cannot start the event loop: \(error)\n")
                return 1
            }
            defer { loop.stop() }
            do {
                _ = try makeProvider(configuration, loop: loop)
            } catch {
                let origin = parsed.origins["Weather.APIKeyFile"].map { "\($0): " } ?? "wundercastd: "
                writeError("\(origin)\(error)\n")
                return 1
            }
        }
        // [MQTT] as the daemon resolves it: a password file that cannot be read (or is no
        // password) stops the start too. Its errors never quote the file's content.
        do throws(FleetSetupError) {
            _ = try fleetSetup(configuration)
        } catch {
            let origin =
                (parsed.origins["MQTT.PasswordFile"] ?? parsed.origins["MQTT.Broker"]).map { "\($0): " }
                ?? "wundercastd: "
            writeError("\(origin)\(error)\n")
            return 1
        }
        let files = parsed.files.isEmpty ? ["# no configuration file: all defaults"] : parsed.files.map { "# \($0)" }
        print(files.joined(separator: "\n") + "\n\n" + parsed.effectiveText(), terminator: "")
        writeError(Configuration.fileSystemWarnings(parsed).map { "\($0)\n" }.joined())
        writeError(
            "wundercastd: configuration OK"
                + (keyFromUnit
                    ? " (the API key comes from $CREDENTIALS_DIRECTORY/\(credentialName) when the service runs: not checked here)"
                    : "") + "\n")
        return 0
    }
}
