/// waybar's `custom` module with `return-type: json`: one JSON object per line with `text`,
/// `alt`, `tooltip`, `class` (array) and `percentage` (relative humidity, whole percent; left
/// out when unknown). waybar reads `text` and `tooltip` as Pango markup: both are escaped
/// (``PangoMarkup``), the tooltip's section headings are bold, and with an ``IconFont`` the
/// icon alone is put in its font.
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
    public static func line(_ item: BarItem, hidden: Bool = false, iconFont: IconFont? = nil) -> String {
        if hidden {
            return JSONText.line(Line(text: "", alt: item.alt, tooltip: "", class: item.classes)) + "\n"
        }
        let line = Line(
            text: PangoMarkup.markup(item.textRuns, iconFont: iconFont), alt: item.alt,
            tooltip: tooltip(item.tooltipSections), class: item.classes,
            percentage: item.percentage)
        return JSONText.line(line) + "\n"
    }

    /// The tooltip as Pango markup: each section's heading in bold (`<b>Now</b>`), every text
    /// escaped (``PangoMarkup``), lines joined by newlines.
    static func tooltip(_ sections: [TooltipSection]) -> String {
        sections.flatMap { section in
            (section.heading.map { ["<b>" + PangoMarkup.escape($0) + "</b>"] } ?? [])
                + section.lines.map { PangoMarkup.escape($0) }
        }.joined(separator: "\n")
    }
}
