import Foundation
import Testing
import WundercastTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// Each snippet in `etc/` runs the command read out of the file itself, through `sh -c` as
/// its bar does, with `WUNDERCAST_SOCKET` pointing at a test daemon (``BarDaemon``), and its
/// output is checked against what that bar reads (PITFALLS "Status bars").
@Suite struct SnippetCommandTests {
    /// Every snippet and its command: each runs our `wundercastctl`, found on `PATH`; a `watch`
    /// through `exec`, so that the bar is its parent (no shell between) and its end sends the
    /// parent-death signal (`RealBarTests.noWatchOutlivesItsBar`).
    @Test func everySnippetRunsWundercastctl() throws {
        let snippets = [
            try Snippet.waybar(), try Snippet.i3blocks(), try Snippet.polybar(), try Snippet.i3statusRust(),
            try Snippet.swaybar(),
        ]
        for snippet in snippets {
            let streams = snippet.command.hasSuffix(" watch")
            #expect(
                snippet.command.hasPrefix(streams ? "exec wundercastctl " : "wundercastctl "),
                "\(snippet): \(snippet.command)")
            #expect(!snippet.command.contains("--socket"), "\(snippet): the socket comes from the environment")
        }
        #expect(try Snippet.i3blocks().command.hasSuffix(" now"))
        #expect(FileManager.default.fileExists(atPath: Repository.url(Snippet.waybarStyle).path))
    }

    /// The settings around each command that make its bar read it as intended.
    @Test func everySnippetSetsItsBarUp() throws {
        let waybar =
            try JSONSerialization.jsonObject(
                with: Data(try JSONC.strip(try Repository.text("etc/waybar/config.jsonc")).utf8)) as? [String: Any]
        let module = waybar?["custom/wundercast"] as? [String: Any]
        #expect(module?["return-type"] as? String == "json")
        #expect(module?["restart-interval"] is Int)
        #expect(module?["interval"] == nil, "no interval: watch streams")
        #expect(try Snippet.waybar().command.hasSuffix(" watch"))
        // i3blocks: interval mode with now (exit 33 counts only for a command that ends).
        #expect(try Snippet.ini("etc/i3blocks.conf", section: "wundercast", key: "interval").command == "60")
        #expect(try Snippet.i3blocks().command.hasSuffix(" now"))
        #expect(
            try Snippet.ini("etc/polybar.ini", section: "module/wundercast", key: "type").command == "custom/script")
        #expect(try Snippet.ini("etc/polybar.ini", section: "module/wundercast", key: "tail").command == "true")
        // i3blocks hands the text to i3bar as Pango markup: the icon's font (--icon-font).
        #expect(try Snippet.ini("etc/i3blocks.conf", section: "wundercast", key: "markup").command == "pango")
        #expect(try Snippet.ini("etc/i3status-rust.toml", section: "[block]", key: "block").command == "\"custom\"")
        #expect(try Snippet.ini("etc/i3status-rust.toml", section: "[block]", key: "json").command == "true")
        #expect(try Snippet.ini("etc/i3status-rust.toml", section: "[block]", key: "persistent").command == "true")
        // Each says where it goes.
        for path in Repository.files(under: "etc") where path != "etc/wundercast.conf" {
            let head = try Repository.text(path).prefix(600)
            #expect(head.contains("Where it goes"), "\(path)")
        }
    }

    /// The i3bar protocol's blocks in `line` (`[{…}]`, `,[{…}]`), or `nil`.
    static func i3barBlocks(_ line: String) -> [[String: Any]]? {
        var text = Substring(line.trimmingCharacters(in: .whitespaces))
        if text.hasPrefix(",") { text = text.dropFirst() }
        if text.hasSuffix(",") { text = text.dropLast() }
        guard text.hasPrefix("[{") else { return nil }
        return (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [[String: Any]]
    }

    /// Starts the streaming command of `snippet` and waits for its first JSON line whose
    /// `text` shows the weather; the caller stops the command.
    static func firstWeatherObject(of snippet: Snippet, _ bar: BarDaemon) async throws -> (ChildProcess, [String: Any])
    {
        let watch = try startSnippet(snippet.command, environment: bar.environment)
        let line = try await watch.output.waitFor("a JSON line of \(snippet) with the weather") {
            (jsonObject($0)?["text"] as? String)?.contains(BarDaemon.temperature) == true
        }
        return (watch, jsonObject(line) ?? [:])
    }

    @Test func waybarStreamsOneJSONObjectPerLine() async throws {
        let bar = try await BarDaemon.start()
        let (watch, object) = try await Self.firstWeatherObject(of: try Snippet.waybar(), bar)
        defer { watch.signalGroup(SIGKILL) }
        let line = "\(object)"
        #expect(object["alt"] is String, "\(line)")
        #expect((object["tooltip"] as? String)?.isEmpty == false, "\(line)")
        let classes = (object["class"] as? [String]) ?? [(object["class"] as? String) ?? ""]
        #expect(classes.contains { $0.lowercased().contains("clear") }, "\(line)")
        #expect(object["percentage"] is Int, "\(line)")
        // Each line is a whole object: nothing else on stdout.
        for line in watch.output.lines { #expect(jsonObject(line) != nil, "not a JSON object: \(line)") }

        // The daemon stops: the bar gets a line marked offline at once, not silence.
        await bar.daemon.stop()
        let offline = try await watch.output.waitFor("a waybar object marked offline", timeout: .seconds(15)) {
            let value = jsonObject($0)?["class"]
            return ((value as? [String]) ?? [(value as? String) ?? ""]).contains("daemon-offline")
        }
        #expect(jsonObject(offline)?["text"] is String)
    }

    @Test func i3blocksPrintsFullTextShortTextAndColor() async throws {
        let snippet = try Snippet.i3blocks()
        let bar = try await BarDaemon.start()
        let result = try await runSnippet(snippet.command, environment: bar.environment)
        #expect(result.status == 0, "\(result)")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.count >= 2 && lines.count <= 4, "\(result.stdout)")
        #expect(lines[0].contains(BarDaemon.temperature), "full_text: \(lines[0])")
        #expect(lines[0].contains(BarDaemon.condition), "full_text: \(lines[0])")
        if lines.count >= 3, !lines[2].isEmpty {
            #expect(lines[2].range(of: "^#[0-9A-Fa-f]{6}$", options: .regularExpression) != nil, "color: \(lines[2])")
        }
    }

    /// Exit 33 marks the block urgent in i3blocks: only for severe weather.
    @Test func i3blocksExits33ForAThunderstorm() async throws {
        let snippet = try Snippet.i3blocks()
        let bar = try await BarDaemon.start(weatherCode: 95)
        let result = try await runSnippet(snippet.command, environment: bar.environment)
        #expect(result.status == 33, "\(result)")
        #expect(result.stdout.contains(BarDaemon.temperature), "\(result.stdout)")
    }

    /// The daemon is down: exit 0 (i3blocks would keep the old text on a failure) and a line
    /// marked offline, without a colour (the bar's own).
    @Test func i3blocksShowsALineWhenTheDaemonIsDown() async throws {
        let snippet = try Snippet.i3blocks()
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        let result = try await runSnippet(
            snippet.command, environment: BarDaemon.environment(socket: dir.file("absent.sock")),
            timeout: .seconds(10))
        #expect(result.status == 0, "\(result)")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first?.contains("offline") == true, "\(result)")
        // No colour: the bar's own, on any theme (`--colors dark|light` for colours).
        #expect(lines.count >= 3 && lines[2] == "", "\(result)")
    }

    @Test func polybarPrintsOneLinePerChange() async throws {
        let snippet = try Snippet.polybar()
        let bar = try await BarDaemon.start()
        let watch = try startSnippet(snippet.command, environment: bar.environment)
        defer { watch.signalGroup(SIGKILL) }
        let line = try await watch.output.waitFor(containing: BarDaemon.temperature)
        #expect(line.contains(BarDaemon.condition), "\(line)")
        #expect(!line.hasPrefix("{"), "polybar shows the line as it is: \(line)")
    }

    /// With --hide-offline, a daemon that is not there gives an empty line: polybar hides the module.
    @Test func polybarHidesTheModuleWhileTheDaemonIsDown() async throws {
        let snippet = try Snippet.polybar()
        #expect(snippet.command.contains("--hide-offline"))
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        let watch = try startSnippet(
            snippet.command, environment: BarDaemon.environment(socket: dir.file("absent.sock")))
        defer { watch.signalGroup(SIGKILL) }
        try await watch.output.waitFor("an empty line", timeout: .seconds(15)) { $0.isEmpty }
        #expect(watch.output.lines.allSatisfy { $0.isEmpty }, "\(watch.output.lines)")
        #expect(watch.isRunning, "watch keeps waiting for the daemon")
    }

    @Test func i3statusRustReadsIconStateAndText() async throws {
        let bar = try await BarDaemon.start()
        let (watch, object) = try await Self.firstWeatherObject(of: try Snippet.i3statusRust(), bar)
        defer { watch.signalGroup(SIGKILL) }
        let line = "\(object)"
        #expect(object["icon"] is String, "\(line)")
        #expect(Self.i3statusRustStates.contains(object["state"] as? String ?? ""), "\(line)")
    }

    /// The icon names of i3status-rust's icon sets (its `files/icons/*.toml`, e.g.
    /// `awesome6.toml`: the `weather_*` keys) and the states of its custom block (docs.rs,
    /// `blocks::custom`): what its `json = true` lines may name.
    static let i3statusRustIcons: Set = [
        "weather_clouds", "weather_clouds_night", "weather_default", "weather_fog", "weather_fog_night", "weather_moon",
        "weather_rain", "weather_rain_night", "weather_snow", "weather_sun", "weather_thunder", "weather_thunder_night",
    ]
    static let i3statusRustStates: Set = ["Idle", "Info", "Good", "Warning", "Critical"]

    /// i3status-rust is not packaged by Debian 12: its snippet's command, with the daemon down,
    /// gives one line in i3status-rust's own names — a documented icon, `Critical` — and nothing
    /// on stderr.
    @Test func i3statusRustSaysTheDaemonIsDownInItsOwnNames() async throws {
        let snippet = try Snippet.i3statusRust()
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        let watch = try startSnippet(
            snippet.command, environment: BarDaemon.environment(socket: dir.file("absent.sock")))
        defer { watch.signalGroup(SIGKILL) }
        let line = try await watch.output.waitFor("a JSON line", timeout: .seconds(15)) { jsonObject($0) != nil }
        let object = try #require(jsonObject(line))
        #expect(Self.i3statusRustIcons.contains(object["icon"] as? String ?? ""), "\(line)")
        #expect(object["state"] as? String == "Critical", "\(line)")
        #expect((object["text"] as? String)?.contains("offline") == true, "\(line)")
        #expect(Set(object.keys).isSubset(of: ["icon", "state", "text", "short_text"]), "\(line)")
        #expect(watch.isRunning, "it waits for the daemon")
        #expect(watch.errorOutput.text.isEmpty, "\(watch.errorOutput.text)")
    }

    @Test func swaybarGetsTheI3barProtocol() async throws {
        let snippet = try Snippet.swaybar()
        let bar = try await BarDaemon.start()
        let watch = try startSnippet(snippet.command, environment: bar.environment)
        defer { watch.signalGroup(SIGKILL) }
        try await watch.output.waitFor("i3bar blocks with the weather") { line in
            Self.i3barBlocks(line)?.contains {
                ($0["full_text"] as? String)?.contains(BarDaemon.temperature) == true
            } == true
        }
        let lines = watch.output.lines
        let header = try #require(jsonObject(lines[0]), "header: \(lines)")
        #expect(header["version"] as? Int == 1)
        #expect(lines[1].trimmingCharacters(in: .whitespaces).hasPrefix("["), "\(lines)")
    }
}
