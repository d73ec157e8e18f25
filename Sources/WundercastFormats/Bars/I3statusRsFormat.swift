/// i3status-rust's `custom` block with `json = true`: one object per line,
/// `{"icon":"weather_sun","state":"Idle","short_text":"…","text":"…"}`. `icon` is an icon
/// name of i3status-rust's icon sets (``BarItem/i3statusIcon``), `state` one of `Idle`,
/// `Info`, `Good`, `Warning`, `Critical`. The block shows the icon before the text, so the
/// texts carry none of their own (``OutputFormat/hasIconMember``: `{icon}` is empty in them).
/// i3status-rust escapes the text itself (`$text.pango-str()`).
public enum I3statusRsFormat {
    struct Line: Encodable {
        var icon: String
        var state: String
        var text: String
        var short_text: String
    }

    /// One line (with its newline). `hidden`: an empty text (with `hide_when_empty` the block hides).
    public static func line(_ item: BarItem, hidden: Bool = false) -> String {
        if hidden { return JSONText.line(Line(icon: "", state: "Idle", text: "", short_text: "")) + "\n" }
        return JSONText.line(
            Line(icon: item.i3statusIcon, state: item.urgency.rawValue, text: item.text, short_text: item.shortText))
            + "\n"
    }
}
