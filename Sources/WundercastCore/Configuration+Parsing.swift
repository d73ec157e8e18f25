#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Configuration {
    /// Parses a systemd-style INI file (systemd.syntax(7)), starting from the defaults
    /// (`Configuration()`) and applying each assignment in order; a later assignment of the
    /// same key wins.
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
    /// - Throws: ``ConfigurationError`` at the first problem (unknown section or key, a key
    ///   before any section, a line without `=`, a bad value), with the 1-based line number
    ///   (the first line of a continued line) and a message naming the key and quoting the
    ///   value, e.g. `wundercast.conf:7: MinInterval="5 parsecs" is not a time span (examples: 30s, 5min, 1h 30min)`.
    public static func parse(_ text: String, file: String = "<string>") throws(ConfigurationError) -> Configuration {
        var parser = Parser(file: file)
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
            try parser.consume(logical, line: start)
        }
        if let pending { try parser.consume(pending.text, line: pending.line) }
        try parser.validate()
        return parser.configuration
    }
}

// MARK: - The sections and keys

extension Configuration {
    /// A `[Section]` and its keys, in the order of the sample file.
    struct Section: Sendable {
        var name: String
        var keys: [Key]
    }

    /// One `Key=`: its name and how its value changes the configuration.
    struct Key: Sendable {
        var name: String
        var apply: @Sendable (inout Configuration, String) throws(InvalidValue) -> Void
    }

    /// Why a value was refused, worded to follow `Key="value" `, e.g. `is not a time span`.
    struct InvalidValue: Error {
        var reason: String
        /// Whether the message may quote the value (`Key="value" reason`); `false` for a value
        /// that may be a secret (`Key= reason`).
        var quotesValue = true
        init(_ reason: String, quotesValue: Bool = true) {
            self.reason = reason
            self.quotesValue = quotesValue
        }
    }

    /// Every section and key the parser knows.
    static let sections: [Section] = [
        Section(
            name: "Location",
            keys: [
                Key(name: "Authorization") { (c, v) throws(InvalidValue) in
                    guard let status = AuthorizationStatus(configName: v) else {
                        let names = AuthorizationStatus.configOrder.map(\.configName).joined(separator: ", ")
                        throw InvalidValue("is not one of: \(names)")
                    }
                    c.location.authorization = status
                },
                Key(name: "GPSD") { (c, v) throws(InvalidValue) in
                    let (host, port) = try parseHostPort(v, defaultPort: 2947)
                    c.location.gpsdHost = host
                    c.location.gpsdPort = port
                },
                Key(name: "MaxHorizontalError") { (c, v) throws(InvalidValue) in
                    let metres = try distance(v)
                    guard metres > 0 else { throw InvalidValue("must be greater than 0m (it would refuse every fix)") }
                    c.location.maxHorizontalError = metres
                },
                Key(name: "MaxFixAge") { (c, v) throws(InvalidValue) in
                    c.location.maxFixAge = try timeSpan(v, atLeast: .seconds(1))
                },
                Key(name: "Fallback") { (c, v) throws(InvalidValue) in c.location.fallback = try parseFallback(v) },
            ]),
        Section(
            name: "Throttle",
            keys: [
                Key(name: "MinInterval") { (c, v) throws(InvalidValue) in
                    c.throttle.minInterval = try timeSpan(v, atLeast: .seconds(1))
                },
                Key(name: "MinDistance") { (c, v) throws(InvalidValue) in c.throttle.minDistance = try distance(v) },
                Key(name: "MaxAge") { (c, v) throws(InvalidValue) in
                    c.throttle.maxAge = try timeSpan(v, atLeast: .seconds(1))
                },
            ]),
        Section(
            name: "Weather",
            keys: [
                Key(name: "Provider") { (c, v) throws(InvalidValue) in
                    guard let provider = WeatherProviderID(rawValue: v) else {
                        let names = WeatherProviderID.allCases.map(\.rawValue).joined(separator: ", ")
                        throw InvalidValue("is not a supported provider (supported: \(names))")
                    }
                    c.weather.provider = provider
                },
                Key(name: "URL") { (c, v) throws(InvalidValue) in c.weather.url = v.isEmpty ? nil : try parseURL(v) },
                Key(name: "Contact") { (c, v) throws(InvalidValue) in c.weather.contact = try parseContact(v) },
                Key(name: "Units") { (c, v) throws(InvalidValue) in
                    guard let units = UnitSystem(rawValue: v) else {
                        throw InvalidValue(
                            "is not one of: \(UnitSystem.allCases.map(\.rawValue).joined(separator: ", "))")
                    }
                    c.weather.units = units
                },
            ] + unitKeys + [
                Key(name: "Precision") { (c, v) throws(InvalidValue) in
                    guard v.utf8.count == 1, let digits = Int(v), (0...4).contains(digits) else {
                        throw InvalidValue(
                            "is not an integer from 0 to 4 (decimals of latitude/longitude sent to the provider; 4 is about 11 m)"
                        )
                    }
                    c.weather.precision = digits
                },
                Key(name: "Timeout") { (c, v) throws(InvalidValue) in
                    c.weather.timeout = try timeSpan(v, atLeast: .seconds(1))
                },
                Key(name: "Cell") { (c, v) throws(InvalidValue) in
                    guard let cell = CellSelection(rawValue: v) else {
                        throw InvalidValue(
                            "is not one of: \(CellSelection.allCases.map(\.rawValue).joined(separator: ", ")) (the model grid cell that answers for the position)"
                        )
                    }
                    c.weather.cell = cell
                },
                Key(name: "APIKeyFile") { (c, v) throws(InvalidValue) in c.weather.apiKeyFile = try parseKeyFile(v) },
                Key(name: "Language") { (c, v) throws(InvalidValue) in
                    guard let code = OpenWeatherMapLanguage(v) else {
                        throw InvalidValue(
                            "is not a language code of OpenWeatherMap (examples: en, de, fr, pt_br, zh_cn; see wundercast.conf(5))"
                        )
                    }
                    c.weather.language = code.code
                },
            ]),
        Section(
            name: "Socket",
            keys: [
                Key(name: "Path") { (c, v) throws(InvalidValue) in c.socket.path = try parseSocketPath(v) },
                Key(name: "Mode") { (c, v) throws(InvalidValue) in
                    guard (3...4).contains(v.utf8.count), v.allSatisfy({ ("0"..."7").contains($0) }),
                        let mode = UInt32(v, radix: 8), mode <= 0o777
                    else { throw InvalidValue("is not an octal mode such as 0666 or 0660") }
                    c.socket.mode = mode
                },
                Key(name: "PreciseGroup") { (c, v) throws(InvalidValue) in
                    guard v.utf8.count <= 32,
                        v.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "_-.".contains($0)) })
                    else { throw InvalidValue("is not a group name") }
                    c.socket.preciseGroup = v
                },
                Key(name: "PublicPrecision") { (c, v) throws(InvalidValue) in
                    guard v.utf8.count == 1, let digits = Int(v), (0...4).contains(digits) else {
                        throw InvalidValue(
                            "is not an integer from 0 to 4 (decimals of latitude/longitude public readers get)")
                    }
                    c.socket.publicPrecision = digits
                },
                Key(name: "MaxClients") { (c, v) throws(InvalidValue) in
                    c.socket.maxClients = try count(v, in: 1...65_536)
                },
                Key(name: "IdleTimeout") { (c, v) throws(InvalidValue) in
                    c.socket.idleTimeout = try timeSpan(v, atLeast: .seconds(1))
                },
                Key(name: "SendTimeout") { (c, v) throws(InvalidValue) in
                    c.socket.sendTimeout = try timeSpan(v, atLeast: .seconds(1))
                },
                Key(name: "LookupsPerMinute") { (c, v) throws(InvalidValue) in
                    c.socket.lookupsPerMinute = try count(v, in: 0...10_000)
                },
            ]),
        Section(
            name: "Places",
            keys: [
                Key(name: "OnlineGeocoding") { (c, v) throws(InvalidValue) in
                    c.places.onlineGeocoding = try boolean(v)
                },
                Key(name: "GeocodingURL") { (c, v) throws(InvalidValue) in c.places.geocodingURL = try parseURL(v) },
                Key(name: "Cities") { (c, v) throws(InvalidValue) in
                    guard v.isEmpty || v.hasPrefix("/") else { throw InvalidValue("is not an absolute path") }
                    c.places.cities = v
                },
            ]),
        cacheSection,
    ]

    /// Key names in `[Weather]` that would hold an API key itself: refused whatever their value,
    /// which no message repeats (see ``refusedSecretKey(_:)``).
    static let secretKeyNames: Set<String> = ["apikey", "api_key", "appid", "key", "token"]
}

extension AuthorizationStatus {
    /// The configuration names in the order the documentation lists them.
    fileprivate static let configOrder: [AuthorizationStatus] = [
        .authorizedAlways, .authorizedWhenInUse, .denied, .notDetermined,
    ]
}

// MARK: - Value parsers

extension Configuration {
    /// The longest time span any key takes: 30 days.
    static let maximumSpan = Duration.seconds(30 * 86_400)

    private static func timeSpan(_ v: String, atLeast minimum: Duration) throws(InvalidValue) -> Duration {
        guard let span = TimeSpan.parse(v) else {
            throw InvalidValue("is not a time span (examples: 30s, 5min, 1h 30min)")
        }
        if span < minimum {
            throw InvalidValue("is shorter than \(TimeSpan.format(minimum)) (examples: 30s, 5min, 1h 30min)")
        }
        // Far beyond any use, and far from what a clock's sleep can represent.
        if span > maximumSpan {
            throw InvalidValue("is longer than 30 days, the longest span any key takes")
        }
        return span
    }

    private static func count(_ v: String, in range: ClosedRange<Int>) throws(InvalidValue) -> Int {
        guard v.utf8.count <= 6, v.allSatisfy(\.isASCIIDigit), let n = Int(v), range.contains(n) else {
            throw InvalidValue("is not a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return n
    }

    private static func distance(_ v: String) throws(InvalidValue) -> Double {
        guard let metres = Distance.parse(v) else {
            throw InvalidValue("is not a distance (examples: 500m, 2km, 1.5km)")
        }
        return metres
    }

    /// `host:port`, `host` (port `defaultPort`), `[v6]:port` or `[v6]`; the host comes back
    /// without brackets, ready for getaddrinfo.
    static func parseHostPort(_ v: String, defaultPort: Int) throws(InvalidValue) -> (host: String, port: Int) {
        let examples = "(examples: 127.0.0.1:2947, gpsd.lan, [::1]:2947)"
        var host: Substring
        var portText: Substring?
        if v.hasPrefix("[") {
            guard let close = v.firstIndex(of: "]") else { throw InvalidValue("has no closing ] \(examples)") }
            host = v[v.index(after: v.startIndex)..<close]
            let rest = v[v.index(after: close)...]
            if !rest.isEmpty {
                guard rest.first == ":" else { throw InvalidValue("is not host:port \(examples)") }
                portText = rest.dropFirst()
            }
        } else {
            let colons = v.count(where: { $0 == ":" })
            if colons > 1 { throw InvalidValue("looks like an IPv6 address: write it in brackets, as [::1]:2947") }
            if let colon = v.firstIndex(of: ":") {
                host = v[..<colon]
                portText = v[v.index(after: colon)...]
            } else {
                host = Substring(v)
            }
        }
        guard !host.isEmpty, !host.contains(where: { $0.isWhitespace || $0 == "/" || $0 == "[" || $0 == "]" }) else {
            throw InvalidValue("is not host:port \(examples)")
        }
        var port = defaultPort
        if let portText {
            guard !portText.isEmpty, portText.count <= 5, portText.allSatisfy(\.isASCIIDigit), let p = Int(portText)
            else {
                throw InvalidValue("has no valid port number \(examples)")
            }
            guard (1...65535).contains(p) else { throw InvalidValue("has port \(p), outside 1-65535") }
            port = p
        }
        return (String(host), port)
    }

    /// `LAT,LON` in decimal degrees, a place name, or empty for none.
    static func parseFallback(_ v: String) throws(InvalidValue) -> FallbackPlace? {
        if v.isEmpty { return nil }
        // Text with a comma made only of what coordinates are made of must be coordinates:
        // "48.8," is a typo, not a town (a bare "75001" may be a postcode).
        let looksNumeric =
            v.contains(",")
            && v.allSatisfy { $0.isASCIIDigit || $0 == "." || $0 == "," || $0 == "-" || $0 == "+" || $0.isWhitespace }
        let parts = v.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingWhitespace() }
        let numbers = parts.count == 2 ? parts.compactMap(decimalDegrees) : []
        guard numbers.count == 2 else {
            if looksNumeric {
                throw InvalidValue("is neither LAT,LON in decimal degrees (example: 48.8566,2.3522) nor a place name")
            }
            return .name(v)
        }
        let (latitude, longitude) = (numbers[0], numbers[1])
        guard (-90...90).contains(latitude) else { throw InvalidValue("has latitude \(parts[0]), outside -90...90") }
        guard (-180...180).contains(longitude) else {
            throw InvalidValue("has longitude \(parts[1]), outside -180...180")
        }
        return .coordinate(Coordinate(latitude: latitude, longitude: longitude))
    }

    /// `[+-]digits[.digits]` (no exponent, no `nan`/`inf`) as a finite Double.
    static func decimalDegrees(_ s: Substring) -> Double? {
        var body = s
        if body.first == "-" || body.first == "+" { body = body.dropFirst() }
        let pieces = body.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard !body.isEmpty, body != ".", pieces.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }) else { return nil }
        guard let value = Double(s.first == "+" ? String(s.dropFirst()) : String(s)), value.isFinite else { return nil }
        return value == 0 ? 0 : value
    }

    /// An `http://` or `https://` URL with a host, without trailing slashes.
    static func parseURL(_ v: String) throws(InvalidValue) -> String {
        let lower = v.lowercased()
        guard let scheme = ["http://", "https://"].first(where: { lower.hasPrefix($0) }) else {
            throw InvalidValue("does not start with http:// or https://")
        }
        var url = Substring(v)
        while url.hasSuffix("/") { url = url.dropLast() }
        guard url.count > scheme.count, !url.contains(where: \.isWhitespace) else {
            throw InvalidValue("is not an http:// or https:// URL with a host")
        }
        return String(url)
    }

    /// `Contact=`: an e-mail address or an http(s) URL, at most 128 characters of printable
    /// ASCII without spaces, quotes, backslashes or parentheses (it goes into a User-Agent
    /// comment); empty for none.
    static func parseContact(_ v: String) throws(InvalidValue) -> String? {
        if v.isEmpty { return nil }
        guard v.utf8.count <= 128,
            v.utf8.allSatisfy({ (0x21...0x7E).contains($0) && !"()\\\"".utf8.contains($0) })
        else {
            throw InvalidValue(
                "is not an e-mail address or URL (at most 128 printable ASCII characters, no spaces, quotes or parentheses)"
            )
        }
        let lower = v.lowercased()
        guard v.contains("@") || lower.hasPrefix("https://") || lower.hasPrefix("http://") else {
            throw InvalidValue("is neither an e-mail address nor an http(s) URL where the provider can reach you")
        }
        return v
    }

    /// A non-empty absolute path that fits `sockaddr_un.sun_path` (108 bytes with the NUL).
    static func parseSocketPath(_ v: String) throws(InvalidValue) -> String {
        guard v.hasPrefix("/") else { throw InvalidValue("is not an absolute path") }
        guard !v.utf8.contains(0) else { throw InvalidValue("contains a NUL byte") }
        guard v.utf8.count <= 107 else {
            throw InvalidValue("is \(v.utf8.count) bytes long; a Unix socket path has at most 107")
        }
        return v
    }
}

// MARK: - The line parser

extension Configuration {
    /// Applies logical lines one by one; remembers the current section.
    private struct Parser {
        enum Current {
            case none
            case known(Section)
            case ignored  // [X-…]
        }

        let file: String
        var configuration = Configuration()
        var current = Current.none
        /// The line of each `Section.Key` assigned (the last assignment), for errors that
        /// involve two keys.
        var lines: [String: Int] = [:]

        init(file: String) { self.file = file }

        mutating func consume(_ text: String, line: Int) throws(ConfigurationError) {
            func fail(_ message: String) -> ConfigurationError {
                ConfigurationError(file: file, line: line, message: message)
            }
            let content = Substring(text).trimmingWhitespace()
            if content.isEmpty { return }
            if content.first == "[" {
                guard content.count >= 2, content.last == "]" else {
                    throw fail("\"\(visible(content))\" is not a section header (expected [Section])")
                }
                let name = String(content.dropFirst().dropLast())
                if let section = Configuration.sections.first(where: { $0.name == name }) {
                    current = .known(section)
                } else if name.hasPrefix("X-") {
                    current = .ignored
                } else {
                    let known = Configuration.sections.map { "[\($0.name)]" }.joined(separator: ", ")
                    throw fail("unknown section [\(visible(name))] (known sections: \(known))")
                }
                return
            }
            guard let equals = content.firstIndex(of: "=") else {
                if Configuration.looksLikeSecret(content) {
                    throw fail(
                        "a line that looks like an API key: keys do not belong in this file (use APIKeyFile= in [Weather])"
                    )
                }
                throw fail("\"\(visible(content))\" is not a Key=Value assignment or a [Section] header")
            }
            let key = String(content[..<equals].trimmingWhitespace())
            let value = unquote(content[content.index(after: equals)...].trimmingWhitespace())
            guard !key.isEmpty else { throw fail("\"\(visible(content))\" has no key before the =") }
            let section: Section
            switch current {
            case .none: throw fail("\(visible(key))= appears before any [Section] header")
            case .ignored: return
            case .known(let s): section = s
            }
            if key.hasPrefix("X-") { return }
            if section.name == "Weather", Configuration.secretKeyNames.contains(key.lowercased()) {
                throw fail(Configuration.refusedSecretKey(key))
            }
            guard let entry = section.keys.first(where: { $0.name == key }) else {
                let known = section.keys.map(\.name).joined(separator: ", ")
                throw fail("unknown key \(visible(key))= in [\(section.name)] (known keys: \(known))")
            }
            do {
                try entry.apply(&configuration, value)
            } catch {
                throw fail(
                    error.quotesValue ? "\(key)=\"\(visible(value))\" \(error.reason)" : "\(key)= \(error.reason)")
            }
            lines["\(section.name).\(key)"] = line
        }

        /// Rules between keys, checked after the whole file: `MaxAge=` may not be shorter than
        /// `MinInterval=` (the throttle could not keep both). Reported at the line of the later of the two.
        func validate() throws(ConfigurationError) {
            if configuration.weather.provider == .metNorway, configuration.weather.contact == nil {
                throw ConfigurationError(
                    file: file, line: lines["Weather.Provider"] ?? 0,
                    message:
                        "Provider=metno needs [Weather] Contact= (an e-mail address or URL): MET Norway's terms require an identifying User-Agent with a contact and ban generic ones"
                )
            }
            let throttle = configuration.throttle
            guard throttle.maxAge < throttle.minInterval else { return }
            let maxAgeLine = lines["Throttle.MaxAge"] ?? 0
            let minIntervalLine = lines["Throttle.MinInterval"] ?? 0
            let maxAge = TimeSpan.format(throttle.maxAge)
            let minInterval = TimeSpan.format(throttle.minInterval)
            let message =
                maxAgeLine >= minIntervalLine
                ? "MaxAge=\(maxAge) is shorter than MinInterval=\(minInterval): no two fetches may start closer than MinInterval, so MaxAge must be at least that"
                : "MinInterval=\(minInterval) is longer than MaxAge=\(maxAge): no two fetches may start closer than MinInterval, so MaxAge must be at least that"
            throw ConfigurationError(file: file, line: max(maxAgeLine, minIntervalLine), message: message)
        }

        /// Text from the file as it may appear in an error message: control characters as
        /// `\u{…}` escapes (a NUL or an escape sequence must not reach a terminal or the
        /// journal), at most 200 characters.
        private func visible<S: StringProtocol>(_ text: S) -> String {
            var out = ""
            for scalar in text.unicodeScalars {
                if out.unicodeScalars.count >= 200 {
                    out += "…"
                    break
                }
                let v = scalar.value
                if v < 0x20 || (0x7F...0x9F).contains(v) || v == 0x2028 || v == 0x2029 {
                    out += "\\u{" + String(v, radix: 16) + "}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
            return out
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

// MARK: - Small helpers

extension Character {
    fileprivate var isASCIIDigit: Bool {
        guard let ascii = asciiValue else { return false }
        return ascii >= 0x30 && ascii <= 0x39
    }
}

extension Substring {
    fileprivate func trimmingWhitespace() -> Substring {
        trimmingTrailingWhitespace().drop(while: \.isWhitespace)
    }

    fileprivate func trimmingTrailingWhitespace() -> Substring {
        var s = self
        while let last = s.last, last.isWhitespace { s = s.dropLast() }
        return s
    }
}
