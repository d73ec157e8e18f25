import WundercastSupport
import WundercastModel

/// The Moon of the state (`moon`, ``MoonDay``) in words, the same for the tooltip's "Sun and
/// moon" section and the `now` line: `waxing gibbous, 68% lit, rises 00:19, sets 09:35` — the
/// phase's name (``MoonPhase/name``, translated in its context), the illuminated fraction in
/// whole percent, moonrise and moonset on the day's own clock (each offset as published), or
/// `up all day` / `down all day`; each part only when the state has it.
public enum MoonText {
    public static func details(_ moon: MoonDay, _ locale: UserLocale = .english) -> String {
        let phase = locale.trp(MoonPhase.messageContext, moon.phase.name)
        let lit = DisplayRounding.percent(moon.illumination * 100) + "%"
        var parts = [locale.tr("{phase}, {illumination} lit", ["phase": phase, "illumination": lit])]
        if let rise = moon.rise {
            parts.append(
                locale.tr("rises {time}", ["time": locale.clock.text(rise.instant, utcOffsetSeconds: rise.utcOffset)]))
        }
        if let set = moon.set {
            parts.append(
                locale.tr("sets {time}", ["time": locale.clock.text(set.instant, utcOffsetSeconds: set.utcOffset)]))
        }
        switch moon.allDay {
        case .up?: parts.append(locale.tr("up all day"))
        case .down?: parts.append(locale.tr("down all day"))
        case nil: break
        }
        return parts.joined(separator: ", ")
    }
}
