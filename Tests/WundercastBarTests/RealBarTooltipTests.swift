import Foundation
import Testing
import WundercastTestSupport

/// The tooltip in sections (issue 19, item 3) as the real waybar shows it: the snippet's module
/// against a daemon serving a recorded Open-Meteo answer with hours and days, a pointer held
/// over the module (``VirtualPointer``: a headless sway has no other), and the screen read back
/// by tesseract. The expected lines come from the daemon's own waybar JSON; the screen must show
/// the headings the issue names, each on a line of its own (they are bold, which OCR cannot
/// tell), and the first hour's and the last day's line.
extension RealBarTests {
    /// The recorded answer (New York, February 2026): 12 hours and 3 days.
    static let forecastAnswer = "weather/open-meteo/forecast_newyork_daily.json"
    /// The headings the tooltip must show, in this order (the English of `TooltipSection`'s).
    static let headings = ["Now", "Next hours", "Next days", "Sun and moon"]
    /// The screen's height: room below the bar for the whole tooltip.
    static let screenHeight = 1000

    /// The lines of section `heading` in waybar's tooltip markup (its line, bold or not, up to
    /// the next heading, `<b>` line or empty line), or `nil` when there is no such heading.
    static func section(_ heading: String, of tooltip: String) -> [String]? {
        let lines = tooltip.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let isHeading = { (line: String) in
            line.hasPrefix("<b>") || headings.contains(line)
        }
        guard let start = lines.firstIndex(where: { $0 == heading || $0 == "<b>\(heading)</b>" }) else { return nil }
        return Array(lines[(start + 1)...].prefix { !isHeading($0) && !$0.isEmpty })
    }

    /// What OCR can read of a tooltip line: its first word (an hour or a day's name) and its
    /// first temperature (the icon between them is an emoji, which OCR reads as noise).
    static func readable(_ line: String) -> (first: String, temperature: String)? {
        let words = line.split(separator: " ").map(String.init)
        guard let first = words.first,
            let temperature = words.first(where: { $0.hasSuffix("°C") || $0.hasSuffix("°F") })
        else { return nil }
        return (first, temperature)
    }

    /// Whether OCR's `text` shows every heading on a line of its own and a line with both parts
    /// of each of `expected`.
    static func showsTheSections(_ text: String, _ expected: [(first: String, temperature: String)]) -> Bool {
        let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        return headings.allSatisfy(lines.contains)
            && expected.allSatisfy { line in lines.contains { $0.contains(line.first) && $0.contains(line.temperature) }
            }
    }

    @Test(.enabled(if: waybarRuns, waybarMissing))
    func waybarShowsTheTooltipInSections() async throws {
        // Moved to today: the reader's clock leaves out days and hours already over.
        let daemon = try await BarDaemon.start(
            body: try Fixtures.movedToToday(Self.forecastAnswer, observedDate: "2026-02-06", utcOffsetSeconds: -18_000))
        let face = try await runProcess(
            try Binaries.path("wundercastctl"), ["now", "--format", "waybar"], environment: daemon.environment)
        let tooltip = try #require(jsonObject(face.stdout)?["tooltip"] as? String, "\(face.stdout)")
        for heading in Self.headings {
            #expect(Self.section(heading, of: tooltip)?.isEmpty == false, "no section \(heading): \(tooltip)")
            #expect(tooltip.contains("\n<b>\(heading)</b>\n") || tooltip.hasPrefix("<b>\(heading)</b>\n"), "\(tooltip)")
        }
        let hour = try #require(Self.section("Next hours", of: tooltip)?.first.flatMap(Self.readable), "\(tooltip)")
        let day = try #require(Self.section("Next days", of: tooltip)?.last.flatMap(Self.readable), "\(tooltip)")

        let dir = try ScratchDirectory()
        defer { dir.remove() }
        let sway = try await HeadlessSway.start(in: dir, height: Self.screenHeight)
        defer { sway.stop() }
        // The tooltip dark on white too, smaller than the bar's 40 px, to fit the screen.
        let waybar = try await Waybar.start(
            in: sway, socket: daemon.socketPath,
            style: "tooltip { background: #ffffff; } tooltip label { color: #000000; font-size: 20px; }")
        defer { waybar.stop() }
        let bar = try await sway.barText { $0.contains("°") }
        print("waybar OCR: \(bar.trimmingCharacters(in: .whitespacesAndNewlines))")

        // The pointer on the middle of the module's text, found on the screen.
        let image = try PixelImage(ppm: try #require(try await sway.capture(), "no screenshot"))
        let rows = image.whiteRows
        let text = image.columns(rows: rows, where: PixelImage.isDark)
        let (left, right) = (try #require(text.first, "nothing drawn on the bar"), text.last!)
        let pointer = try VirtualPointer(in: sway)
        defer { pointer.close() }
        try pointer.move(toX: (left + right) / 2, y: rows / 2, width: 1280, height: Self.screenHeight)

        // Below the bar, where the tooltip opens; PPM, read by tesseract and ``PixelImage``.
        let shot = dir.file("screen.ppm")
        let grim = try Tool.require("grim")
        let environment = sway.wayland.merging(["PATH": "/usr/bin:/bin"]) { a, _ in a }
        let screen = try await OCR.readUntil(
            capture: {
                let result = try await runProcess(
                    grim, ["-t", "ppm", "-g", "0,\(rows) 1280x\(Self.screenHeight - rows)", shot],
                    environment: environment)
                return result.status == 0 ? shot : nil
            }, { Self.showsTheSections($0, [hour, day]) })
        print("tooltip OCR:\n\(screen)")
        let lines = screen.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        for heading in Self.headings {
            #expect(lines.contains(heading), "\(heading) is not a line of its own on screen: \(screen)")
        }
        #expect(
            zip(Self.headings, Self.headings.dropFirst()).allSatisfy { a, b in
                (lines.firstIndex(of: a) ?? .max) < (lines.firstIndex(of: b) ?? .min)
            }, "the headings out of order: \(screen)")
        for line in [hour, day] {
            #expect(
                lines.contains { $0.contains(line.first) && $0.contains(line.temperature) },
                "no line with \(line.first) and \(line.temperature) on screen: \(screen)")
        }
        try await Self.expectBoldHeadings(in: shot)
    }

    /// Expects the words of the heading lines in the image at `path` drawn with wider strokes
    /// (``PixelImage/strokeWidth(of:)``) than nine in ten of the words of the other lines
    /// (words of 3 letters or more, read with confidence: not an emoji read as letters). Here
    /// (DejaVu Sans, 20 px) bold strokes are 4 px, regular ones 2 or 3 px.
    static func expectBoldHeadings(in path: String) async throws {
        let words = try await OCR.words(path)
        let image = try PixelImage(ppm: path)
        let lines = Dictionary(grouping: words, by: \.line)
        let isHeading = { (word: OCRWord) in
            headings.contains(lines[word.line]!.map(\.text).joined(separator: " "))
        }
        let bold = words.filter(isHeading).map { ($0.text, image.strokeWidth(of: $0) ?? 0) }
        let regular = words.filter {
            !isHeading($0) && $0.confidence >= 80 && $0.text.count >= 3 && $0.text.allSatisfy(\.isLetter)
        }.compactMap { image.strokeWidth(of: $0) }.sorted()
        print("stroke widths: headings \(bold), the other words \(regular)")
        let regularWidth = try #require(
            regular.isEmpty ? nil : regular[regular.count * 9 / 10], "no other words read: \(words)")
        #expect(bold.count >= headings.count, "\(bold)")
        for (word, width) in bold {
            #expect(
                width > regularWidth, "\(word) is not bold: strokes of \(width) px, the other words' \(regularWidth) px"
            )
        }
    }
}
