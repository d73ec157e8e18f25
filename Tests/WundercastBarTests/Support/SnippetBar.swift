import Foundation
import WundercastTestSupport

/// A real bar showing a snippet of `etc/` as it is, on a screen the test reads back: waybar or
/// swaybar (the i3bar protocol, from `etc/sway-bar.conf` or from i3blocks with
/// `etc/i3blocks.conf`) in a ``HeadlessSway``, or polybar on an ``XvfbScreen``. Each bar's
/// test set-up (large dark text on white for OCR) is its launcher's; polybar's bar also has
/// the `font-1` its snippet names for the icon (`--icon-font 2`).
struct SnippetBar {
    enum Kind: String, Sendable, CustomStringConvertible {
        case waybar, swaybar, polybar
        /// i3blocks as the status command of swaybar.
        case i3blocks
        var description: String { rawValue }
    }

    /// A module of the test's own after the snippet's (waybar and polybar).
    enum OtherModule {
        /// A script that starts once `execIf` succeeds and runs `exec`.
        case script(execIf: String, exec: String)
        /// polybar's date module showing `CLOCKTEST`.
        case clock
    }

    let kind: Kind
    /// The bar, or the display server that runs it (swaybar, i3blocks).
    let bar: Contained
    private let sway: HeadlessSway?
    private let xvfb: XvfbScreen?

    /// Shows `kind`'s snippet with `WUNDERCAST_SOCKET` set to `socket`, files in `dir`, `other`
    /// after it; `killableAlone`: see ``Contained``.
    static func start(
        _ kind: Kind, socket: String, in dir: ScratchDirectory, with other: OtherModule? = nil,
        killableAlone: Bool = false
    ) async throws -> SnippetBar {
        switch kind {
        case .waybar:
            let sway = try await HeadlessSway.start(in: dir)
            var config = Repository.url("etc/waybar/config.jsonc").path
            if case .script(let execIf, let exec) = other {
                // The snippet's module as it is, then the other one.
                let snippet =
                    try JSONSerialization.jsonObject(
                        with: Data(try JSONC.strip(try Repository.text("etc/waybar/config.jsonc")).utf8))
                    as? [String: Any]
                let whole: [String: Any] = [
                    "position": "top", "modules-right": ["custom/wundercast", "custom/other"],
                    "custom/wundercast": snippet?["custom/wundercast"] ?? [:],
                    "custom/other": ["exec-if": execIf, "exec": exec, "interval": 1],
                ]
                config = dir.file("config.json")
                try JSONSerialization.data(withJSONObject: whole).write(to: URL(fileURLWithPath: config))
            }
            let waybar = try await Waybar.start(in: sway, socket: socket, config: config, killableAlone: killableAlone)
            return SnippetBar(kind: kind, bar: waybar, sway: sway, xvfb: nil)
        case .swaybar, .i3blocks:
            let snippet = kind == .swaybar ? "etc/sway-bar.conf" : "etc/i3blocks.conf"
            let sway = try await HeadlessSway.swaybar(in: dir, snippet: snippet, socket: socket)
            return SnippetBar(kind: kind, bar: sway.sway, sway: sway, xvfb: nil)
        case .polybar:
            let screen = try await XvfbScreen.start(in: dir)
            let section: String
            switch other {
            case .script(let execIf, let exec):
                section = """
                    [module/other]
                    type = custom/script
                    exec-if = \(execIf)
                    exec = \(exec)
                    tail = true
                    interval = 1
                    """
            case .clock:
                section = "[module/other]\ntype = internal/date\ninterval = 60\ndate = CLOCKTEST"
            case nil:
                section = ""
            }
            let polybar = try Polybar.start(
                on: screen, modules: other.map { _ in ["wundercast", "other"] } ?? ["wundercast"],
                bar: "font-1 = Noto Color Emoji:scale=10;2", sections: section,
                environment: BarDaemon.environment(socket: socket), killableAlone: killableAlone)
            return SnippetBar(kind: kind, bar: polybar, sway: nil, xvfb: screen)
        }
    }

    /// The text OCR reads on the bar, retried until `accept` holds or 30 s pass; the last text read.
    func text(_ accept: @escaping @Sendable (String) -> Bool) async throws -> String {
        if let sway { return try await sway.barText(accept) }
        return try await xvfb!.text(accept)
    }

    /// The screen now as a PPM file (``PixelImage``), or `nil` when the screenshot failed.
    func capture() async throws -> String? {
        if let sway { return try await sway.capture() }
        return try await xvfb!.capture()
    }

    /// The end of what the bar (or its display server) wrote, for a failure's message.
    var log: String { String(bar.output.text.suffix(2000)) }

    func stop() {
        bar.stop()
        sway?.stop()
        xvfb?.stop()
    }
}
