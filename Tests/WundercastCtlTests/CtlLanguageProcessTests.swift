import Foundation
import Testing
import WundercastModel
import WundercastProtocol
import WundercastTestSupport

/// The built `wundercastctl` in the reader's language against a fake daemon: German with
/// `LANG=de_DE.UTF-8`, English with no locale or the C locale, each of `LC_MESSAGES`, `LC_TIME`
/// and `LC_NUMERIC` on its own — and the daemon's JSON as it came, in every locale.
@Suite final class CtlLanguageProcessTests {
    let socket: TemporarySocketPath
    var path: String { socket.path }

    init() throws { socket = try TemporarySocketPath() }

    /// A state with a forecast, a stale error and an alert: text of every kind. Observed on the
    /// real clock, which wundercastctl reads: its day is Today, its hours not ended.
    static let line: String = {
        let now = Date()
        var state = SampleStates.weather(
            code: 1, status: .stale, error: WeatherState.ErrorInfo(code: "timeout", message: "curl: timed out"),
            fetchedAgo: 180, now: now)
        state.weather?.forecast = SampleStates.forecast(observed: now)
        state.alerts = AlertsState(
            source: .brightSky, status: .ok,
            items: [
                Alert(
                    id: "a", source: .brightSky, authority: "DWD", event: "Glätte", severity: .moderate,
                    expires: now + 7200, headline: "Amtliche Warnung vor Glätte")
            ], fetchedAt: now)
        return SampleStates.line(state, now: now)
    }()

    /// Runs `wundercastctl --socket … arguments` with `locale`'s variables only (no `LANG` or
    /// `LC_*` of the test's own environment) and the compiled catalogues.
    func ctl(_ locale: [String: String], _ arguments: String...) async throws -> ProcessResult {
        var environment = ProcessInfo.processInfo.environment.filter {
            !$0.key.hasPrefix("LC_") && $0.key != "LANG" && $0.key != "LANGUAGE"
        }
        environment["WUNDERCAST_LOCALEDIR"] = try MessageCatalogs.directory()
        for (name, value) in locale { environment[name] = value }
        return try await runProcess(
            try Binaries.path("wundercastctl"), ["--socket", path] + arguments, environment: environment,
            timeout: .seconds(50))
    }

    func requireLocales(_ names: String...) async throws {
        let listed = try await runProcess("/usr/bin/locale", ["-a"]).stdout
        for name in names {
            let generated = name.replacingOccurrences(of: "UTF-8", with: "utf8")
            try #require(listed.contains(generated), "locale \(name) is not generated: make test-deps (localedef)")
        }
    }

    @Test func germanWithLangDeDE() async throws {
        try await requireLocales("de_DE.UTF-8")
        let fake = try FakeDaemon(path: path) { _ in .lines([Self.line]) }
        defer { fake.stop() }
        let german = ["LANG": "de_DE.UTF-8"]
        let now = try await ctl(german, "now")
        #expect(now.status == 0, "\(now.stderr)")
        #expect(
            now.stdout.hasPrefix(
                "-5°C Überwiegend klar, Luftfeuchte 72%, Wind 5 km/h aus O, 12 km NO von Regensburg, vor "),
            "\(now.stdout)")
        #expect(now.stdout.hasSuffix(" (veraltet: der Wetterdienst antwortete nicht rechtzeitig)\n"), "\(now.stdout)")

        let waybar = try await ctl(german, "now", "--format", "waybar")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(waybar.stdout.utf8)) as? [String: Any])
        #expect((object["text"] as? String)?.hasSuffix(" -5°C Überwiegend klar (veraltet)") == true, "\(object)")
        #expect(object["alt"] as? String == "mainlyClear", "machine words stay")
        #expect(object["class"] as? [String] == ["mainlyClear", "stale", "alert", "alert-moderate"])
        let tooltip = try #require(object["tooltip"] as? String)
        for part in [
            "⚠ Mittel: Glätte (DWD) bis ", "Temperatur -5°C (gefühlt -9°C)", "Luftdruck 1035 hPa, steigend +1,3 hPa/3h",
            "<b>Jetzt</b>", "<b>Nächste Stunden</b>", "<b>Nächste Tage</b>", "Heute 0°C / -9°C", "Morgen 2°C / -4°C",
            "<b>Sonne und Mond</b>", "Sonnenaufgang 07:32, Sonnenuntergang 17:22", "Status: veraltet: ",
        ] {
            #expect(tooltip.contains(part), "\(part) in \(tooltip)")
        }

        let alerts = try await ctl(german, "alerts")
        #expect(alerts.stdout.hasPrefix("1 Warnung aktiv (brightsky antwortete "), "\(alerts.stdout)")
        #expect(alerts.stdout.contains("⚠ Glätte [Mittel] — DWD\n  bis "), "\(alerts.stdout)")
        #expect(alerts.stdout.contains("  Amtliche Warnung vor Glätte\n"), "the alert's own text as it came")

        // The daemon's JSON as it came: no translation, no decimal comma.
        let json = try await ctl(german, "--json", "now")
        #expect(json.stdout == Self.line + "\n")
        #expect(json.stdout.contains("\"seaLevelPressure\":1034.7"))
    }

    @Test(arguments: [
        [String: String](), ["LANG": "C"], ["LANG": "de_DE.UTF-8", "LC_ALL": "C"], ["LANG": "C.UTF-8"],
        ["LANG": "xx_YY.UTF-8"], ["LANGUAGE": "de", "LANG": "C"],
    ])
    func englishWithoutALocaleOrInTheCLocale(_ locale: [String: String]) async throws {
        let fake = try FakeDaemon(path: path) { _ in .lines([Self.line]) }
        defer { fake.stop() }
        let now = try await ctl(locale, "now")
        #expect(
            now.stdout.hasPrefix("-5°C Mainly clear, humidity 72%, wind 5 km/h from E, 12 km NE of Regensburg, "),
            "\(locale): \(now.stdout)")
        let waybar = try await ctl(locale, "now", "--format", "waybar")
        #expect(waybar.stdout.contains("Sunrise 07:32, sunset 17:22") && waybar.stdout.contains("+1.3 hPa/3h"))
    }

    /// Each category on its own: English words with a German decimal comma and a 24-hour clock,
    /// or German words with a 12-hour clock.
    @Test func eachCategoryOnItsOwn() async throws {
        try await requireLocales("de_DE.UTF-8", "en_US.UTF-8", "en_GB.UTF-8")
        let fake = try FakeDaemon(path: path) { _ in .lines([Self.line]) }
        defer { fake.stop() }
        let numeric = try await ctl(["LANG": "en_US.UTF-8", "LC_NUMERIC": "de_DE.UTF-8"], "now", "--format", "waybar")
        #expect(numeric.stdout.contains("Pressure 1035 hPa, rising +1,3 hPa/3h"), "\(numeric.stdout)")
        #expect(numeric.stdout.contains("Sunrise 7:32 AM, sunset 5:22 PM"), "en_US: 12-hour")
        let time = try await ctl(["LANG": "en_US.UTF-8", "LC_TIME": "en_GB.UTF-8"], "now", "--format", "waybar")
        #expect(time.stdout.contains("Sunrise 07:32, sunset 17:22") && time.stdout.contains("+1.3 hPa/3h"))
        let messages = try await ctl(
            ["LANG": "en_US.UTF-8", "LC_MESSAGES": "de_DE.UTF-8"], "now", "--format", "waybar")
        #expect(messages.stdout.contains("Sonnenaufgang 7:32 AM, Sonnenuntergang 5:22 PM"), "\(messages.stdout)")
        #expect(messages.stdout.contains("+1.3 hPa/3h"))
    }
}
