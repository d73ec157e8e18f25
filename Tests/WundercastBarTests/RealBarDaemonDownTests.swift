import Foundation
import Testing
import WundercastTestSupport

/// The snippets with the daemon down, in each real bar Debian 12 packages (issue 18): the
/// screenshot read back shows the offline form, or nothing where the snippet hides it — never
/// a message of `wundercastctl`'s (a bar may show a command's stderr: polybar 3.6 does). The
/// i3status-rust snippet, whose bar Debian does not package, is run through its command
/// (``SnippetCommandTests/i3statusRustSaysTheDaemonIsDownInItsOwnNames()``).
extension RealBarTests {
    /// The offline form's words.
    static func showsOffline(_ text: String) -> Bool { text.contains("wundercast offline") }

    /// Whether `text` has words of a message of `wundercastctl`'s (the retry message:
    /// "cannot connect to … trying again in 2s").
    static func showsAMessage(_ text: String) -> Bool {
        ["trying", "again", "connect", "socket", "daemon"].contains { text.lowercased().contains($0) }
    }

    /// `kind` with its snippet and no daemon at all (no socket): OCR reads the offline form.
    static func expectTheOfflineForm(on kind: SnippetBar.Kind) async throws {
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        let bar = try await SnippetBar.start(kind, socket: dir.file("absent.sock"), in: dir)
        defer { bar.stop() }

        let text = try await bar.text(Self.showsOffline)
        print("\(kind) OCR, daemon down: \(text.trimmingCharacters(in: .whitespacesAndNewlines))")
        #expect(Self.showsOffline(text), "OCR read: \(text); \(kind): \(bar.log)")
        #expect(!Self.showsAMessage(text), "OCR read: \(text)")
    }

    @Test(.enabled(if: waybarRuns, waybarMissing))
    func waybarShowsTheOfflineFormWhileTheDaemonIsDown() async throws {
        try await Self.expectTheOfflineForm(on: .waybar)
    }

    @Test(.enabled(if: swaybarRuns, swaybarMissing))
    func swaybarShowsTheOfflineFormWhileTheDaemonIsDown() async throws {
        try await Self.expectTheOfflineForm(on: .swaybar)
    }

    /// i3blocks as the status command of swaybar (the i3bar protocol, as i3bar reads it), with
    /// the snippet `etc/i3blocks.conf` as it is.
    @Test(
        .enabled(
            if: swaybarRuns && Tool.exists("i3blocks"),
            "needs sway (with swaybar), i3blocks, grim, tesseract and root (apt-get install sway i3blocks grim tesseract-ocr tesseract-ocr-eng fonts-dejavu-core)"
        ))
    func i3blocksShowsTheOfflineFormWhileTheDaemonIsDown() async throws {
        try await Self.expectTheOfflineForm(on: .i3blocks)
    }

    /// The snippet's `--hide-offline` module, beside a clock, with a daemon that refuses every
    /// `watch` (it closes the connection): the module shows nothing and the clock stays in its
    /// place. The screen is read once three attempts were refused — by then a message for each
    /// of the first two would have been written, and polybar 3.6 shows a `tail` script's stderr
    /// in the module.
    @Test(.enabled(if: polybarRuns, polybarMissing))
    func polybarHidesTheModuleAndKeepsTheClockWhileTheDaemonIsDown() async throws {
        let dir = try ScratchDirectory()
        defer { dir.remove() }
        let daemon = try FakeDaemon(path: dir.file("refusing.sock")) { _ in .close }
        defer { daemon.stop() }
        let bar = try await SnippetBar.start(.polybar, socket: daemon.path, in: dir, with: .clock)
        defer { bar.stop() }

        _ = try await daemon.requests.wait("three attempts of the watch") { $0.count >= 3 }
        let text = try await bar.text { $0.contains("CLOCKTEST") }
        print("polybar OCR, daemon down: \(text.trimmingCharacters(in: .whitespacesAndNewlines))")
        #expect(text.split(whereSeparator: \.isWhitespace) == ["CLOCKTEST"], "only the clock: \(text); \(bar.log)")
    }
}
