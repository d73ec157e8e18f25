/// Values that name a place on the network: `GPSD=` (host:port), the base URLs
/// (`[Weather] URL=`, `[Places] GeocodingURL=`) and the MQTT broker (`[MQTT] Broker=`). Refused
/// before any connection is tried, so a typo is a `file:line` error at start and under
/// `--check-config`, not a runtime failure.
extension Configuration {
    /// `host:port`, `host` (port `defaultPort`), `[v6]:port` or `[v6]`; the host comes back
    /// without brackets, ready for getaddrinfo. The host is a host name (labels of ASCII
    /// letters, digits, `-`, `_`; at most 253 characters), a dotted IPv4 address or a bracketed
    /// IPv6 address (with an optional `%zone`); the port 1–65535.
    static func parseHostPort(_ v: String, defaultPort: Int) throws(InvalidValue) -> (host: String, port: Int) {
        let (host, port) = try hostAndPort(
            Substring(v), examples: "(examples: 127.0.0.1:2947, gpsd.lan, [::1]:2947)", what: "host:port")
        return (String(host), port ?? defaultPort)
    }

    /// An `http://` or `https://` URL with a valid host (as ``parseHostPort(_:defaultPort:)``)
    /// and an optional port and path; without trailing slashes. Refused: other schemes, spaces,
    /// control and non-ASCII characters, a query or fragment (paths are appended to this base),
    /// and user information (`user:password@`: a password is never quoted back).
    static func parseURL(_ v: String) throws(InvalidValue) -> String {
        let (_, url, authority, path) = try urlParts(v, schemes: ["http://", "https://"])
        if path.contains(where: { $0 == "?" || $0 == "#" }) {
            // Not quoted: a query is where keys and tokens go (`?appid=…`).
            throw InvalidValue(
                "has a query or fragment (?… or #…): give the base URL only, paths are added to it",
                quotesValue: false)
        }
        if let bad = path.first(where: { "\"<>\\^`{|}".contains($0) }) {
            throw InvalidValue("contains \(bad), which a URL must percent-encode")
        }
        _ = try urlHostAndPort(
            authority, examples: "(example: https://api.example.org:8443/v1)", what: "a URL with host[:port]",
            zoneExample: "http://[fe80::1%25eth0]:8080")
        return String(url)
    }

    /// `Broker=`: `mqtt://host[:port]` (port 1883) or `mqtts://host[:port]` (TLS, port 8883),
    /// the scheme in any case, one trailing `/` allowed; the host as ``parseHostPort(_:defaultPort:)``
    /// (an IPv6 address in brackets, its zone written `%25zone`). Refused: other schemes, spaces,
    /// control and non-ASCII characters, a path, and user information or a query (never quoted
    /// back: that is where passwords go; `Username=` and `PasswordFile=` carry credentials).
    static func parseBroker(_ v: String) throws(InvalidValue) -> MQTTBroker {
        let schemes = MQTTBroker.Scheme.allCases.map { "\($0.rawValue)://" }
        let (scheme, _, authority, path) = try urlParts(v, schemes: schemes)
        if path.contains(where: { $0 == "?" || $0 == "#" }) {
            throw InvalidValue(
                "has a query or fragment (?… or #…): a broker is mqtt://host[:port] or mqtts://host[:port] only",
                quotesValue: false)
        }
        if !path.isEmpty {
            throw InvalidValue(
                "has a path: a broker is mqtt://host[:port] or mqtts://host[:port] only (topics are set with TopicPrefix=)"
            )
        }
        let (host, port) = try urlHostAndPort(
            authority, examples: "(examples: mqtt://localhost, mqtts://broker.example.org:8883, mqtt://[::1]:1883)",
            what: "mqtt://host[:port] or mqtts://host[:port]", zoneExample: "mqtt://[fe80::1%25eth0]:1883",
            bracketed: "mqtt://[::1]:1883")
        let transport = MQTTBroker.Scheme(rawValue: String(scheme.dropLast(3)))!
        return MQTTBroker(scheme: transport, host: String(host), port: port ?? transport.defaultPort)
    }

    /// The checks every URL-like value shares: one of `schemes` (lower case, matched in any
    /// case), no space, control or non-ASCII character, a host part. Returns the scheme matched,
    /// the value without trailing slashes, its authority (`host[:port]`, maybe with user
    /// information) and the rest (path, query and fragment; empty when none).
    private static func urlParts(
        _ v: String, schemes: [String]
    ) throws(InvalidValue) -> (scheme: String, url: Substring, authority: Substring, path: Substring) {
        let lower = v.lowercased()
        guard let scheme = schemes.first(where: { lower.hasPrefix($0) }) else {
            throw InvalidValue("does not start with \(schemes.joined(separator: " or "))")
        }
        if v.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }) {
            throw InvalidValue("contains a space or control character")
        }
        if v.unicodeScalars.contains(where: { $0.value > 0x7F }) {
            throw InvalidValue(
                "contains characters outside ASCII (write an international host name in its xn-- form and percent-encode the path)"
            )
        }
        var url = Substring(v)
        while url.hasSuffix("/") { url = url.dropLast() }
        let rest = url.dropFirst(scheme.count)
        let authorityEnd = rest.firstIndex(where: { "/?#".contains($0) }) ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        guard !authority.isEmpty else {
            throw InvalidValue("is not an \(schemes.joined(separator: " or ")) URL with a host")
        }
        return (scheme, url, authority, rest[authorityEnd...])
    }

    /// The host and port of a URL's authority: user information refused (never quoted), an
    /// IPv6 zone written `%25zone` (RFC 6874) read as `%zone`, then
    /// ``hostAndPort(_:examples:what:bracketed:)``.
    private static func urlHostAndPort(
        _ authority: Substring, examples: String, what: String, zoneExample: String,
        bracketed: String = "[::1]:2947"
    ) throws(InvalidValue) -> (Substring, Int?) {
        var authority = authority
        if let at = authority.lastIndex(of: "@") {
            if authority[..<at].contains(":") {
                throw InvalidValue(
                    "holds a user name and password: credentials do not belong in this file (other users may read it)",
                    quotesValue: false)
            }
            throw InvalidValue(
                "holds a user name (user@host): wundercast sends no credentials in URLs", quotesValue: false)
        }
        if authority.hasPrefix("["), let percent = authority.firstIndex(of: "%") {
            guard authority[percent...].hasPrefix("%25") else {
                throw InvalidValue("has an IPv6 zone not written as %25zone (example: \(zoneExample))")
            }
            authority = authority[..<percent] + "%" + authority[authority.index(percent, offsetBy: 3)...]
        }
        return try hostAndPort(authority, examples: examples, what: what, bracketed: bracketed)
    }

    /// Splits and checks `host[:port]` or `[v6][:port]`; the port is `nil` when absent.
    /// `bracketed` shows how an IPv6 address is written when one comes without brackets.
    private static func hostAndPort(
        _ v: Substring, examples: String, what: String, bracketed: String = "[::1]:2947"
    ) throws(InvalidValue) -> (
        Substring, Int?
    ) {
        var host: Substring
        var portText: Substring?
        if v.hasPrefix("[") {
            guard let close = v.firstIndex(of: "]") else { throw InvalidValue("has no closing ] \(examples)") }
            host = v[v.index(after: v.startIndex)..<close]
            let rest = v[v.index(after: close)...]
            if !rest.isEmpty {
                guard rest.first == ":" else { throw InvalidValue("is not \(what) \(examples)") }
                portText = rest.dropFirst()
            }
            guard isIPv6(host) else { throw InvalidValue("does not hold a valid IPv6 address in [ ] \(examples)") }
        } else {
            let colons = v.count(where: { $0 == ":" })
            if colons > 1 { throw InvalidValue("looks like an IPv6 address: write it in brackets, as \(bracketed)") }
            if let colon = v.firstIndex(of: ":") {
                host = v[..<colon]
                portText = v[v.index(after: colon)...]
            } else {
                host = v
            }
            guard !host.isEmpty, !host.contains(where: { $0.isWhitespace || $0 == "/" || $0 == "[" || $0 == "]" })
            else { throw InvalidValue("is not \(what) \(examples)") }
            if host.allSatisfy({ $0.isASCIIDigit || $0 == "." }) {
                guard isIPv4(host) else { throw InvalidValue("has \(host), which is not an IPv4 address \(examples)") }
            } else if !isHostName(host) {
                throw InvalidValue("is not a host name, IPv4 address or [IPv6] address \(examples)")
            }
        }
        guard let portText else { return (host, nil) }
        guard !portText.isEmpty, portText.count <= 5, portText.allSatisfy(\.isASCIIDigit), let port = Int(portText)
        else { throw InvalidValue("has no valid port number \(examples)") }
        guard (1...65535).contains(port) else { throw InvalidValue("has port \(port), outside 1-65535") }
        return (host, port)
    }

    /// A DNS name: dot-separated labels of 1–63 ASCII letters, digits, `-` or `_` (not starting
    /// or ending with `-`), at most 253 characters, an optional final dot.
    static func isHostName(_ s: Substring) -> Bool {
        var name = s
        if name.hasSuffix(".") { name = name.dropLast() }
        guard !name.isEmpty, name.utf8.count <= 253 else { return false }
        return name.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { label in
            (1...63).contains(label.utf8.count) && label.first != "-" && label.last != "-"
                && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
        }
    }

    /// Four decimal numbers 0–255 of 1–3 digits, separated by dots.
    static func isIPv4(_ s: Substring) -> Bool {
        let parts = s.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4
            && parts.allSatisfy { p in
                (1...3).contains(p.count) && p.allSatisfy(\.isASCIIDigit) && (Int(p) ?? 256) <= 255
            }
    }

    /// RFC 4291 text form: eight groups of 1–4 hexadecimal digits, one `::` for a run of
    /// zeros, an optional dotted IPv4 tail (two groups), an optional `%zone` after it.
    static func isIPv6(_ s: Substring) -> Bool { ipv6Groups(s) != nil }

    /// The eight 16-bit groups of an IPv6 address in the text form of ``isIPv6(_:)`` (the zone
    /// left out), or `nil` when `s` is not one.
    static func ipv6Groups(_ s: Substring) -> [UInt16]? {
        var address = s
        if let percent = address.firstIndex(of: "%") {
            let zone = address[address.index(after: percent)...]
            guard !zone.isEmpty, zone.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "._~-".contains($0)) })
            else { return nil }
            address = address[..<percent]
        }
        var groups = 8
        var tail: [UInt16] = []
        if let lastColon = address.lastIndex(of: ":"), address[lastColon...].contains(".") {
            let dotted = address[address.index(after: lastColon)...]
            guard isIPv4(dotted) else { return nil }
            let octets = dotted.split(separator: ".").map { UInt16($0) ?? 0 }
            tail = [octets[0] << 8 | octets[1], octets[2] << 8 | octets[3]]
            groups = 6
            address = address[...lastColon]
            if !address.hasSuffix("::") { address = address.dropLast() }
        }
        func valid(_ part: Substring) -> [UInt16]? {
            if part.isEmpty { return [] }
            let pieces = part.split(separator: ":", omittingEmptySubsequences: false)
            let ok = pieces.allSatisfy { (1...4).contains($0.count) && $0.allSatisfy(\.isHexDigit) }
            return ok ? pieces.map { UInt16($0, radix: 16) ?? 0 } : nil
        }
        let halves = address.split(separator: "::", omittingEmptySubsequences: false)
        switch halves.count {
        case 1:
            guard let all = valid(halves[0]), all.count == groups else { return nil }
            return all + tail
        case 2:
            guard let left = valid(halves[0]), let right = valid(halves[1]), left.count + right.count < groups else {
                return nil
            }
            return left + Array(repeating: 0, count: groups - left.count - right.count) + right + tail
        default: return nil
        }
    }

    /// Whether `host` (as the parsers return it: no brackets) names this machine's loopback
    /// interface, so that nothing sent to it leaves the machine: `localhost` (any case, an
    /// optional final dot), an IPv4 address in 127.0.0.0/8, or the IPv6 `::1` (in any spelling,
    /// with any zone) or an IPv4-mapped `::ffff:127.x.x.x`.
    static func isLoopback(_ host: Substring) -> Bool {
        // Addresses only, in their canonical form: a name (`localhost`, `localhost.`) or an
        // address the resolver does not read as one (`127.0.0.08`) may be answered by DNS.
        if isIPv4(host) {
            let parts = host.split(separator: ".")
            return parts.first == "127" && parts.allSatisfy { $0 == "0" || !$0.hasPrefix("0") }
        }
        guard let groups = ipv6Groups(host) else { return false }
        let mapped = groups.prefix(5).allSatisfy { $0 == 0 } && groups[5] == 0xFFFF && groups[6] >> 8 == 127
        return groups == [0, 0, 0, 0, 0, 0, 0, 1] || mapped
    }
}
