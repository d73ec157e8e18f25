/// polybar's `custom/script` (`tail = true` for `watch`): one line per update; an empty line
/// hides the module (`--hide-offline`). polybar 3.6 reads `%{` anywhere in the line as the start
/// of a formatting tag — actions that run commands on a click (`%{A1:…:}`) among them — and
/// has no escape for it (`%%` shows both signs), so in text a zero-width space (U+200B) is put
/// between `%` and `{`: the text shows as it is. With ``IconFont/polybarFont(_:)`` the icon
/// alone is put in that font (`%{T2}☀️%{T-}`).
public enum PolybarFormat {
    public static func line(_ item: BarItem, hidden: Bool = false, iconFont: IconFont? = nil) -> String {
        if hidden { return "\n" }
        let text = item.textRuns.written(text: escape) { glyph in
            guard case .polybarFont(let number) = iconFont else { return escape(glyph) }
            return "%{T\(number)}" + escape(glyph) + "%{T-}"
        }
        return text + "\n"
    }

    /// `text` with no `%{` left: a zero-width space after each `%` that a `{` follows.
    /// Read by Unicode scalar, as polybar reads bytes: compared as `Character`s, a `%` that a
    /// prepended mark (U+0600) joins, or a `{` a combining mark follows, would not be `"%"` or `"{"`.
    static func escape(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        var previous: Unicode.Scalar?
        for scalar in text.unicodeScalars {
            if previous == "%", scalar == "{" { out.append("\u{200B}") }
            out.append(scalar)
            previous = scalar
        }
        return String(out)
    }
}
