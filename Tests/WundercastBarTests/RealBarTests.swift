import Foundation
import Testing
import WundercastTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// The snippets inside the real bars from Debian, each reading the snippet file as it is in
/// `etc/` (PITFALLS "Testing in the real status bars"). No display and no network: i3blocks
/// writes the i3bar protocol to stdout; waybar draws in a headless sway and polybar in Xvfb,
/// and a screenshot is read back by tesseract. Skipped, with the reason, when a program is
/// missing (`make test` installs them: TEST_PACKAGES in the Makefile).
///
/// Serialized: a compositor, an X server and OCR at once would measure the 2-core machine.
@Suite(.serialized) struct RealBarTests {
    /// What OCR must find: the temperature and the condition of the recorded weather.
    static func showsTheWeather(_ text: String) -> Bool {
        text.contains(BarDaemon.temperature) && text.contains(BarDaemon.condition)
    }

    @Test(.enabled(if: Tool.exists("i3blocks"), "i3blocks is not installed (apt-get install i3blocks)"))
    func i3blocksShowsOurBlock() async throws {
        let bar = try await BarDaemon.start()
        let i3blocks = try ChildProcess(
            [try Tool.require("i3blocks"), "-c", Repository.url("etc/i3blocks.conf").path],
            environment: bar.environment, separateStderr: true)
        defer { i3blocks.signalGroup(SIGKILL) }
        let line = try await i3blocks.output.waitFor("our block in i3blocks' output") { line in
            SnippetCommandTests.i3barBlocks(line)?.contains {
                $0["name"] as? String == "wundercast"
                    && ($0["full_text"] as? String).map(Self.showsTheWeather) == true
            } == true
        }
        let block = try #require(SnippetCommandTests.i3barBlocks(line)?.first { $0["name"] as? String == "wundercast" })
        #expect(block["urgent"] as? Bool != true, "\(line)")
        #expect(i3blocks.output.lines.first?.contains("\"version\":1") == true, "\(i3blocks.output.lines)")
    }

    @Test(.enabled(if: Tool.exists("i3blocks"), "i3blocks is not installed (apt-get install i3blocks)"))
    func i3blocksMarksAThunderstormUrgent() async throws {
        let bar = try await BarDaemon.start(weatherCode: 95)
        let i3blocks = try ChildProcess(
            [try Tool.require("i3blocks"), "-c", Repository.url("etc/i3blocks.conf").path],
            environment: bar.environment, separateStderr: true)
        defer { i3blocks.signalGroup(SIGKILL) }
        try await i3blocks.output.waitFor("our block, urgent") { line in
            SnippetCommandTests.i3barBlocks(line)?.contains {
                $0["name"] as? String == "wundercast" && $0["urgent"] as? Bool == true
                    && ($0["full_text"] as? String)?.contains(BarDaemon.temperature) == true
            } == true
        }
    }

    /// Waybar in a headless sway (sway as nobody: it refuses root; waybar as this user, so it
    /// runs our binaries wherever the checkout is), its screenshot read by tesseract.
    @Test(
        .enabled(
            if: Tool.exists("sway", "waybar", "grim", "tesseract", "unshare", "setpriv") && Tool.isRoot,
            "needs sway, waybar, grim, tesseract (apt-get install sway waybar grim tesseract-ocr tesseract-ocr-eng fonts-dejavu-core) and root (sway runs as nobody)"
        ))
    func waybarInHeadlessSwayShowsTheWeather() async throws {
        let bar = try await BarDaemon.start()
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        let sway = try await HeadlessSway.start(in: dir)
        defer { sway.stop() }

        // Our style.css as pasted, then large dark text on a white bar for OCR (PITFALLS).
        let style = try dir.write(
            "style.css",
            """
            @import url("file://\(Repository.url(Snippet.waybarStyle).path)");
            * { font-family: "DejaVu Sans"; font-size: 40px; }
            window#waybar { background: #ffffff; }
            #custom-wundercast { color: #000000; }
            """)
        let waybar = try Contained(
            [try Tool.require("waybar"), "-c", Repository.url("etc/waybar/config.jsonc").path, "-s", style],
            environment: BarDaemon.environment(
                socket: bar.socketPath, sway.wayland.merging(["HOME": dir.path]) { a, _ in a }))
        defer { waybar.stop() }
        try await waybar.output.waitFor(containing: "Bar configured", timeout: .seconds(30))

        let text = try await sway.barText(Self.showsTheWeather)
        print("waybar OCR: \(text.trimmingCharacters(in: .whitespacesAndNewlines))")
        #expect(Self.showsTheWeather(text), "OCR read: \(text); waybar: \(waybar.output.text.suffix(2000))")
    }

    /// swaybar, started by a headless sway from the `bar { }` block of etc/sway-bar.conf
    /// (included as it is; a second block for the same bar only sets a large font and dark text
    /// on white for OCR). sway and swaybar run as nobody, so the snippet, `wundercastctl` and the
    /// daemon's socket are made reachable for nobody: copies in the scratch directory, and the
    /// socket's directory opened for search and the socket for writing.
    @Test(
        .enabled(
            if: Tool.exists("sway", "swaybar", "grim", "tesseract", "unshare", "setpriv") && Tool.isRoot,
            "needs sway (with swaybar), grim, tesseract (apt-get install sway grim tesseract-ocr tesseract-ocr-eng fonts-dejavu-core) and root (sway runs as nobody)"
        ))
    func swaybarInHeadlessSwayShowsTheWeather() async throws {
        let bar = try await BarDaemon.start()
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        let bin = dir.file("bin")
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: false)
        try FileManager.default.copyItem(atPath: try Binaries.path("wundercastctl"), toPath: bin + "/wundercastctl")
        guard chmod(bin, 0o755) == 0, chmod(bar.daemon.directory.path, 0o711) == 0, chmod(bar.socketPath, 0o666) == 0
        else { throw DatagramSocket.Failure(call: "chmod for nobody", errno: errno) }
        let snippet = dir.file("sway-bar.conf")
        try FileManager.default.copyItem(atPath: Repository.url("etc/sway-bar.conf").path, toPath: snippet)
        let sway = try await HeadlessSway.start(
            in: dir,
            configuration: """
                include \(snippet)
                bar bar-0 {
                    font pango:DejaVu Sans 30
                    colors {
                        background #ffffff
                        statusline #000000
                    }
                }
                """,
            environment: ["PATH": "\(bin):/usr/bin:/bin", "WUNDERCAST_SOCKET": bar.socketPath])
        defer { sway.stop() }

        let text = try await sway.barText(Self.showsTheWeather)
        print("swaybar OCR: \(text.trimmingCharacters(in: .whitespacesAndNewlines))")
        #expect(Self.showsTheWeather(text), "OCR read: \(text); sway: \(sway.sway.output.text.suffix(2000))")
    }

    /// polybar under Xvfb (`-fbdir`: the screen is a file in XWD format), converted by
    /// netpbm's xwdtopnm, read by tesseract.
    @Test(
        .enabled(
            if: Tool.exists("polybar", "Xvfb", "xwdtopnm", "tesseract", "unshare"),
            "needs polybar, Xvfb, xwdtopnm, tesseract (apt-get install polybar xvfb netpbm tesseract-ocr tesseract-ocr-eng fonts-dejavu-core)"
        ))
    func polybarUnderXvfbShowsTheWeather() async throws {
        let bar = try await BarDaemon.start()
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        // -displayfd 1: Xvfb picks a free display and writes its number to stdout once it listens.
        let xvfb = try Contained(
            [
                try Tool.require("Xvfb"), "-screen", "0", "1280x200x24", "-fbdir", dir.path, "-displayfd", "1",
                "-nolisten", "tcp",
            ], environment: ["PATH": "/usr/bin:/bin"])
        defer { xvfb.stop() }
        let number = try await xvfb.output.waitFor("Xvfb's display number", timeout: .seconds(30)) {
            Int($0.trimmingCharacters(in: .whitespaces)) != nil
        }
        // Our module as pasted (include-file), in a bar with large dark text on white for OCR.
        let config = try dir.write(
            "polybar.ini",
            """
            include-file = \(Repository.url("etc/polybar.ini").path)

            [bar/test]
            width = 100%
            height = 60
            background = #ffffff
            foreground = #000000
            font-0 = DejaVu Sans:size=28;8
            modules-left = wundercast
            """)
        let environment = BarDaemon.environment(
            socket: bar.socketPath, ["DISPLAY": ":" + number.trimmingCharacters(in: .whitespaces), "HOME": dir.path])
        let polybar = try Contained([try Tool.require("polybar"), "-c", config, "test"], environment: environment)
        defer { polybar.stop() }

        let xwdtopnm = try Tool.require("xwdtopnm")
        let screen = dir.file("Xvfb_screen0")
        let image = dir.file("polybar.pnm")
        let text = try await OCR.readUntil(
            capture: {
                let converted = try await runProcess(
                    "/bin/sh", ["-c", "\"$0\" \"$1\" > \"$2\"", xwdtopnm, screen, image],
                    environment: ["PATH": "/usr/bin:/bin"])
                return converted.status == 0 ? image : nil
            }, Self.showsTheWeather)
        print("polybar OCR: \(text.trimmingCharacters(in: .whitespacesAndNewlines))")
        #expect(Self.showsTheWeather(text), "OCR read: \(text); polybar: \(polybar.output.text.suffix(2000))")
    }
}
