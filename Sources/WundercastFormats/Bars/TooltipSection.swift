/// One section of a bar's tooltip: an optional heading (`Now`, `Next hours`, `Next days`,
/// `Sea`, `Sun and moon`, in the reader's language) and its lines. A bar that renders markup
/// shows the heading in bold (waybar's Pango: ``WaybarFormat``); the others get it as a plain
/// line (``BarItem/tooltip``). Texts are sanitized; each format escapes them.
public struct TooltipSection: Sendable, Equatable {
    public var heading: String?
    public var lines: [String]

    public init(heading: String? = nil, lines: [String]) {
        self.heading = heading
        self.lines = lines
    }
}
