import Foundation
import WundercastTestSupport

/// An X server whose screen is a file (Xvfb `-fbdir`, in XWD format) for polybar, read back as
/// PPM (netpbm's xwdtopnm) by tesseract and ``PixelImage``.
struct XvfbScreen {
    let server: Contained
    /// `:N`, for `DISPLAY`.
    let display: String
    let directory: ScratchDirectory

    /// Starts Xvfb (1280×200, 24 bits) with its screen file in `directory`, and returns once it
    /// listens.
    static func start(in directory: ScratchDirectory) async throws -> XvfbScreen {
        // -displayfd 1: Xvfb picks a free display and writes its number to stdout once it listens.
        let server = try Contained(
            [
                try Tool.require("Xvfb"), "-screen", "0", "1280x200x24", "-fbdir", directory.path, "-displayfd", "1",
                "-nolisten", "tcp",
            ], environment: ["PATH": "/usr/bin:/bin"])
        let number = try await server.output.waitFor("Xvfb's display number", timeout: .seconds(30)) {
            Int($0.trimmingCharacters(in: .whitespaces)) != nil
        }
        return XvfbScreen(
            server: server, display: ":" + number.trimmingCharacters(in: .whitespaces), directory: directory)
    }

    /// The screen now as a PPM file, or `nil` when the conversion failed (take another).
    func capture() async throws -> String? {
        let image = directory.file("screen.ppm")
        let converted = try await runProcess(
            "/bin/sh",
            ["-c", "\"$0\" \"$1\" > \"$2\"", try Tool.require("xwdtopnm"), directory.file("Xvfb_screen0"), image],
            environment: ["PATH": "/usr/bin:/bin"])
        return converted.status == 0 ? image : nil
    }

    /// The text OCR reads on the screen, retried until `accept` holds or 30 s pass (see
    /// ``OCR/readUntil(timeout:capture:_:)``); the last text read.
    func text(_ accept: @escaping @Sendable (String) -> Bool) async throws -> String {
        try await OCR.readUntil(capture: { try await capture() }, accept)
    }

    func stop() { server.stop() }
}

/// polybar on an ``XvfbScreen``: `etc/polybar.ini` as pasted (`include-file`), in a bar
/// `[bar/test]` with large dark text on white for OCR (DejaVu Sans 28 as `font-0`).
enum Polybar {
    /// Starts polybar with `modules` on the left of the bar; `bar` adds lines to the bar's
    /// section (more fonts), `sections` whole sections of the test's own.
    static func start(
        on screen: XvfbScreen, modules: [String], bar: String = "", sections: String = "",
        environment: [String: String], killableAlone: Bool = false
    ) throws -> Contained {
        let config = try screen.directory.write(
            "polybar.ini",
            """
            include-file = \(Repository.url("etc/polybar.ini").path)

            [bar/test]
            width = 100%
            height = 60
            background = #ffffff
            foreground = #000000
            font-0 = DejaVu Sans:size=28;8
            \(bar)
            modules-left = \(modules.joined(separator: " "))

            \(sections)
            """)
        var env = environment
        env["DISPLAY"] = screen.display
        env["HOME"] = screen.directory.path
        return try Contained(
            [try Tool.require("polybar"), "-c", config, "test"], environment: env, killableAlone: killableAlone)
    }
}
