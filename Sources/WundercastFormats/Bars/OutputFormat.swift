/// The output formats of `wundercastctl --format`.
public enum OutputFormat: String, Sendable, CaseIterable {
    /// Human lines (``HumanFormat``).
    case plain
    /// The daemon's JSON object, as received.
    case json
    case waybar
    case i3blocks
    case i3statusRs = "i3status-rs"
    case polybar
    case i3bar

    /// Whether this is a status bar's format (an offline line instead of an error exit).
    public var isBar: Bool {
        switch self {
        case .plain, .json: false
        default: true
        }
    }

    /// Whether the format has a short text beside the text (i3blocks' `short_text` line,
    /// i3bar's and i3status-rust's `short_text` member), which `--short-template` shapes.
    public var hasShortText: Bool {
        switch self {
        case .i3blocks, .i3bar, .i3statusRs: true
        default: false
        }
    }

    /// Whether the format shows `--hot` and `--cold` (``TemperatureBands``): waybar as a class,
    /// i3blocks and i3bar as a colour (under `--colors dark|light`).
    public var showsTemperatureBands: Bool {
        switch self {
        case .waybar, .i3blocks, .i3bar: true
        default: false
        }
    }

    /// Whether the bar shows the condition's icon from a member of its own (i3status-rust's
    /// `icon`, ``BarItem/i3statusIcon``): then the text carries none (`{icon}` is empty).
    public var hasIconMember: Bool { self == .i3statusRs }

    /// `item` in this bar format (one line, or i3blocks' three); `nil` for plain and json.
    /// `hidden` asks for the bar's empty form (`--hide-offline`); `iconFont` puts the icon in a
    /// font of its own (``IconFont/parse(_:for:)`` gives one that fits the format).
    public func bar(
        _ item: BarItem, hidden: Bool = false, colors: BarColors = .none, iconFont: IconFont? = nil
    )
        -> String?
    {
        switch self {
        case .plain, .json: nil
        case .waybar: WaybarFormat.line(item, hidden: hidden, iconFont: iconFont)
        case .i3blocks: I3blocksFormat.lines(item, hidden: hidden, colors: colors, iconFont: iconFont)
        case .i3statusRs: I3statusRsFormat.line(item, hidden: hidden)
        case .polybar: PolybarFormat.line(item, hidden: hidden, iconFont: iconFont)
        case .i3bar: I3barFormat.line(item, hidden: hidden, colors: colors, iconFont: iconFont)
        }
    }

    /// What a stream in this format starts with (the i3bar header), else empty.
    public var preamble: String { self == .i3bar ? I3barFormat.header : "" }
}
