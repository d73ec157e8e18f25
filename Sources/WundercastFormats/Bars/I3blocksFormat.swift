/// i3blocks: three lines, `full_text`, `short_text` and `color` (`#RRGGBB` in the colour scheme,
/// ``BarColors``; an empty line — the bar's own colour — when nothing calls for attention and no
/// `--hot`/`--cold` band applies, or with the default scheme `none`). For `now` (interval mode) the exit status is 33 (urgent) for
/// severe weather only: ``exitStatus(_:)``. With an ``IconFont`` the texts are Pango markup as
/// i3bar's (``I3barFormat``): the block needs `markup=pango` in i3blocks' configuration.
public enum I3blocksFormat {
    /// The three lines (each with its newline). `hidden`: empty lines (i3blocks hides the block).
    public static func lines(
        _ item: BarItem, hidden: Bool = false, colors: BarColors = .none, iconFont: IconFont? = nil
    ) -> String {
        if hidden { return "\n\n\n" }
        let (full, short) = I3barFormat.texts(item, iconFont: iconFont)
        return full + "\n" + short + "\n" + (colors.color(item) ?? "") + "\n"
    }

    /// The exit status i3blocks marks urgent.
    public static let urgentExitStatus: Int32 = 33

    /// 33 for severe weather, else 0.
    public static func exitStatus(_ item: BarItem) -> Int32 {
        item.isSevere ? urgentExitStatus : 0
    }
}
