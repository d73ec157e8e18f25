/// waybar's `custom` module with `return-type: json`: one JSON object per line with `text`,
/// `alt`, `tooltip`, `class` (array) and `percentage` (relative humidity, whole percent; left
/// out when unknown). waybar reads `text` and `tooltip` as Pango markup, so `&`, `<`, `>` are
/// escaped (`&amp;` …).
public enum WaybarFormat {
    struct Line: Encodable {
        var text: String
        var alt: String
        var tooltip: String
        var `class`: [String]
        var percentage: Int?
    }

    /// One line (with its newline). With `hidden` (`--hide-offline` and no weather) the text is
    /// empty, which hides the module.
    public static func line(_ item: BarItem, hidden: Bool = false) -> String {
        if hidden {
            return JSONText.line(Line(text: "", alt: item.alt, tooltip: "", class: item.classes)) + "\n"
        }
        let line = Line(
            text: markup(item.text), alt: item.alt, tooltip: markup(item.tooltip.joined(separator: "\n")),
            class: item.classes, percentage: item.percentage)
        return JSONText.line(line) + "\n"
    }

    /// `text` with Pango markup's special characters escaped.
    public static func markup(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            default: out.append(character)
            }
        }
        return out
    }
}
