import Testing

@testable import WundercastConfiguration

/// URLs, host:port pairs, paths and coordinates: good values taken, bad ones refused with a
/// `Key="value" reason` message at their line.
@Suite struct ConfigurationValidationTests {
    private func refusal(_ text: String) -> String? {
        do {
            _ = try Configuration.parse(text, file: "v.conf")
            return nil
        } catch {
            #expect(error.file == "v.conf")
            return error.message
        }
    }

    @Test(arguments: [
        ("http://[::1]:8080", "http://[::1]:8080"),
        ("https://[fe80::1%25eth0]/v1", "https://[fe80::1%25eth0]/v1"),
        ("http://127.0.0.1:1/", "http://127.0.0.1:1"),
        ("https://api.example.org:65535/v1/path", "https://api.example.org:65535/v1/path"),
        ("http://under_score.lan", "http://under_score.lan"),
        ("https://example.org./x%20y", "https://example.org./x%20y"),
        ("http://[::ffff:192.0.2.1]", "http://[::ffff:192.0.2.1]"),
        ("http://[1:2:3:4:5:6:7:8]", "http://[1:2:3:4:5:6:7:8]"),
    ])
    func goodURLs(_ value: String, _ expected: String) throws {
        #expect(try Configuration.parse("[Weather]\nURL=\(value)").weather.url == expected)
        #expect(try Configuration.parse("[Places]\nGeocodingURL=\(value)").places.geocodingURL == expected)
    }

    static let badURLs: [(String, String)] = [
        ("http://[::1", "has no closing ] (example: https://api.example.org:8443/v1)"),
        ("http://[::1]x", "is not a URL with host[:port] (example: https://api.example.org:8443/v1)"),
        ("http://[::g]", "does not hold a valid IPv6 address in [ ] (example: https://api.example.org:8443/v1)"),
        (
            "http://[1:2:3:4:5:6:7:8:9]",
            "does not hold a valid IPv6 address in [ ] (example: https://api.example.org:8443/v1)"
        ),
        ("http://[1::2::3]", "does not hold a valid IPv6 address in [ ] (example: https://api.example.org:8443/v1)"),
        ("http://[fe80::1%eth0]", "has an IPv6 zone not written as %25zone (example: http://[fe80::1%25eth0]:8080)"),
        ("http://example.org:99999", "has port 99999, outside 1-65535"),
        ("http://example.org:0", "has port 0, outside 1-65535"),
        ("http://example.org:", "has no valid port number (example: https://api.example.org:8443/v1)"),
        ("http://example.org:80a", "has no valid port number (example: https://api.example.org:8443/v1)"),
        ("http://exa mple.org", "contains a space or control character"),
        ("http://example.org/\u{1B}[31m", "contains a space or control character"),
        (
            "http://exämple.org",
            "contains characters outside ASCII (write an international host name in its xn-- form and percent-encode the path)"
        ),
        (
            "http://-bad.org",
            "is not a host name, IPv4 address or [IPv6] address (example: https://api.example.org:8443/v1)"
        ),
        (
            "http://a..b",
            "is not a host name, IPv4 address or [IPv6] address (example: https://api.example.org:8443/v1)"
        ),
        ("http://999.1.1.1", "has 999.1.1.1, which is not an IPv4 address (example: https://api.example.org:8443/v1)"),
        ("http://::1", "looks like an IPv6 address: write it in brackets, as [::1]:2947"),
        ("http://example.org/a|b", "contains |, which a URL must percent-encode"),
        ("ftp://example.org", "does not start with http:// or https://"),
        ("https://", "is not an http:// or https:// URL with a host"),
    ]

    @Test(arguments: badURLs)
    func refusesURL(_ value: String, _ reason: String) {
        let shown = value.replacingOccurrences(of: "\u{1B}", with: "\\u{1b}")
        #expect(refusal("[Weather]\nURL=\(value)") == "URL=\"\(shown)\" \(reason)")
        #expect(refusal("[Places]\nGeocodingURL=\(value)") == "GeocodingURL=\"\(shown)\" \(reason)")
    }

    /// A query (`?appid=…`) and a user name are where tokens go: the message says what is wrong
    /// without quoting them.
    @Test(arguments: [
        ("http://T0KEN@example.org", "holds a user name (user@host): wundercast sends no credentials in URLs"),
        (
            "http://example.org/v1?appid=T0KEN",
            "has a query or fragment (?… or #…): give the base URL only, paths are added to it"
        ),
    ])
    func aTokenInAURLIsNeverRepeated(_ value: String, _ reason: String) {
        let m = refusal("[Weather]\nURL=\(value)")
        #expect(m == "URL= \(reason)")
        #expect(m?.contains("T0KEN") == false)
    }

    /// A password is a secret: the message says what is wrong without quoting it.
    @Test func aPasswordInAURLIsNeverRepeated() {
        let m = refusal("[Weather]\nURL=https://me:hunter2@example.org")
        #expect(
            m == "URL= holds a user name and password: credentials do not belong in this file (other users may read it)"
        )
        #expect(m?.contains("hunter2") == false)
    }

    @Test(arguments: [
        ("gpsd.lan", "gpsd.lan", 2947), ("[::1]", "::1", 2947), ("10.0.0.2:1", "10.0.0.2", 1),
        ("[fe80::1%eth0]:2948", "fe80::1%eth0", 2948), ("host-1.example:65535", "host-1.example", 65535),
        ("[::]:2947", "::", 2947),
    ])
    func goodHostPorts(_ value: String, _ host: String, _ port: Int) throws {
        let location = try Configuration.parse("[Location]\nGPSD=\(value)").location
        #expect(location.gpsdHost == host)
        #expect(location.gpsdPort == port)
    }

    static let examples = "(examples: 127.0.0.1:2947, gpsd.lan, [::1]:2947)"
    static let badHostPorts: [(String, String)] = [
        ("😀", "is not a host name, IPv4 address or [IPv6] address \(examples)"),
        ("😀:2947", "is not a host name, IPv4 address or [IPv6] address \(examples)"),
        ("h:99999", "has port 99999, outside 1-65535"),
        (":99999", "is not host:port \(examples)"),
        ("h:123456", "has no valid port number \(examples)"),
        ("256.0.0.1:2947", "has 256.0.0.1, which is not an IPv4 address \(examples)"),
        ("1.2.3:2947", "has 1.2.3, which is not an IPv4 address \(examples)"),
        ("[::1", "has no closing ] \(examples)"),
        ("[gpsd.lan]:2947", "does not hold a valid IPv6 address in [ ] \(examples)"),
        ("[fe80::1%]:2947", "does not hold a valid IPv6 address in [ ] \(examples)"),
        ("under score", "is not host:port \(examples)"),
        ("host_.-x", "is not a host name, IPv4 address or [IPv6] address \(examples)"),
        (String(repeating: "a", count: 64) + ".lan", "is not a host name, IPv4 address or [IPv6] address \(examples)"),
    ]

    @Test(arguments: badHostPorts)
    func refusesHostPort(_ value: String, _ reason: String) {
        #expect(refusal("[Location]\nGPSD=\(value)") == "GPSD=\"\(value)\" \(reason)")
    }

    static let badPaths: [(String, String)] = [
        ("[Socket]\nPath=/", "Path=\"/\" is the root directory, not a file"),
        ("[Socket]\nPath=/run/wundercast/", "Path=\"/run/wundercast/\" ends in /: it names a directory, not a file"),
        ("[Socket]\nPath=/run/a\u{7}b", "Path=\"/run/a\\u{7}b\" contains a control character"),
        ("[Places]\nCities=share/cities.bin", "Cities=\"share/cities.bin\" is not an absolute path"),
        ("[Places]\nCities=/", "Cities=\"/\" is the root directory, not a file"),
        ("[Places]\nCities=/usr/share/", "Cities=\"/usr/share/\" ends in /: it names a directory, not a file"),
        ("[Weather]\nAPIKeyFile=owm.key", "APIKeyFile=\"owm.key\" is not an absolute path"),
        ("[Weather]\nAPIKeyFile=/etc/", "APIKeyFile=\"/etc/\" ends in /: it names a directory, not a file"),
    ]

    @Test(arguments: badPaths)
    func refusesPath(_ text: String, _ expected: String) {
        #expect(refusal(text) == expected)
    }

    @Test func goodPaths() throws {
        let c = try Configuration.parse(
            "[Socket]\nPath=/" + String(repeating: "s", count: 106)
                + "\n[Places]\nCities=\n[Weather]\nAPIKeyFile=/etc/wundercast/owm.key")
        #expect(c.socket.path.utf8.count == 107)
        #expect(c.places.cities == "")
        #expect(c.weather.apiKeyFile == "/etc/wundercast/owm.key")
    }

    /// What reads as numbers is coordinates or an error, never a place name.
    @Test(arguments: [
        ("nan,nan", "latitude nan"), ("1e999,5", "latitude 1e999"), ("5, inf", "longitude inf"),
        ("-Infinity,0", "latitude -Infinity"), ("1e2,3", "latitude 1e2"), ("0x1p3,1", "latitude 0x1p3"),
        ("45,1E-999999", "longitude 1E-999999"),
    ])
    func numericFallbacksAreNeverNames(_ value: String, _ part: String) {
        #expect(
            refusal("[Location]\nFallback=\(value)")
                == "Fallback=\"\(value)\" has \(part), which is not a finite number of degrees in decimal notation (no nan, inf or exponent; example: 48.8566,2.3522)"
        )
    }

    @Test(arguments: ["Nantes", "Saint-Étienne, FR", "Tromsø", "1e Arrondissement"])
    func namesStayNames(_ value: String) throws {
        #expect(try Configuration.parse("[Location]\nFallback=\(value)").location.fallback == .name(value))
    }
}
