#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WundercastModel

/// When `watch` shows the last state again without asking the daemon (issue 18): every age it
/// printed ("2 min ago") stays true within a minute between the daemon's lines, which may be
/// `MaxAge` apart. A state machine as a struct, on any clock (the command's monotonic one, a
/// manual one in tests).
///
/// - It looks again ``period`` (1 min) after the last line was printed or looked at — never
///   more often than `watch every SPAN`'s span, and never in `--format json` (the daemon's line
///   as received, whose `ageSeconds` a reader computes on).
/// - The state looked at is the last one received, its ages grown by the time since it arrived
///   (``WundercastModel/WeatherState/aged(by:)``); it is printed only when its text differs from
///   the last printed.
struct WatchRefresh<Instant: InstantProtocol> where Instant.Duration == Duration {
    static var period: Duration { .seconds(60) }

    /// Between two looks; `nil`: never (json).
    let interval: Duration?
    private var last: (state: WeatherState, text: String, received: Instant, looked: Instant)?

    /// - Parameters:
    ///   - every: `watch every SPAN`'s span.
    ///   - enabled: `false` in `--format json`.
    init(every: Duration?, enabled: Bool) {
        interval = enabled ? max(Self.period, every ?? .zero) : nil
    }

    /// When to look next; `nil` before a state arrived, or never.
    var nextLook: Instant? {
        guard let interval, let last else { return nil }
        return last.looked.advanced(by: interval)
    }

    /// A state arrived and `text` was printed for it at `now`.
    mutating func arrived(_ state: WeatherState, printed text: String, at now: Instant) {
        last = (state, text, now, now)
    }

    /// At `now` (at or after ``nextLook``): the text to print, when the last state aged since it
    /// arrived reads differently (`render` makes the text of a state); else `nil`.
    mutating func look(at now: Instant, render: (WeatherState) -> String) -> String? {
        guard var last else { return nil }
        let text = render(last.state.aged(by: last.received.duration(to: now)))
        last.looked = now
        defer { self.last = last }
        guard text != last.text else { return nil }
        last.text = text
        return text
    }
}

extension WeatherState {
    /// This state as a reader sees it `elapsed` after it arrived: each age it gives
    /// (`ageSeconds`, `location.ageSeconds`) grown by the whole seconds elapsed. An absent age
    /// stays absent (``ageUnknown``).
    func aged(by elapsed: Duration) -> WeatherState {
        let seconds = Int(max(.zero, elapsed).components.seconds)
        var copy = self
        copy.ageSeconds = ageSeconds.map { $0 + seconds }
        copy.location?.ageSeconds = location?.ageSeconds.map { $0 + seconds }
        return copy
    }
}
