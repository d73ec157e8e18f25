import Foundation
import WundercastModel

extension Fixtures {
    /// The recorded answer at `path` as text, every local date in it (a quoted `yyyy-MM-dd`, alone
    /// or beginning a `yyyy-MM-ddTHH:mm` time) moved by whole days so that `observedDate`, the
    /// local date of its observation, becomes the place's date at `now` (`utcOffsetSeconds` east
    /// of UTC); times of day are kept. Its days and hours are then current on the reader's clock,
    /// as a live answer's (a recording read as it is has only days long past).
    public static func movedToToday(
        _ path: String, observedDate: String, utcOffsetSeconds: Int, now: Date = Date()
    ) throws -> String {
        let text = String(decoding: try bytes(path), as: UTF8.self)
        guard let observed = Forecast.day(ofDateText: observedDate) else { throw CocoaError(.formatting) }
        let shift = Forecast.localDay(of: now, utcOffsetSeconds: utcOffsetSeconds) - observed
        return text.replacing(/"(\d{4}-\d{2}-\d{2})/) { match in
            guard let day = Forecast.day(ofDateText: String(match.output.1)) else { return String(match.output.0) }
            return "\"" + Forecast.dateText(day: day + shift)
        }
    }
}
