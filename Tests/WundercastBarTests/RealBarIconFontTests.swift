import Foundation
import Testing
import WundercastTestSupport

/// The icon in a font of its own in the real bars (issue 18, item 5), with each snippet's
/// `--icon-font` and the one icon font Debian packages, Noto Color Emoji
/// (`fonts-noto-color-emoji`): the screenshot has coloured pixels where the icon is — before
/// the text, which is black on white. (The other icon sets' fonts are not packaged by Debian:
/// their markup is checked in `IconFontTests`.)
extension RealBarTests {
    /// Debian's `fonts-noto-color-emoji` (in TEST_PACKAGES); without it these tests are skipped.
    static let hasEmojiFont = FileManager.default.fileExists(
        atPath: "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf")

    /// Expects the icon in colour on the white bar of `image`: among the runs of coloured
    /// columns the one with the most coloured pixels is dense (a fifth of the box around them
    /// or more: an emoji, not the coloured fringes of subpixel-antialiased text, which swaybar
    /// draws), the text follows it (dark pixels within 60 columns after it) and nothing comes
    /// just before.
    static func expectTheIconInColour(_ image: PixelImage, _ bar: String) {
        let rows = image.whiteRows
        let runs = image.colouredRuns(rows: rows)
        let dark = image.columns(rows: rows, where: PixelImage.isDark)
        guard let icon = runs.max(by: { $0.pixels < $1.pixels }) else {
            Issue.record("\(bar): no coloured pixel on the bar (\(rows) rows): the icon is not drawn in colour")
            return
        }
        print(
            "\(bar): the icon in colour at \(icon.first)…\(icon.last) × \(icon.top)…\(icon.bottom), density \(icon.density)"
        )
        #expect(icon.density >= 0.2, "\(bar): \(icon) is no icon in colour")
        #expect(dark.contains { (icon.last + 1)...(icon.last + 60) ~= $0 }, "\(bar): no text after the icon")
        #expect(!dark.contains { (icon.first - 60)..<icon.first ~= $0 }, "\(bar): something before the icon")
    }

    /// `kind` with its snippet against the test daemon: once OCR reads the weather, the
    /// screenshot has the icon in colour.
    static func expectTheIconInColour(on kind: SnippetBar.Kind) async throws {
        try await expectTheWeather(on: kind) { bar in
            expectTheIconInColour(try PixelImage(ppm: try #require(try await bar.capture())), "\(kind)")
        }
    }

    @Test(.enabled(if: waybarRuns && hasEmojiFont, waybarMissing))
    func waybarDrawsTheIconInTheEmojiFont() async throws { try await Self.expectTheIconInColour(on: .waybar) }

    @Test(.enabled(if: swaybarRuns && hasEmojiFont, swaybarMissing))
    func swaybarDrawsTheIconInTheEmojiFont() async throws { try await Self.expectTheIconInColour(on: .swaybar) }

    /// The snippet's `--icon-font 2` with the font its comment names as `font-1`.
    @Test(.enabled(if: polybarRuns && hasEmojiFont, polybarMissing))
    func polybarDrawsTheIconInTheEmojiFont() async throws { try await Self.expectTheIconInColour(on: .polybar) }
}
