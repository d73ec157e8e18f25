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

    /// The enabling condition of each bar's tests, and why a test is skipped.
    static let waybarRuns = Tool.exists("sway", "waybar", "grim", "tesseract", "unshare", "setpriv") && Tool.isRoot
    static let waybarMissing: Comment =
        "needs sway, waybar, grim, tesseract (apt-get install sway waybar grim tesseract-ocr tesseract-ocr-eng fonts-dejavu-core) and root (sway runs as nobody)"
    static let swaybarRuns = Tool.exists("sway", "swaybar", "grim", "tesseract", "unshare", "setpriv") && Tool.isRoot
    static let swaybarMissing: Comment =
        "needs sway (with swaybar), grim, tesseract (apt-get install sway grim tesseract-ocr tesseract-ocr-eng fonts-dejavu-core) and root (sway runs as nobody)"
    static let polybarRuns = Tool.exists("polybar", "Xvfb", "xwdtopnm", "tesseract", "unshare")
    static let polybarMissing: Comment =
        "needs polybar, Xvfb, xwdtopnm, tesseract (apt-get install polybar xvfb netpbm tesseract-ocr tesseract-ocr-eng fonts-dejavu-core)"

    /// `kind` with its snippet against the test daemon: OCR reads the weather; then `check`
    /// looks at the bar.
    static func expectTheWeather(
        on kind: SnippetBar.Kind, andThen check: (SnippetBar) async throws -> Void = { _ in }
    ) async throws {
        let daemon = try await BarDaemon.start()
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        let bar = try await SnippetBar.start(kind, socket: daemon.socketPath, in: dir)
        defer { bar.stop() }

        let text = try await bar.text(Self.showsTheWeather)
        print("\(kind) OCR: \(text.trimmingCharacters(in: .whitespacesAndNewlines))")
        #expect(Self.showsTheWeather(text), "OCR read: \(text); \(kind): \(bar.log)")
        try await check(bar)
    }

    /// Waybar in a headless sway (sway as nobody: it refuses root; waybar as this user, so it
    /// runs our binaries wherever the checkout is), its screenshot read by tesseract.
    @Test(.enabled(if: waybarRuns, waybarMissing))
    func waybarInHeadlessSwayShowsTheWeather() async throws { try await Self.expectTheWeather(on: .waybar) }

    /// swaybar, started by a headless sway from the `bar { }` block of etc/sway-bar.conf
    /// (included as it is; see ``HeadlessSway/swaybar(in:snippet:socket:)``).
    @Test(.enabled(if: swaybarRuns, swaybarMissing))
    func swaybarInHeadlessSwayShowsTheWeather() async throws { try await Self.expectTheWeather(on: .swaybar) }

    /// polybar under Xvfb (`-fbdir`: the screen is a file in XWD format), converted by
    /// netpbm's xwdtopnm, read by tesseract.
    @Test(.enabled(if: polybarRuns, polybarMissing))
    func polybarUnderXvfbShowsTheWeather() async throws { try await Self.expectTheWeather(on: .polybar) }
}
