/// The i3bar/swaybar protocol: a header `{"version":1}`, then an endless JSON array whose
/// elements are arrays of blocks, one per update:
/// `[{"full_text":"…","short_text":"…","name":"wundercast","color":"#FF5555","urgent":true}],`.
/// Text is plain (no `markup` member: i3bar shows it as it is).
public enum I3barFormat {
    /// The header and the opening of the endless array.
    public static let header = "{\"version\":1}\n[\n"

    struct Block: Encodable {
        var name = "wundercast"
        var full_text: String
        var short_text: String
        var color: String?
        var urgent: Bool?
    }

    /// One array of blocks and the comma that continues the endless array. `hidden`: no blocks.
    public static func line(_ item: BarItem, hidden: Bool = false, colors: BarColors = .none) -> String {
        if hidden { return "[],\n" }
        let block = Block(
            full_text: item.text, short_text: item.shortText, color: colors.color(item.urgency),
            urgent: item.isSevere ? true : nil)
        return "[" + JSONText.line(block) + "],\n"
    }
}
