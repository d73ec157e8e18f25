#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WundercastModel
import WundercastFormats

/// A `WEATHER` answer in the chosen format: plain (the human line, or the template), json
/// (the line as received), or a bar format.
struct StateRenderer {
    let invocation: Invocation
    /// i3blocks' and i3bar's colours (``CommandContext/colors``).
    var colors: BarColors = .none
    /// The reader's language, clock and decimal separator (``CommandContext/locale``).
    var locale: UserLocale = .english

    /// The output for one answer, and the bar item it was made from (bar formats).
    func render(_ state: WeatherState, line: [UInt8], now: Date) -> (text: String, item: BarItem?) {
        switch invocation.format {
        case .json:
            // Valid JSON (it decoded) on one line; C1 controls escaped too (RawJSONLine).
            return (RawJSONLine.text(line) + "\n", nil)
        case .plain:
            if let template = invocation.template {
                return (
                    template.render(Placeholder.values(state, now: now, icons: invocation.icons, locale: locale))
                        + "\n",
                    nil
                )
            }
            return (HumanFormat.line(state, now: now, locale: locale) + "\n", nil)
        default:
            let item = BarItem(
                state: state, now: now, icons: invocation.icons, template: invocation.template,
                shortTemplate: invocation.shortTemplate, iconInText: !invocation.format.hasIconMember, locale: locale,
                bands: invocation.bands)
            let hidden = invocation.hideOffline && !item.hasWeather
            let text = invocation.format.bar(item, hidden: hidden, colors: colors, iconFont: invocation.iconFont)
            return (text ?? "", item)
        }
    }
}
