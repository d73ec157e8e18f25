import WundercastSupport

extension Configuration {
    /// Parses a systemd-style INI file (systemd.syntax(7)), starting from the defaults
    /// (`Configuration()`) and applying each assignment in order; a later assignment of the
    /// same key wins. The rules between keys (``ParsedConfiguration/checked()``) apply too.
    ///
    /// Syntax: `[Section]` headers; `Key=Value` with whitespace around key and value trimmed;
    /// a value wholly in `"…"` or `'…'` loses the quotes; blank lines and lines starting with
    /// `#` or `;` are ignored; a line ending in `\` continues on the next line (the backslash
    /// becomes a space; comment lines inside are skipped). Section and key names are
    /// case-sensitive: `[Location]` `Authorization` `GPSD` `MaxHorizontalError` `MaxFixAge` `Fallback`;
    /// `[Throttle]` `MinInterval` `MinDistance` `MaxAge`; `[Weather]` `Provider` `URL` `Contact` `Units`
    /// `TemperatureUnit` `WindSpeedUnit` `PressureUnit` `PrecipitationUnit` `Precision` `Timeout` `Cell`
    /// `APIKeyFile` `Language`; `[Socket]` `Path`. As in systemd, sections and keys whose names
    /// start with `X-` are ignored. CRLF line ends and a UTF-8 byte order mark are accepted.
    ///
    /// - Parameters:
    ///   - text: the file's contents.
    ///   - file: the name used in error messages.
    /// - Throws: ``ConfigurationError``: the first of the errors that
    ///   ``parse(_:file:onto:)`` collects (unknown section or key, a key before any section, a
    ///   line without `=`, a bad value), with the 1-based line number (the first line of a
    ///   continued line) and a message naming the key and quoting the value, e.g.
    ///   `wundercast.conf:7: MinInterval="5 parsecs" is not a time span (examples: 30s, 5min, 1h 30min)`.
    public static func parse(_ text: String, file: String = "<string>") throws(ConfigurationError) -> Configuration {
        let parsed = parse(text, file: file, onto: ParsedConfiguration()).checked()
        if let first = parsed.errors.first { throw first }
        return parsed.configuration
    }

    /// Applies the file `text` on top of `base` (the defaults, or the files applied before:
    /// a drop-in over the main file), with the syntax of ``parse(_:file:)``, and collects every
    /// error instead of stopping at the first. Each key assigned records its origin
    /// (`file`, line). A line with an error changes nothing; after an unknown `[Section]` its
    /// keys are skipped (one error, not one per key). Rules between keys are not checked here:
    /// call ``ParsedConfiguration/checked()`` once every file is applied.
    public static func parse(_ text: String, file: String, onto base: ParsedConfiguration) -> ParsedConfiguration {
        var parser = Parser(file: file, parsed: base)
        parser.parsed.files.append(file)
        var pending: (line: Int, text: String)? = nil
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
        for (index, physical) in lines.enumerated() {
            var line = Substring(physical)
            if index == 0, line.first == "\u{FEFF}" { line = line.dropFirst() }
            let trimmed = line.trimmingWhitespace()
            if trimmed.first == "#" || trimmed.first == ";" { continue }
            if pending == nil, trimmed.isEmpty { continue }
            let start = pending?.line ?? index + 1
            if trimmed.last == "\\" {
                pending = (start, (pending?.text ?? "") + line.trimmingTrailingWhitespace().dropLast() + " ")
                continue
            }
            let logical = (pending?.text ?? "") + line
            pending = nil
            parser.consume(logical, line: start)
        }
        if let pending { parser.consume(pending.text, line: pending.line) }
        return parser.parsed
    }

    /// ``parse(_:file:onto:)`` for the raw bytes of a file: a line that is not valid UTF-8 is
    /// an error naming that line and the column (1-based byte) of the first bad byte, e.g.
    /// `x.conf:4: is not valid UTF-8 text (byte 0xFF at column 7)`, and is left out; the other
    /// lines are parsed.
    public static func parse(bytes: [UInt8], file: String, onto base: ParsedConfiguration) -> ParsedConfiguration {
        if let text = String(validating: bytes, as: UTF8.self) { return parse(text, file: file, onto: base) }
        var errors: [ConfigurationError] = []
        var text = ""
        for (index, line) in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
            if index > 0 { text += "\n" }
            if let valid = String(validating: line, as: UTF8.self) {
                text += valid
            } else {
                let offset = UTF8Scan.firstInvalidByte(line) ?? 0
                let byte = line[line.startIndex + offset]
                let hex = String(byte, radix: 16, uppercase: true)
                errors.append(
                    ConfigurationError(
                        file: file, line: index + 1,
                        message:
                            "is not valid UTF-8 text (byte 0x\(hex.count == 1 ? "0" : "")\(hex) at column \(offset + 1))"
                    ))
            }
        }
        var parsed = parse(text, file: file, onto: base)
        // This file's errors in line order, after those of the files before it.
        let mine = (parsed.errors[base.errors.count...] + errors).enumerated().sorted {
            ($0.element.line, $0.offset) < ($1.element.line, $1.offset)
        }
        parsed.errors = base.errors + mine.map(\.element)
        return parsed
    }
}

extension ParsedConfiguration {
    /// Adds the errors of the rules between keys, checked once every file is applied, each at
    /// the origin of the assignment that broke it: `Provider=metno` needs `Contact=` (at
    /// `Provider=`); `MaxAge=` may not be shorter than `MinInterval=` (at the later of the two);
    /// `Timeout=` at most a quarter of `MaxAge=`; the rules of `[MQTT]` (``mqttErrors()``).
    public func checked() -> ParsedConfiguration {
        var result = self
        let configuration = self.configuration
        if configuration.weather.provider == .metNorway, configuration.weather.contact == nil {
            result.errors.append(
                error(
                    at: "Weather.Provider",
                    "Provider=metno needs [Weather] Contact= (an e-mail address or URL): MET Norway's terms require an identifying User-Agent with a contact and ban generic ones"
                ))
        }
        let throttle = configuration.throttle
        if throttle.maxAge < throttle.minInterval {
            let at = later("Throttle.MaxAge", "Throttle.MinInterval")
            let maxAge = TimeSpan.format(throttle.maxAge)
            let minInterval = TimeSpan.format(throttle.minInterval)
            let message =
                at == "Throttle.MaxAge"
                ? "MaxAge=\(maxAge) is shorter than MinInterval=\(minInterval): no two fetches may start closer than MinInterval, so MaxAge must be at least that"
                : "MinInterval=\(minInterval) is longer than MaxAge=\(maxAge): no two fetches may start closer than MinInterval, so MaxAge must be at least that"
            result.errors.append(error(at: at, message))
        }
        // Weather stays `fresh` while its refetch after `MaxAge` is under way: a fetch may take
        // `Timeout=`, so a long one would show old weather as fresh (a hung provider for hours).
        let timeout = configuration.weather.timeout
        if timeout * 4 > throttle.maxAge {
            result.errors.append(
                error(
                    at: later("Weather.Timeout", "Throttle.MaxAge"),
                    "Timeout=\(TimeSpan.format(timeout)) is more than a quarter of MaxAge=\(TimeSpan.format(throttle.maxAge)): weather is shown as fresh while its refetch runs, so a fetch may take at most MaxAge/4"
                ))
        }
        result.errors += mqttErrors()
        return result
    }

    /// An error of a rule between keys, at the origin of `key` (`"Section.Key"`), or
    /// `(default):0` for a key no file set.
    func error(at key: String, _ message: String) -> ConfigurationError {
        let at = origins[key] ?? ConfigurationOrigin(file: "(default)", line: 0)
        return ConfigurationError(file: at.file, line: at.line, message: message)
    }

    /// Of two keys (`"Section.Key"`), the one assigned later (the later file or line; `a` when
    /// neither was assigned, or both at once): where a rule between them is reported.
    func later(_ a: String, _ b: String) -> String {
        (sequence[a] ?? 0) >= (sequence[b] ?? 0) ? a : b
    }
}

// MARK: - The line parser

extension Configuration {
    /// Applies logical lines one by one onto a ``ParsedConfiguration``; remembers the current section.
    private struct Parser {
        enum Current {
            case none
            case known(Section)
            case ignored  // [X-…], or an unknown section already reported
        }

        let file: String
        var parsed: ParsedConfiguration
        var current = Current.none

        init(file: String, parsed: ParsedConfiguration) {
            self.file = file
            self.parsed = parsed
        }

        mutating func consume(_ text: String, line: Int) {
            if let message = apply(text, line: line) {
                parsed.errors.append(ConfigurationError(file: file, line: line, message: message))
            }
        }

        /// Applies one logical line; returns the error message, if any.
        private mutating func apply(_ text: String, line: Int) -> String? {
            let content = Substring(text).trimmingWhitespace()
            if content.isEmpty { return nil }
            if content.first == "[" {
                guard content.count >= 2, content.last == "]" else {
                    current = .ignored
                    return "\"\(visible(content))\" is not a section header (expected [Section])"
                }
                let name = String(content.dropFirst().dropLast())
                if let section = Configuration.sections.first(where: { $0.name == name }) {
                    current = .known(section)
                } else {
                    current = .ignored
                    if !name.hasPrefix("X-") {
                        let known = Configuration.sections.map { "[\($0.name)]" }.joined(separator: ", ")
                        return "unknown section [\(visible(name))] (known sections: \(known))"
                    }
                }
                return nil
            }
            guard let equals = content.firstIndex(of: "=") else {
                if Configuration.looksLikeSecret(content) {
                    return
                        "a line that looks like an API key: keys do not belong in this file (use APIKeyFile= in [Weather])"
                }
                return "\"\(visible(content))\" is not a Key=Value assignment or a [Section] header"
            }
            let key = String(content[..<equals].trimmingWhitespace())
            let value = unquote(content[content.index(after: equals)...].trimmingWhitespace())
            guard !key.isEmpty else { return "\"\(visible(content))\" has no key before the =" }
            let section: Section
            switch current {
            case .none: return "\(visible(key))= appears before any [Section] header"
            case .ignored: return nil
            case .known(let s): section = s
            }
            if key.hasPrefix("X-") { return nil }
            if let refusal = Configuration.refusedSecretKey(key, in: section.name) { return refusal }
            guard let entry = section.keys.first(where: { $0.name == key }) else {
                let known = section.keys.map(\.name).joined(separator: ", ")
                return "unknown key \(visible(key))= in [\(section.name)] (known keys: \(known))"
            }
            do {
                try entry.apply(&parsed.configuration, value)
            } catch {
                return error.quotesValue ? "\(key)=\"\(visible(value))\" \(error.reason)" : "\(key)= \(error.reason)"
            }
            parsed.assigned("\(section.name).\(key)", at: ConfigurationOrigin(file: file, line: line))
            return nil
        }

        /// Text from the file as it may appear in an error message: control characters as
        /// `\u{…}` escapes (a NUL or an escape sequence must not reach a terminal or the
        /// journal), at most 200 characters.
        private func visible<S: StringProtocol>(_ text: S) -> String {
            let escaped = Configuration.escapingControls(String(text))
            guard escaped.unicodeScalars.count > 200 else { return escaped }
            return String(String.UnicodeScalarView(escaped.unicodeScalars.prefix(200))) + "…"
        }

        /// Strips one pair of matching `"` or `'` around the whole value.
        private func unquote(_ v: Substring) -> String {
            if v.count >= 2, let q = v.first, q == "\"" || q == "'", v.last == q {
                return String(v.dropFirst().dropLast())
            }
            return String(v)
        }
    }
}
