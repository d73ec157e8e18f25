/// The colours i3blocks and i3bar get (`--colors`, or `$WUNDERCAST_COLORS` for a user's every
/// bar): by default none — the bar's own text colour, on any theme; the urgent flag (i3blocks'
/// exit status 33, i3bar's `urgent`) stays whatever the scheme. `dark` and `light` give each
/// urgency, and each temperature band of `--hot`/`--cold`, a colour with at least 4.5:1 contrast
/// (WCAG 2) against their own background, `#000000` and `#f0f0f0`.
public enum BarColors: String, Sendable, CaseIterable {
    case none, dark, light

    /// The background each scheme is made for (`none`: any).
    public var background: String? {
        switch self {
        case .none: nil
        case .dark: "#000000"
        case .light: "#f0f0f0"
        }
    }

    /// `#RRGGBB` for `urgency`; `nil` (the bar's own colour) for idle, and always with `none`.
    public func color(_ urgency: BarItem.Urgency) -> String? {
        switch (self, urgency) {
        case (.none, _), (_, .idle), (_, .good): nil
        case (.dark, .info): "#8BE9FD"
        case (.dark, .warning): "#F1FA8C"
        case (.dark, .critical): "#FF5555"
        case (.light, .info): "#005A70"
        case (.light, .warning): "#6B4F00"
        case (.light, .critical): "#B00020"
        }
    }

    /// The colour of `item`: its urgency's; while that is idle (fresh weather, nothing severe,
    /// no alert in force: staleness and alerts win), its temperature band's (`--hot`, `--cold`);
    /// `nil` (the bar's own colour) otherwise, and always with `none`.
    public func color(_ item: BarItem) -> String? {
        if let color = color(item.urgency) { return color }
        guard item.urgency == .idle, let band = item.temperatureBand else { return nil }
        return color(band)
    }

    /// `#RRGGBB` for a temperature band, apart from the urgencies' colours; `nil` with `none`.
    public func color(_ band: TemperatureBands.Band) -> String? {
        switch (self, band) {
        case (.none, _): nil
        case (.dark, .hot): "#FFB86C"
        case (.dark, .cold): "#82AAFF"
        case (.light, .hot): "#9A3C00"
        case (.light, .cold): "#1F4FB0"
        }
    }

    /// The scheme `$WUNDERCAST_COLORS` names, else `none`.
    public static func fromEnvironment(_ value: String?) -> BarColors {
        value.flatMap(BarColors.init(rawValue:)) ?? .none
    }
}
