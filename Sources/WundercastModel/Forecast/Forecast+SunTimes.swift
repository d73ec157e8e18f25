#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Forecast {
    /// This forecast with each day's sunrise and sunset computed at `coordinate`
    /// (``Sun/day(at:on:utcOffset:horizon:)``, the solar day nearest local noon of the day's
    /// `date` on ``utcOffsetSeconds``, else the longitude's nautical offset) in place of the
    /// provider's. A time the day did not have stays out (the provider gave none, or the sun
    /// neither rises nor sets there); a day whose `date` is not `yyyy-MM-dd` loses both.
    ///
    /// For the public view: sunrise and sunset to the second at the precise position would tell
    /// a reader that position (solar noon gives the longitude, the day's length the latitude).
    public func withSunTimes(at coordinate: Coordinate) -> Forecast {
        guard let days else { return self }
        var copy = self
        let offset = utcOffsetSeconds ?? ZoneOffset.nauticalOffset(longitude: coordinate.longitude)
        copy.days = days.map { day in
            guard day.sunrise != nil || day.sunset != nil else { return day }
            var day = day
            guard let number = Forecast.day(ofDateText: day.date) else {
                (day.sunrise, day.sunset) = (nil, nil)
                return day
            }
            let sun = Sun.day(at: coordinate, on: CivilDate(daysSince1970: number), utcOffset: offset)
            day.sunrise = day.sunrise == nil ? nil : sun.sunrise
            day.sunset = day.sunset == nil ? nil : sun.sunset
            return day
        }
        return copy
    }
}
