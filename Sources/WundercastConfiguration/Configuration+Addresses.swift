/// Values that name a place on the network: `GPSD=` (host:port) and the base URLs
/// (`[Weather] URL=`, `[Places] GeocodingURL=`). Refused before any connection is tried, so a
/// typo is a `file:line` error at start and under `--check-config`, not a runtime failure.
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
        let lower = v.lowercased()
        guard let scheme = ["http://", "https://"].first(where: { lower.hasPrefix($0) }) else {
            throw InvalidValue("does not start with http:// or https://")
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
        var authority = rest[..<authorityEnd]
        let path = rest[authorityEnd...]
        guard !authority.isEmpty else { throw InvalidValue("is not an http:// or https:// URL with a host") }
        if path.contains(where: { $0 == "?" || $0 == "#" }) {
            // Not quoted: a query is where keys and tokens go (`?appid=…`).
            throw InvalidValue(
                "has a query or fragment (?… or #…): give the base URL only, paths are added to it",
                quotesValue: false)
        }
        if let bad = path.first(where: { "\"<>\\^`{|}".contains($0) }) {
            throw InvalidValue("contains \(bad), which a URL must percent-encode")
        }
        if let at = authority.lastIndex(of: "@") {
            if authority[..<at].contains(":") {
                throw InvalidValue(
                    "holds a user name and password: credentials do not belong in this file (other users may read it)",
                    quotesValue: false)
            }
            throw InvalidValue(
                "holds a user name (user@host): wundercast sends no credentials in URLs", quotesValue: false)
        }
        // An IPv6 zone is written %25zone in a URL (RFC 6874).
        if authority.hasPrefix("["), let percent = authority.firstIndex(of: "%") {
            guard authority[percent...].hasPrefix("%25") else {
                throw InvalidValue("has an IPv6 zone not written as %25zone (example: http://[fe80::1%25eth0]:8080)")
            }
            authority = authority[..<percent] + "%" + authority[authority.index(percent, offsetBy: 3)...]
        }
        _ = try hostAndPort(
            authority, examples: "(example: https://api.example.org:8443/v1)", what: "a URL with host[:port]")
        return String(url)
    }

    /// Splits and checks `host[:port]` or `[v6][:port]`; the port is `nil` when absent.
    private static func hostAndPort(
        _ v: Substring, examples: String, what: String
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
            if colons > 1 { throw InvalidValue("looks like an IPv6 address: write it in brackets, as [::1]:2947") }
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
    static func isIPv6(_ s: Substring) -> Bool {
        var address = s
        if let percent = address.firstIndex(of: "%") {
            let zone = address[address.index(after: percent)...]
            guard !zone.isEmpty, zone.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "._~-".contains($0)) })
            else { return false }
            address = address[..<percent]
        }
        var groups = 8
        if let lastColon = address.lastIndex(of: ":"), address[lastColon...].contains(".") {
            guard isIPv4(address[address.index(after: lastColon)...]) else { return false }
            groups = 6
            address = address[...lastColon]
            if !address.hasSuffix("::") { address = address.dropLast() }
        }
        func valid(_ part: Substring) -> [Substring]? {
            if part.isEmpty { return [] }
            let pieces = part.split(separator: ":", omittingEmptySubsequences: false)
            let ok = pieces.allSatisfy { (1...4).contains($0.count) && $0.allSatisfy(\.isHexDigit) }
            return ok ? pieces : nil
        }
        let halves = address.split(separator: "::", omittingEmptySubsequences: false)
        switch halves.count {
        case 1: return valid(halves[0])?.count == groups
        case 2:
            guard let left = valid(halves[0]), let right = valid(halves[1]) else { return false }
            return left.count + right.count < groups
        default: return false
        }
    }
}
