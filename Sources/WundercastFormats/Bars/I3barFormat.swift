/// The i3bar/swaybar protocol: a header `{"version":1}`, then an endless JSON array whose
/// elements are arrays of blocks, one per update:
/// `[{"full_text":"…","short_text":"…","name":"wundercast","color":"#FF5555","urgent":true}],`.
/// Text is plain (no `markup` member: i3bar shows it as it is); with an ``IconFont`` the block
/// has `"markup":"pango"`, its texts are escaped (``PangoMarkup``) and the icon alone is in
/// that font.
public enum I3barFormat {
    /// The header and the opening of the endless array.
    public static let header = "{\"version\":1}\n[\n"

    struct Block: Encodable {
        var name = "wundercast"
        var full_text: String
        var short_text: String
        var color: String?
        var urgent: Bool?
        var markup: String?
    }

    /// One array of blocks and the comma that continues the endless array. `hidden`: no blocks.
    public static func line(
        _ item: BarItem, hidden: Bool = false, colors: BarColors = .none, iconFont: IconFont? = nil
    ) -> String {
        if hidden { return "[],\n" }
        let (full, short) = texts(item, iconFont: iconFont)
        let block = Block(
            full_text: full, short_text: short, color: colors.color(item), urgent: item.isSevere ? true : nil,
            markup: markup(iconFont))
        return "[" + JSONText.line(block) + "],\n"
    }

    /// The block's `markup`: `pango` with a font family for the icon, else none (plain text).
    static func markup(_ iconFont: IconFont?) -> String? {
        if case .family = iconFont { "pango" } else { nil }
    }

    /// `full_text` and `short_text`: as they are, or as Pango markup with a font family for the
    /// icon (i3blocks' lines too).
    static func texts(_ item: BarItem, iconFont: IconFont?) -> (full: String, short: String) {
        guard markup(iconFont) != nil else { return (item.text, item.shortText) }
        return (
            PangoMarkup.markup(item.textRuns, iconFont: iconFont),
            PangoMarkup.markup(item.shortTextRuns, iconFont: iconFont)
        )
    }
}
