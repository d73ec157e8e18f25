/// The Moon over one place on one local calendar day, computed on the machine from libnova's
/// positions (WundercastAstronomy's `MoonAlmanac`), never by a provider: the state's `moon`
/// member (docs/PROTOCOL.md), e.g.
/// `{"date":"2023-04-11","phase":"waningGibbous","illumination":0.678,"rise":"2023-04-11T00:19:00-07:00",
/// "set":"2023-04-11T09:35:00-07:00","timeZone":"America/Phoenix"}` (Fredonia AZ). Members without a value are
/// left out: a day may have no moonrise or no moonset (the Moon rises about 50 minutes later each
/// day), and near the poles neither.
public struct MoonDay: Sendable, Equatable, Codable {
    /// Where the Moon is on a day it neither rises nor sets.
    public enum AllDay: String, Sendable, Codable, CaseIterable {
        /// Above the horizon from midnight to midnight (its upper limb never sets).
        case up
        /// Below it all day.
        case down
    }

    /// The place's local date, `yyyy-MM-dd`.
    public var date: String
    /// The day's phase (``MoonPhase``, by the rule given there).
    public var phase: MoonPhase
    /// The instant of the day's principal phase (new moon, quarters, full moon), to the minute;
    /// absent on the days between them.
    public var phaseTime: ZonedTime?
    /// Illuminated fraction of the Moon's disk, 0–1 (three decimals), 12 hours after the day's
    /// local midnight. Source: libnova `ln_get_lunar_disk`.
    public var illumination: Double
    /// Moonrise and moonset within the day, to the minute: the Moon's upper limb on a sea-level
    /// horizon with standard refraction (34′), as in the US Naval Observatory's tables. Either
    /// may be absent. When the Moon rises or sets twice in a day (near the poles), the first.
    public var rise: ZonedTime?
    public var set: ZonedTime?
    /// `up` or `down` on a day without moonrise and moonset (near the poles); absent otherwise.
    public var allDay: AllDay?
    /// The IANA time zone whose clock the day follows (`America/Phoenix`); absent when the place's
    /// zone is not known: then the nautical zone of its longitude (``ZoneOffset/nauticalOffset(longitude:)``),
    /// which the times' offsets show.
    public var timeZone: String?

    public init(
        date: String, phase: MoonPhase, phaseTime: ZonedTime? = nil, illumination: Double, rise: ZonedTime? = nil,
        set: ZonedTime? = nil, allDay: AllDay? = nil, timeZone: String? = nil
    ) {
        self.date = date
        self.phase = phase
        self.phaseTime = phaseTime
        self.illumination = illumination
        self.rise = rise
        self.set = set
        self.allDay = allDay
        self.timeZone = timeZone
    }
}
