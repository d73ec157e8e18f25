#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The JSON of `weather.forecast` (docs/PROTOCOL.md): every member as given, absent ones left
/// out; `today` and `tomorrow` are the first two of `days`, written for readers of the protocol
/// before `days` (and read back only from a state saved before `days` existed).
extension Forecast {
    enum CodingKeys: String, CodingKey {
        case hours, days, today, tomorrow, windGusts, seaLevelPressure, pressureTendency, utcOffsetSeconds
        case timeZone, nauticalTime, units
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            hours: try container.decodeIfPresent([Hour].self, forKey: .hours),
            windGusts: try container.decodeIfPresent(Double.self, forKey: .windGusts),
            seaLevelPressure: try container.decodeIfPresent(Double.self, forKey: .seaLevelPressure),
            pressureTendency: try container.decodeIfPresent(PressureTendency.self, forKey: .pressureTendency),
            utcOffsetSeconds: try container.decodeIfPresent(Int.self, forKey: .utcOffsetSeconds),
            units: try container.decodeIfPresent(Units.self, forKey: .units) ?? Units())
        if let days = try container.decodeIfPresent([Day].self, forKey: .days) {
            self.days = days
        } else if let today = try container.decodeIfPresent(Day.self, forKey: .today) {
            self.days = [today] + [try container.decodeIfPresent(Day.self, forKey: .tomorrow)].compactMap { $0 }
        }
        timeZone = try container.decodeIfPresent(String.self, forKey: .timeZone)
        nauticalTime = try container.decodeIfPresent(Bool.self, forKey: .nauticalTime)
    }

    /// Encodes every member as given (absent ones left out), `units` as ``unitsOfPresentValues``.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(hours, forKey: .hours)
        try container.encodeIfPresent(days, forKey: .days)
        try container.encodeIfPresent(today, forKey: .today)
        try container.encodeIfPresent(tomorrow, forKey: .tomorrow)
        try container.encodeIfPresent(windGusts, forKey: .windGusts)
        try container.encodeIfPresent(seaLevelPressure, forKey: .seaLevelPressure)
        try container.encodeIfPresent(pressureTendency, forKey: .pressureTendency)
        try container.encodeIfPresent(utcOffsetSeconds, forKey: .utcOffsetSeconds)
        try container.encodeIfPresent(timeZone, forKey: .timeZone)
        try container.encodeIfPresent(nauticalTime, forKey: .nauticalTime)
        try container.encode(unitsOfPresentValues, forKey: .units)
    }
}
