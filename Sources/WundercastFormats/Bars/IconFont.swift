import WundercastSupport

/// `--icon-font`: the font a bar shows the condition icon in, apart from the text around it —
/// for icon sets whose code points other fonts use for other glyphs (Weather Icons' U+F0xx are
/// Font Awesome's too: ✖ for a clear day, an envelope for fog), and for an emoji font of its
/// own size. Only the `{icon}` run gets the font (``RenderedText``); every other text stays
/// escaped by its bar's format.
public enum IconFont: Sendable, Equatable {
    /// A font family for Pango markup — waybar's text, and i3bar/swaybar's (i3blocks' through
    /// them) with markup `pango` — written as `<span font_family="…">`.
    case family(String)
    /// polybar's font number as its `%{T…}` tag counts it: 1 is `font-0`, 2 is `font-1`.
    case polybarFont(Int)

    /// Why a value was refused; `message` names it.
    public struct Invalid: Error, Sendable, Equatable {
        public var message: String
    }

    /// The longest family name taken, in characters.
    static let maxFamilyLength = 100

    /// The font `text` names for `format`: a family name for waybar, i3bar and i3blocks, a
    /// number from 1 to 99 for polybar. Throws ``Invalid`` for another format (plain and json
    /// have no fonts; i3status-rust draws its own icons), an empty or overlong family, one with
    /// control characters, or a polybar value that is not such a number.
    public static func parse(_ text: String, for format: OutputFormat) throws(Invalid) -> IconFont {
        let shown = UntrustedText.sanitized(text, limit: 40)
        switch format {
        case .waybar, .i3bar, .i3blocks:
            guard !text.isEmpty, text.count <= maxFamilyLength,
                text.unicodeScalars.allSatisfy({ !UntrustedText.isControl($0) && $0.value >= 0x20 })
            else {
                throw Invalid(
                    message:
                        "--icon-font '\(shown)': expected a font family of at most \(maxFamilyLength) characters (e.g. 'Noto Color Emoji')"
                )
            }
            return .family(text)
        case .polybar:
            guard let number = Int(text), (1...99).contains(number) else {
                throw Invalid(
                    message:
                        "--icon-font '\(shown)' for polybar: expected the font's number in %{T…}, 1 to 99 (2 is font-1)"
                )
            }
            return .polybarFont(number)
        case .plain, .json, .i3statusRs:
            throw Invalid(
                message: "--icon-font is for the waybar, i3bar, i3blocks and polybar formats, not \(format.rawValue)")
        }
    }
}
