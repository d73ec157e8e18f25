import Testing

@testable import WundercastConfiguration

/// `parse(_:file:onto:)`: files applied on top of each other, origins, every error collected,
/// bad UTF-8 at its line, and the effective configuration as text.
@Suite struct ConfigurationLayeringTests {
    @Test func aLaterFileOverridesAndRecordsItsOrigin() {
        var parsed = Configuration.parse(
            "[Location]\nGPSD=gpsd.lan\n\n[Throttle]\nMinInterval=30s\n", file: "main.conf", onto: ParsedConfiguration()
        )
        parsed = Configuration.parse("# drop-in\n[Location]\nGPSD=[::1]:3000\n", file: "50-a.conf", onto: parsed)
        #expect(parsed.errors.isEmpty)
        #expect(parsed.configuration.location.gpsdHost == "::1")
        #expect(parsed.configuration.location.gpsdPort == 3000)
        #expect(parsed.configuration.throttle.minInterval == .seconds(30))
        #expect(parsed.origins["Location.GPSD"] == ConfigurationOrigin(file: "50-a.conf", line: 3))
        #expect(parsed.origins["Throttle.MinInterval"]?.description == "main.conf:5")
        #expect(parsed.origins["Throttle.MaxAge"] == nil)
        #expect(parsed.files == ["main.conf", "50-a.conf"])
    }

    @Test func everyErrorIsCollectedInOrder() throws {
        let text = """
            [Location]
            GPSD=😀
            Colour=blue
            [Nope]
            Ignored=after an unknown section
            [Throttle]
            MinInterval=5 parsecs
            MinDistance=2km
            no equals sign
            """
        let parsed = Configuration.parse(text, file: "t.conf", onto: ParsedConfiguration())
        #expect(parsed.errors.map(\.line) == [2, 3, 4, 7, 9])
        #expect(parsed.errors.allSatisfy { $0.file == "t.conf" })
        #expect(parsed.configuration.throttle.minDistance == 2000, "good lines still apply")
        #expect(throws: ConfigurationErrors(parsed.errors)) { try parsed.get() }
        let description = ConfigurationErrors(parsed.errors).description
        #expect(description.split(separator: "\n").count == 5)
        #expect(description.hasPrefix("t.conf:2: GPSD=\"😀\" is not a host name"))
    }

    /// A rule between keys is reported where the later assignment is, in whichever file.
    @Test func rulesBetweenKeysNameTheFileThatBrokeThem() {
        var parsed = Configuration.parse("[Throttle]\nMaxAge=10min\n", file: "main.conf", onto: ParsedConfiguration())
        parsed = Configuration.parse("[Throttle]\n\nMinInterval=20min\n", file: "90-x.conf", onto: parsed).checked()
        #expect(
            parsed.errors.map(\.description) == [
                "90-x.conf:3: MinInterval=20min is longer than MaxAge=10min: no two fetches may start closer than MinInterval, so MaxAge must be at least that"
            ])
        let metno = Configuration.parse("[Weather]\nProvider=metno\n", file: "m.conf", onto: ParsedConfiguration())
            .checked()
        #expect(metno.errors.first?.description.hasPrefix("m.conf:2: Provider=metno needs [Weather] Contact=") == true)
    }

    @Test(
        arguments: [
            ([0x5B, 0xFF, 0x5D], 1, "0xFF at column 2"),
            (Array("[Location]\nGPSD=h\u{0}\n".utf8) + [0x23, 0xC3, 0x28], 3, "0xC3 at column 2"),  // cut sequence
            (Array("# ok\n\n".utf8) + [0x41, 0xED, 0xA0, 0x80], 3, "0xED at column 2"),  // a surrogate
            (Array("[Weather]\n".utf8) + [0xC0, 0xAF], 2, "0xC0 at column 1"),  // overlong
        ] as [([UInt8], Int, String)])
    func invalidUTF8NamesItsLine(_ bytes: [UInt8], _ line: Int, _ at: String) {
        let parsed = Configuration.parse(bytes: bytes, file: "u.conf", onto: ParsedConfiguration())
        let error = parsed.errors.first { $0.message.hasPrefix("is not valid UTF-8") }
        #expect(
            error == ConfigurationError(file: "u.conf", line: line, message: "is not valid UTF-8 text (byte \(at))"))
    }

    @Test func theOtherLinesOfAFileWithBadUTF8StillApply() {
        let bytes = Array("[Throttle]\nMinDistance=2km\n".utf8) + [0x23, 0xFE] + Array("\nMaxAge=1h\nx\n".utf8)
        let parsed = Configuration.parse(bytes: bytes, file: "u.conf", onto: ParsedConfiguration())
        #expect(parsed.errors.map(\.line) == [3, 5])
        #expect(parsed.configuration.throttle.minDistance == 2000)
        #expect(parsed.configuration.throttle.maxAge == .seconds(3600))
    }

    @Test func everyKeyHasAnEffectiveValue() {
        for section in Configuration.sections {
            for key in section.keys {
                #expect(
                    Configuration.effectiveValues["\(section.name).\(key.name)"] != nil, "\(section.name).\(key.name)")
            }
        }
    }

    /// The effective text names every key with its origin, and its values read back as the
    /// same configuration (with the origin comments cut off).
    @Test func effectiveTextReadsBackAsTheSameConfiguration() throws {
        let text = """
            [Location]
            Authorization=when-in-use
            GPSD=[fe80::1%eth0]:2948
            MaxHorizontalError=25.5m
            Fallback=-33.86881234, 151.2093
            [Throttle]
            MaxAge=1h 30min
            [Weather]
            Provider=metno
            Contact=me@example.org
            URL=https://api.example.org:8443/v1/
            WindSpeedUnit=kn
            Timeout=2.5s
            [Socket]
            Mode=640
            [Places]
            OnlineGeocoding=off
            Cities=
            """
        let parsed = Configuration.parse(text, file: "/etc/w.conf", onto: ParsedConfiguration()).checked()
        #expect(parsed.errors.isEmpty)
        let effective = parsed.effectiveText()
        let lines = effective.split(separator: "\n")
        #expect(lines.contains("GPSD=[fe80::1%eth0]:2948  # /etc/w.conf:3"))
        #expect(lines.contains("Fallback=-33.86881234,151.2093  # /etc/w.conf:5"))
        #expect(lines.contains("Mode=0640  # /etc/w.conf:15"))
        #expect(lines.contains("OnlineGeocoding=no  # /etc/w.conf:17"))
        #expect(lines.contains("MinInterval=2min  # (default)"))
        #expect(lines.contains("Cities=  # /etc/w.conf:18"))
        let keyLines = lines.filter { !$0.hasPrefix("[") }
        #expect(keyLines.count == Configuration.sections.reduce(0) { $0 + $1.keys.count })
        let stripped = lines.map { line in line.components(separatedBy: "  # ").first ?? "" }.joined(separator: "\n")
        #expect(try Configuration.parse(stripped) == parsed.configuration)
        let defaults = ParsedConfiguration().effectiveText().split(separator: "\n").map { line in
            line.components(separatedBy: "  # ").first ?? ""
        }
        #expect(try Configuration.parse(defaults.joined(separator: "\n")) == Configuration())
    }

    @Test func controlCharactersInAPlaceNameAreEscaped() {
        let parsed = Configuration.parse(
            "[Location]\nFallback=Evil\u{1B}]0;x\u{7}Town\n", file: "e.conf", onto: .init())
        #expect(parsed.effectiveText().contains("Fallback=Evil\\u{1b}]0;x\\u{7}Town  # e.conf:2\n"))
    }

    /// A reload says what changed, key by key, in the order of the sections.
    @Test func changedKeysAreListedKeyByKey() throws {
        let before = try Configuration.parse("[Throttle]\nMaxAge=1h\n")
        let after = try Configuration.parse("[Location]\nGPSD=gpsd.lan:2948\n[Journal]\nPrecision=2\n")
        #expect(
            after.changedKeys(from: before) == ["GPSD=gpsd.lan:2948", "MaxAge=15min", "[Journal] Precision=2"])
        #expect(after.changedKeys(from: after).isEmpty)
    }
}
