#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WundercastSupport
import WundercastModel
import WundercastProviders

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
                    c.weather.precision = try decimals(
                        v, in: 0...4, "decimals of latitude/longitude sent to the provider; 4 is about 11 m")
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
                Key(name: "Days") { (c, v) throws(InvalidValue) in
                    c.weather.days = try decimals(v, in: Forecast.dayRange, "local days of the forecast published")
                },
                Key(name: "Marine") { (c, v) throws(InvalidValue) in
                    guard let mode = MarineMode(rawValue: v) else {
                        throw InvalidValue(
                            "is not one of: \(MarineMode.allCases.map(\.rawValue).joined(separator: ", ")) (when the sea state is asked)"
                        )
                    }
                    c.weather.marine = mode
                },
                Key(name: "MarineURL") { (c, v) throws(InvalidValue) in
                    c.weather.marineURL = v.isEmpty ? nil : try parseURL(v)
                },
                Key(name: "APIKeyFile") { (c, v) throws(InvalidValue) in c.weather.apiKeyFile = try parseKeyFile(v) },
                Key(name: "Language") { (c, v) throws(InvalidValue) in
                    // Empty: back to none (readers name the condition in their own language).
                    guard !v.isEmpty else { return c.weather.language = nil }
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
                    c.socket.publicPrecision = try decimals(
                        v, in: 0...4, "decimals of latitude/longitude public readers get")
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
                    c.places.cities = v.isEmpty ? v : try parseFilePath(v)
                },
            ]),
        Section(name: "Journal", keys: [Key(name: "Precision", apply: Journal.parsePrecision)]),
        cacheSection,
        mqttSection,
        alertsSection,
    ]
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

    /// Decimals of a latitude/longitude: one digit in `range`, else refused as `is not an
    /// integer from 0 to 4 (what)`.
    static func decimals(_ v: String, in range: ClosedRange<Int>, _ what: String) throws(InvalidValue) -> Int {
        guard v.utf8.count == 1, let digits = Int(v), range.contains(digits) else {
            throw InvalidValue("is not an integer from \(range.lowerBound) to \(range.upperBound) (\(what))")
        }
        return digits
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

    /// `LAT,LON` in decimal degrees, a place name, or empty for none.
    static func parseFallback(_ v: String) throws(InvalidValue) -> FallbackPlace? {
        if v.isEmpty { return nil }
        // Text with a comma made only of what coordinates are made of must be coordinates:
        // "48.8," is a typo, not a town (a bare "75001" may be a postcode).
        let looksNumeric =
            v.contains(",")
            && v.allSatisfy { $0.isASCIIDigit || $0 == "." || $0 == "," || $0 == "-" || $0 == "+" || $0.isWhitespace }
        let parts = v.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingWhitespace() }
        let numbers = parts.count == 2 ? parts.compactMap(Coordinate.decimalDegrees) : []
        guard numbers.count == 2 else {
            // "nan,nan" or "1e999,5" reads as numbers, not as a name: refused, never a town.
            if parts.count == 2, parts.allSatisfy(readsAsNumber) {
                let (which, part) =
                    Coordinate.decimalDegrees(parts[0]) == nil ? ("latitude", parts[0]) : ("longitude", parts[1])
                throw InvalidValue(
                    "has \(which) \(part), which is not a finite number of degrees in decimal notation (no nan, inf or exponent; example: 48.8566,2.3522)"
                )
            }
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

    /// Whether `s` is a number to Swift's `Double(_:)` (`nan`, `inf`, `1e999`, `0x1p3`), or a
    /// decimal with an exponent too large for it.
    static func readsAsNumber(_ s: Substring) -> Bool {
        if Double(String(s)) != nil { return true }
        var body = s
        if body.first == "-" || body.first == "+" { body = body.dropFirst() }
        let halves = body.lowercased().split(separator: "e", maxSplits: 1, omittingEmptySubsequences: false)
        guard halves.count == 2, !halves[0].isEmpty, halves[0].allSatisfy({ $0.isASCIIDigit || $0 == "." }) else {
            return false
        }
        var exponent = halves[1]
        if exponent.first == "-" || exponent.first == "+" { exponent = exponent.dropFirst() }
        return !exponent.isEmpty && exponent.allSatisfy(\.isASCIIDigit)
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
}

// MARK: - Small helpers

extension Substring {
    func trimmingWhitespace() -> Substring {
        trimmingTrailingWhitespace().drop(while: \.isWhitespace)
    }

    func trimmingTrailingWhitespace() -> Substring {
        var s = self
        while let last = s.last, last.isWhitespace { s = s.dropLast() }
        return s
    }
}
