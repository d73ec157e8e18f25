import Foundation
import Testing

@testable import WundercastSupport
@testable import WundercastModel
@testable import WundercastConfiguration

/// `etc/wundercast.conf` of this checkout, found from this file's path.
private let samplePath = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // WundercastConfigurationTests
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()  // checkout
    .appendingPathComponent("etc/wundercast.conf").path

/// A configuration text and the configuration it must produce.
struct ConfigCase: Sendable, CustomTestStringConvertible {
    var text: String
    var expected: Configuration
    var testDescription: String { text.replacingOccurrences(of: "\n", with: "⏎") }

    init(_ text: String, _ change: (inout Configuration) -> Void) {
        self.text = text
        var c = Configuration()
        change(&c)
        expected = c
    }
}

/// A configuration text that must fail, where, and the message.
struct ErrorCase: Sendable, CustomTestStringConvertible {
    var text: String
    var line: Int
    var message: String
    var testDescription: String { text.replacingOccurrences(of: "\n", with: "⏎") }

    init(_ text: String, line: Int, _ message: String) {
        self.text = text
        self.line = line
        self.message = message
    }
}

@Suite struct ConfigurationTests {
    private func error(_ text: String, file: String = "<string>") -> ConfigurationError? {
        do {
            _ = try Configuration.parse(text, file: file)
            return nil
        } catch {
            return error
        }
    }

    // MARK: Defaults and syntax

    @Test(arguments: ["", "\n\n", "# only a comment\n; another\n", "[Location]\n[Throttle]\n", "  \n\t\n"])
    func emptyTextGivesDefaults(_ text: String) throws {
        #expect(try Configuration.parse(text) == Configuration())
    }

    @Test func everyKeyParsed() throws {
        let text = """
            [Location]
            Authorization=when-in-use
            GPSD=gpsd.lan:3000
            MaxHorizontalError=25m
            Fallback=44.4268,26.1025

            [Throttle]
            MinInterval=30s
            MinDistance=500m
            MaxAge=1h 30min

            [Weather]
            Provider=open-meteo
            URL=http://localhost:8080/
            Units=imperial
            Precision=4
            Timeout=2.5s
            Cell=sea

            [Socket]
            Path=/tmp/w.sock
            """
        var expected = Configuration()
        expected.location.authorization = .authorizedWhenInUse
        expected.location.gpsdHost = "gpsd.lan"
        expected.location.gpsdPort = 3000
        expected.location.maxHorizontalError = 25
        expected.location.fallback = .coordinate(Coordinate(latitude: 44.4268, longitude: 26.1025))
        expected.throttle.minInterval = .seconds(30)
        expected.throttle.minDistance = 500
        expected.throttle.maxAge = .seconds(5400)
        expected.weather.url = "http://localhost:8080"
        expected.weather.units = .imperial
        expected.weather.precision = 4
        expected.weather.timeout = .milliseconds(2500)
        expected.weather.cell = .sea
        expected.socket.path = "/tmp/w.sock"
        #expect(try Configuration.parse(text) == expected)
    }

    static let goodCases: [ConfigCase] = [
        .init("[Location]\nAuthorization=always") { $0.location.authorization = .authorizedAlways },
        .init("[Location]\nAuthorization=when-in-use") { $0.location.authorization = .authorizedWhenInUse },
        .init("[Location]\nAuthorization=denied") { $0.location.authorization = .denied },
        .init("[Location]\nAuthorization=ask") { $0.location.authorization = .notDetermined },
        .init("[Location]\nGPSD=gpsd.lan") { $0.location.gpsdHost = "gpsd.lan" },
        .init("[Location]\nGPSD=10.0.0.2:2948") {
            $0.location.gpsdHost = "10.0.0.2"
            $0.location.gpsdPort = 2948
        },
        .init("[Location]\nGPSD=[::1]:2947") { $0.location.gpsdHost = "::1" },
        .init("[Location]\nGPSD=[fe80::1]") { $0.location.gpsdHost = "fe80::1" },
        .init("[Location]\nGPSD=h:1") {
            $0.location.gpsdHost = "h"
            $0.location.gpsdPort = 1
        },
        .init("[Location]\nGPSD=h:65535") {
            $0.location.gpsdHost = "h"
            $0.location.gpsdPort = 65535
        },
        .init("[Location]\nMaxHorizontalError=1.5 km") { $0.location.maxHorizontalError = 1500 },
        .init("[Location]\nMaxHorizontalError=30") { $0.location.maxHorizontalError = 30 },
        .init("[Location]\nFallback=-33.8688, 151.2093") {
            $0.location.fallback = .coordinate(Coordinate(latitude: -33.8688, longitude: 151.2093))
        },
        .init("[Location]\nFallback=90,-180") {
            $0.location.fallback = .coordinate(Coordinate(latitude: 90, longitude: -180))
        },
        .init("[Location]\nFallback=1,2\nFallback=") { $0.location.fallback = nil },
        .init("[Throttle]\nMinInterval=1s") { $0.throttle.minInterval = .seconds(1) },
        .init("[Location]\nMaxFixAge=30s") { $0.location.maxFixAge = .seconds(30) },
        .init("[Throttle]\nMinInterval=90") { $0.throttle.minInterval = .seconds(90) },
        .init("[Throttle]\nMinDistance=0m") { $0.throttle.minDistance = 0 },
        .init("[Throttle]\nMinDistance=2km") { $0.throttle.minDistance = 2000 },
        .init("[Throttle]\nMaxAge=1d") { $0.throttle.maxAge = .seconds(86_400) },
        .init("[Weather]\nURL=https://api.example.org/v1///") { $0.weather.url = "https://api.example.org/v1" },
        .init("[Weather]\nURL=HTTPS://Example.org") { $0.weather.url = "HTTPS://Example.org" },
        .init("[Weather]\nUnits=metric") { $0.weather.units = .metric },
        .init("[Weather]\nPrecision=0") { $0.weather.precision = 0 },
        .init("[Weather]\nTimeout=1500ms") { $0.weather.timeout = .milliseconds(1500) },
        .init("[Weather]\nCell=nearest") { $0.weather.cell = .nearest },
        .init("[Weather]\nDays=7") { $0.weather.days = 7 },
        .init("[Weather]\nDays=1") { $0.weather.days = 1 },
        .init("[Weather]\nCell=sea\nCell=land") { $0.weather.cell = .land },
        .init("[Socket]\nPath=/run/user/1000/wundercast.sock") { $0.socket.path = "/run/user/1000/wundercast.sock" },
        // Syntax: whitespace, quotes, later assignment wins, comments, CRLF, BOM, continuation.
        .init("  [Throttle]  \n   MinInterval   =   5min   ") { $0.throttle.minInterval = .seconds(300) },
        .init("[Throttle]\nMaxAge=2h\nMinInterval=\"1h 30min\"") {
            $0.throttle.minInterval = .seconds(5400)
            $0.throttle.maxAge = .seconds(7200)
        },
        .init("[Throttle]\nMinInterval='45s'") { $0.throttle.minInterval = .seconds(45) },
        .init("[Throttle]\nMinInterval=5s\nMinInterval=7s") { $0.throttle.minInterval = .seconds(7) },
        .init("[Throttle]\nMinInterval=5s\n[Weather]\n[Throttle]\nMinDistance=3m") {
            $0.throttle.minInterval = .seconds(5)
            $0.throttle.minDistance = 3
        },
        .init("[Throttle]\n#MinInterval=nonsense\n;MinDistance=nonsense\n  # indented comment") { _ in },
        .init("[Throttle]\r\nMinInterval=5s\r\n") { $0.throttle.minInterval = .seconds(5) },
        .init("\u{FEFF}[Throttle]\nMinInterval=5s") { $0.throttle.minInterval = .seconds(5) },
        .init("[Throttle]\nMaxAge=2h\nMinInterval=1h \\\n  30min") {
            $0.throttle.minInterval = .seconds(5400)
            $0.throttle.maxAge = .seconds(7200)
        },
        .init("[Throttle]\nMaxAge=2h\nMinInterval=1h\\\n# comment inside\n30min") {
            $0.throttle.minInterval = .seconds(5400)
            $0.throttle.maxAge = .seconds(7200)
        },
        // systemd ignores X- sections and keys.
        .init("[X-Vendor]\nAnything=goes\n[Throttle]\nX-Note=hi\nMinDistance=7") { $0.throttle.minDistance = 7 },
    ]

    @Test(arguments: goodCases)
    func parsesKey(_ c: ConfigCase) throws {
        #expect(try Configuration.parse(c.text) == c.expected)
    }

    // MARK: Errors

    @Test func badValueReportsItsLine() {
        let text = """
            # wundercast
            [Location]
            Authorization=always

            [Throttle]
            ; the interval
            MinInterval=5 parsecs
            MinDistance=also bad
            """
        let e = error(text, file: "wundercast.conf")
        #expect(
            e
                == ConfigurationError(
                    file: "wundercast.conf", line: 7,
                    message: "MinInterval=\"5 parsecs\" is not a time span (examples: 30s, 5min, 1h 30min)"))
        #expect(
            e?.description
                == "wundercast.conf:7: MinInterval=\"5 parsecs\" is not a time span (examples: 30s, 5min, 1h 30min)")
    }

    static let errorCases: [ErrorCase] = [
        .init("[Socket]\nMode=666x", line: 2, "Mode=\"666x\" is not an octal mode such as 0666 or 0660"),
        .init("[Socket]\nMaxClients=0", line: 2, "MaxClients=\"0\" is not a whole number from 1 to 65536"),
        .init(
            "[Socket]\nPublicPrecision=5", line: 2,
            "PublicPrecision=\"5\" is not an integer from 0 to 4 (decimals of latitude/longitude public readers get)"),
        .init(
            "[Weather]\nDays=8", line: 2,
            "Days=\"8\" is not an integer from 1 to 7 (local days of the forecast published)"),
        .init(
            "[Weather]\n\nDays=0", line: 3,
            "Days=\"0\" is not an integer from 1 to 7 (local days of the forecast published)"),
        .init(
            "[Weather]\nDays=three", line: 2,
            "Days=\"three\" is not an integer from 1 to 7 (local days of the forecast published)"),
        .init("[Places]\nOnlineGeocoding=maybe", line: 2, "OnlineGeocoding=\"maybe\" is not a boolean (yes or no)"),
        .init(
            "[Journal]\nPrecision=7", line: 2,
            "Precision=\"7\" is not an integer from 0 to 6 (decimals of latitude/longitude in the journal)"),
        .init(
            "[Location]\nColour=blue", line: 2,
            "unknown key Colour= in [Location] (known keys: Authorization, GPSD, MaxHorizontalError, MaxFixAge, Fallback)"
        ),
        .init(
            "\n[Throttle]\n\nmininterval=5s", line: 4,
            "unknown key mininterval= in [Throttle] (known keys: MinInterval, MinDistance, MaxAge)"),
        .init(
            "[Weather]\nPath=/x", line: 2,
            "unknown key Path= in [Weather] (known keys: Provider, URL, Contact, Units, TemperatureUnit, WindSpeedUnit, PressureUnit, PrecipitationUnit, Precision, Timeout, Cell, Days, Marine, MarineURL, APIKeyFile, Language)"
        ),
        .init(
            "[Socket]\nPath=/x\n[Sokcet]\nPath=/y", line: 3,
            "unknown section [Sokcet] (known sections: [Location], [Throttle], [Weather], [Socket], [Places], [Journal], [Cache], [MQTT], [Alerts])"
        ),
        .init(
            "[location]", line: 1,
            "unknown section [location] (known sections: [Location], [Throttle], [Weather], [Socket], [Places], [Journal], [Cache], [MQTT], [Alerts])"
        ),
        .init("# top\n\nMinInterval=5s\n[Throttle]", line: 3, "MinInterval= appears before any [Section] header"),
        .init(
            "[Throttle]\nMinInterval 5s", line: 2,
            "\"MinInterval 5s\" is not a Key=Value assignment or a [Section] header"),
        .init("[Throttle]\n=5s", line: 2, "\"=5s\" has no key before the ="),
        .init("[Throttle\nMinInterval=5s", line: 1, "\"[Throttle\" is not a section header (expected [Section])"),
        .init(
            "[Throttle]\nMinInterval=1h \\\n  5 parsecs\nMaxAge=1min", line: 2,
            "MinInterval=\"1h    5 parsecs\" is not a time span (examples: 30s, 5min, 1h 30min)"),
        .init(
            "[Location]\nAuthorization=Always", line: 2,
            "Authorization=\"Always\" is not one of: always, when-in-use, denied, ask"),
        .init(
            "[Location]\nAuthorization=", line: 2,
            "Authorization=\"\" is not one of: always, when-in-use, denied, ask"),
        .init("[Location]\nGPSD=h:0", line: 2, "GPSD=\"h:0\" has port 0, outside 1-65535"),
        .init("[Location]\nGPSD=h:65536", line: 2, "GPSD=\"h:65536\" has port 65536, outside 1-65535"),
        .init(
            "[Location]\nGPSD=h:", line: 2,
            "GPSD=\"h:\" has no valid port number (examples: 127.0.0.1:2947, gpsd.lan, [::1]:2947)"),
        .init(
            "[Location]\nGPSD=h:http", line: 2,
            "GPSD=\"h:http\" has no valid port number (examples: 127.0.0.1:2947, gpsd.lan, [::1]:2947)"),
        .init(
            "[Location]\nGPSD=h:-1", line: 2,
            "GPSD=\"h:-1\" has no valid port number (examples: 127.0.0.1:2947, gpsd.lan, [::1]:2947)"),
        .init(
            "[Location]\nGPSD=:2947", line: 2,
            "GPSD=\":2947\" is not host:port (examples: 127.0.0.1:2947, gpsd.lan, [::1]:2947)"),
        .init(
            "[Location]\nGPSD=", line: 2,
            "GPSD=\"\" is not host:port (examples: 127.0.0.1:2947, gpsd.lan, [::1]:2947)"),
        .init(
            "[Location]\nGPSD=::1", line: 2,
            "GPSD=\"::1\" looks like an IPv6 address: write it in brackets, as [::1]:2947"),
        .init(
            "[Location]\nGPSD=[::1", line: 2,
            "GPSD=\"[::1\" has no closing ] (examples: 127.0.0.1:2947, gpsd.lan, [::1]:2947)"),
        .init(
            "[Location]\nGPSD=[::1]2947", line: 2,
            "GPSD=\"[::1]2947\" is not host:port (examples: 127.0.0.1:2947, gpsd.lan, [::1]:2947)"),
        .init(
            "[Location]\nMaxHorizontalError=0", line: 2,
            "MaxHorizontalError=\"0\" must be greater than 0m (it would refuse every fix)"),
        .init(
            "[Location]\nMaxHorizontalError=-5m", line: 2,
            "MaxHorizontalError=\"-5m\" is not a distance (examples: 500m, 2km, 1.5km)"),
        .init("[Location]\nFallback=91,0", line: 2, "Fallback=\"91,0\" has latitude 91, outside -90...90"),
        .init(
            "[Location]\nFallback=0,-180.5", line: 2, "Fallback=\"0,-180.5\" has longitude -180.5, outside -180...180"),
        .init(
            "[Location]\nFallback=48.8,", line: 2,
            "Fallback=\"48.8,\" is neither LAT,LON in decimal degrees (example: 48.8566,2.3522) nor a place name"),
        .init(
            "[Location]\nFallback=1,2,3", line: 2,
            "Fallback=\"1,2,3\" is neither LAT,LON in decimal degrees (example: 48.8566,2.3522) nor a place name"),
        .init(
            "[Throttle]\nMinDistance=5 miles", line: 2,
            "MinDistance=\"5 miles\" is not a distance (examples: 500m, 2km, 1.5km)"),
        .init("[Throttle]\nMinDistance=", line: 2, "MinDistance=\"\" is not a distance (examples: 500m, 2km, 1.5km)"),
        .init("[Throttle]\nMaxAge=0", line: 2, "MaxAge=\"0\" is shorter than 1s (examples: 30s, 5min, 1h 30min)"),
        .init("[Throttle]\nMaxAge=1ns", line: 2, "MaxAge=\"1ns\" is shorter than 1s (examples: 30s, 5min, 1h 30min)"),
        .init(
            "[Throttle]\nMinInterval=999ms", line: 2,
            "MinInterval=\"999ms\" is shorter than 1s (examples: 30s, 5min, 1h 30min)"),
        .init(
            "[Location]\nMaxFixAge=9223372036854775807s", line: 2,
            "MaxFixAge=\"9223372036854775807s\" is longer than 30 days, the longest span any key takes"),
        .init(
            "[Throttle]\nMinInterval=5s\u{0}\u{1B}[2J", line: 2,
            "MinInterval=\"5s\\u{0}\\u{1b}[2J\" is not a time span (examples: 30s, 5min, 1h 30min)"),
        .init("[Location]\nMaxFixAge=0", line: 2, "MaxFixAge=\"0\" is shorter than 1s (examples: 30s, 5min, 1h 30min)"),
        .init(
            "[Throttle]\nMinInterval=10min\n\nMaxAge=5min", line: 4,
            "MaxAge=5min is shorter than MinInterval=10min: no two fetches may start closer than MinInterval, so MaxAge must be at least that"
        ),
        .init(
            "[Throttle]\nMinInterval=20min", line: 2,
            "MinInterval=20min is longer than MaxAge=15min: no two fetches may start closer than MinInterval, so MaxAge must be at least that"
        ),
        .init(
            "[Weather]\nTimeout=1h", line: 2,
            "Timeout=1h is more than a quarter of MaxAge=15min: weather is shown as fresh while its refetch runs, so a fetch may take at most MaxAge/4"
        ),
        .init(
            "[Weather]\nTimeout=30s\n[Throttle]\nMinInterval=1min\nMaxAge=1min", line: 5,
            "Timeout=30s is more than a quarter of MaxAge=1min: weather is shown as fresh while its refetch runs, so a fetch may take at most MaxAge/4"
        ),
        .init(
            "[Throttle]\nMaxAge=0s 0ms", line: 2,
            "MaxAge=\"0s 0ms\" is shorter than 1s (examples: 30s, 5min, 1h 30min)"),
        .init(
            "[Weather]\nProvider=darksky", line: 2,
            "Provider=\"darksky\" is not a supported provider (supported: open-meteo, openweathermap, metno)"),
        .init(
            "[Weather]\nURL=ftp://example.org", line: 2,
            "URL=\"ftp://example.org\" does not start with http:// or https://"),
        .init(
            "[Weather]\nURL=api.open-meteo.com", line: 2,
            "URL=\"api.open-meteo.com\" does not start with http:// or https://"),
        .init("[Weather]\nURL=https://", line: 2, "URL=\"https://\" is not an http:// or https:// URL with a host"),
        .init("[Weather]\nUnits=kelvin", line: 2, "Units=\"kelvin\" is not one of: metric, imperial"),
        .init(
            "[Weather]\nCell=Sea", line: 2,
            "Cell=\"Sea\" is not one of: land, sea, nearest (the model grid cell that answers for the position)"),
        .init(
            "[Weather]\n\nCell=", line: 3,
            "Cell=\"\" is not one of: land, sea, nearest (the model grid cell that answers for the position)"),
        .init(
            "[Weather]\nPrecision=5", line: 2,
            "Precision=\"5\" is not an integer from 0 to 4 (decimals of latitude/longitude sent to the provider; 4 is about 11 m)"
        ),
        .init(
            "[Weather]\nPrecision=-1", line: 2,
            "Precision=\"-1\" is not an integer from 0 to 4 (decimals of latitude/longitude sent to the provider; 4 is about 11 m)"
        ),
        .init(
            "[Weather]\nPrecision=2.5", line: 2,
            "Precision=\"2.5\" is not an integer from 0 to 4 (decimals of latitude/longitude sent to the provider; 4 is about 11 m)"
        ),
        .init(
            "[Weather]\nTimeout=0ms", line: 2, "Timeout=\"0ms\" is shorter than 1s (examples: 30s, 5min, 1h 30min)"),
        .init(
            "[Weather]\nTimeout=soon", line: 2, "Timeout=\"soon\" is not a time span (examples: 30s, 5min, 1h 30min)"),
        .init("[Socket]\nPath=", line: 2, "Path=\"\" is not an absolute path"),
        .init("[Socket]\nPath=run/w.sock", line: 2, "Path=\"run/w.sock\" is not an absolute path"),
        .init(
            "[Socket]\nPath=/" + String(repeating: "x", count: 107), line: 2,
            "Path=\"/" + String(repeating: "x", count: 107) + "\" is 108 bytes long; a Unix socket path has at most 107"
        ),
    ]

    @Test(arguments: errorCases)
    func reportsError(_ c: ErrorCase) {
        #expect(error(c.text, file: "t.conf") == ConfigurationError(file: "t.conf", line: c.line, message: c.message))
    }

    @Test func firstErrorStopsParsing() {
        let e = error("[Throttle]\nMinInterval=x\nMinDistance=y\n[Nope]")
        #expect(e?.line == 2)
        #expect(e?.message.hasPrefix("MinInterval=") == true)
    }

    @Test func descriptionWithoutLine() {
        #expect(
            ConfigurationError(file: "/x.conf", line: 0, message: "cannot read: boom").description
                == "/x.conf: cannot read: boom")
    }

    // MARK: The sample file

    @Test func sampleParsesToDefaults() throws {
        let text = try String(contentsOfFile: samplePath, encoding: .utf8)
        #expect(try Configuration.parse(text, file: samplePath) == Configuration())
    }

    /// Uncommenting every `#Key=` must still give the defaults: the sample's values are valid
    /// and are the defaults.
    @Test func uncommentedSampleParsesToDefaults() throws {
        let text = try String(contentsOfFile: samplePath, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var uncommented = 0
        let edited = lines.map { line -> Substring in
            guard line.hasPrefix("#"), let first = line.dropFirst().first, first.isLetter, line.contains("=") else {
                return line
            }
            uncommented += 1
            return line.dropFirst()
        }.joined(separator: "\n")
        let keyCount = Configuration.sections.reduce(0) { $0 + $1.keys.count }
        #expect(uncommented == keyCount)
        #expect(try Configuration.parse(edited, file: "uncommented") == Configuration())
    }

    @Test func sampleDocumentsEveryKeyInItsSection() throws {
        let text = try String(contentsOfFile: samplePath, encoding: .utf8)
        #expect(text.contains("/etc/wundercast/wundercast.conf"))
        #expect(text.contains("--config"))
        for section in Configuration.sections {
            let body = try #require(text.components(separatedBy: "[\(section.name)]\n").dropFirst().first)
            let sectionBody = body.components(separatedBy: "\n[").first ?? ""
            for key in section.keys {
                #expect(sectionBody.contains("\n#\(key.name)="), "[\(section.name)] \(key.name)= missing")
                // Each key is preceded by a one-line explanation.
                let before = sectionBody.components(separatedBy: "\n#\(key.name)=").first ?? ""
                #expect(before.split(separator: "\n").last?.hasPrefix("# ") == true, "\(key.name)= has no explanation")
            }
        }
    }
}

@Suite struct TimeSpanTests {
    static let good: [(String, Duration)] = [
        ("30s", .seconds(30)),
        ("5min", .seconds(300)),
        ("2h", .seconds(7200)),
        ("1h 30min", .seconds(5400)),
        ("1h30min", .seconds(5400)),
        ("500ms", .milliseconds(500)),
        ("1.5s", .milliseconds(1500)),
        ("1.5min", .seconds(90)),
        (".5s", .milliseconds(500)),
        ("3", .seconds(3)),
        ("0", .zero),
        ("  45 s  ", .seconds(45)),
        ("10us", .microseconds(10)),
        ("10usec", .microseconds(10)),
        ("10µs", .microseconds(10)),
        ("7ns", .nanoseconds(7)),
        ("250msec", .milliseconds(250)),
        ("2sec", .seconds(2)),
        ("1second", .seconds(1)),
        ("2 seconds", .seconds(2)),
        ("3m", .seconds(180)),
        ("1minute", .seconds(60)),
        ("2 minutes", .seconds(120)),
        ("1hr", .seconds(3600)),
        ("1 hour", .seconds(3600)),
        ("2hours", .seconds(7200)),
        ("1d", .seconds(86_400)),
        ("1day", .seconds(86_400)),
        ("2 days", .seconds(172_800)),
        ("1w", .seconds(604_800)),
        ("1week", .seconds(604_800)),
        ("2weeks", .seconds(1_209_600)),
        ("1 hour 2 minutes 3 seconds", .seconds(3723)),
        ("0.001ms", .microseconds(1)),
        ("1.000000001s", .nanoseconds(1_000_000_001)),
        ("0.1s", .milliseconds(100)),
    ]

    @Test(arguments: good)
    func parses(_ text: String, _ expected: Duration) {
        #expect(TimeSpan.parse(text) == expected)
    }

    @Test(arguments: [
        "", "   ", "5 parsecs", "-5s", "+5s", "s", "min", "1.2.3s", "5s s", "1e3s", "nan", "inf", "infinity",
        "5 M", "1y", "5S", "5 Min", "5min!", "5,5s", "five", "1 h -30min", "99999999999999999999999999999999w",
        "9999999999999999999s", ".", "5.s.",
    ])
    func rejects(_ text: String) {
        #expect(TimeSpan.parse(text) == nil)
    }

    @Test func largestAccepted() {
        #expect(TimeSpan.parse("9223372036854775807s") == .seconds(Int64.max))
        #expect(TimeSpan.parse("9223372036854775808s") == nil)
    }

    static let formatted: [(Duration, String)] = [
        (.seconds(120), "2min"),
        (.seconds(5400), "1h 30min"),
        (.seconds(45), "45s"),
        (.zero, "0"),
        (.milliseconds(1500), "1s 500ms"),
        (.milliseconds(500), "500ms"),
        (.seconds(90061), "1d 1h 1min 1s"),
        (.seconds(604_800), "1w"),
        (.seconds(900), "15min"),
        (.seconds(-30), "-30s"),
        (.nanoseconds(5), "5ns"),
        (.microseconds(1001), "1ms 1us"),
    ]

    @Test(arguments: formatted)
    func formats(_ duration: Duration, _ expected: String) {
        #expect(TimeSpan.format(duration) == expected)
    }

    @Test(arguments: [
        Duration.zero, .seconds(1), .seconds(59), .seconds(3599), .seconds(86_399), .seconds(1_000_000),
        .milliseconds(1), .microseconds(123_456_789), .nanoseconds(987_654_321_123), .seconds(Int64.max / 2),
    ])
    func formatRoundTrips(_ duration: Duration) {
        #expect(TimeSpan.parse(TimeSpan.format(duration)) == duration)
    }
}

@Suite struct DistanceTests {
    static let good: [(String, Double)] = [
        ("500m", 500), ("2km", 2000), ("1.5 km", 1500), ("0m", 0), ("0", 0), ("250", 250), ("0.5km", 500),
        (" 12.25 m ", 12.25), ("1km 200m", 1200), (".5km", 500),
    ]

    @Test(arguments: good)
    func parses(_ text: String, _ expected: Double) {
        #expect(Distance.parse(text) == expected)
    }

    @Test(arguments: [
        "", " ", "-5m", "-0", "+5m", "nan", "NaN", "inf", "5 miles", "5mi", "5 KM", "5M", "1e3m", "m", "km",
        "5m m", "1,5km", "five", String(repeating: "9", count: 400) + "km",
    ])
    func rejects(_ text: String) {
        #expect(Distance.parse(text) == nil)
    }

    @Test(arguments: [
        (0.0, "0m"), (500, "500m"), (12.5, "12.5m"), (1000, "1km"), (1500, "1.5km"), (2250, "2.25km"),
        (12.3456, "12.346m"),
    ])
    func formats(_ metres: Double, _ expected: String) {
        #expect(Distance.format(metres) == expected)
    }
}
