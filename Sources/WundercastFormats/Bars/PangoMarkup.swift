/// Pango markup, which waybar reads in a module's `text` and `tooltip`, and i3bar and swaybar
/// in a block with `"markup": "pango"` (i3blocks' blocks too, with `markup=pango` in its
/// configuration): the one escape of text for it, and the span that gives the icon its font.
enum PangoMarkup {
    /// `text` with Pango's markup characters as entities (`&amp;`, `&lt;`, `&gt;`), and the
    /// double quote too (`&quot;`) where `text` is an attribute's quoted value.
    /// Read by Unicode scalar, as Pango reads bytes: compared as `Character`s, a `<` that a
    /// prepended mark (U+0600) joins or a combining mark follows would not be `"<"` and pass.
    static func escape(_ text: String, attribute: Bool = false) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"" where attribute: out += "&quot;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// `text` as markup: every run escaped, and with a ``IconFont/family(_:)`` the icon in
    /// `<span font_family="…">`; another font (polybar's) is not Pango's and is left out.
    static func markup(_ text: RenderedText, iconFont: IconFont?) -> String {
        text.written(text: { escape($0) }) { glyph in
            guard case .family(let family) = iconFont else { return escape(glyph) }
            return "<span font_family=\"\(escape(family, attribute: true))\">\(escape(glyph))</span>"
        }
    }
}
