/// i3blocks: three lines, `full_text`, `short_text` and `color` (`#RRGGBB`; `#FFFFFF` when
/// nothing calls for attention). For `now` (interval mode) the exit status is 33 (urgent) for
/// severe weather only: ``exitStatus(_:)``.
public enum I3blocksFormat {
    /// The three lines (each with its newline). `hidden`: empty lines (i3blocks hides the block).
    public static func lines(_ item: BarItem, hidden: Bool = false) -> String {
        if hidden { return "\n\n\n" }
        return item.text + "\n" + item.shortText + "\n" + (item.urgency.color ?? "#FFFFFF") + "\n"
    }

    /// The exit status i3blocks marks urgent.
    public static let urgentExitStatus: Int32 = 33

    /// 33 for severe weather, else 0.
    public static func exitStatus(_ item: BarItem) -> Int32 {
        item.isSevere ? urgentExitStatus : 0
    }
}
