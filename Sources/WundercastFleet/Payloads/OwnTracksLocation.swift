#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WundercastModel

extension OwnTracksDevice {
    /// The retained `owntracks/<user>/<device>` message, a `_type=location` object as the
    /// OwnTracks apps publish it (https://owntracks.org/booklet/tech/json/#_typelocation):
    ///
    /// - `lat`, `lon`: the state's `location`, degrees, rounded to `precision` decimals
    ///   (`[MQTT] Precision=`); the daemon's published position (a gpsd fix or `Fallback=`).
    /// - `tst`: the fix's time, epoch seconds: its GPS time (`location.time`), else when the daemon
    ///   received it (`location.receivedAt`). Neither: no message (a time is never made up).
    /// - `acc`: whole metres, at least the rounding error (``PositionAccuracy``).
    /// - `tid`: ``trackerID``.
    /// - `alt` (metres), `vel` (km/h), `cog` (degrees, 0–359), integers, each only when given:
    ///   `altitude` in metres, `speed` in m/s and `track` in degrees true, as gpsd reports them
    ///   (``WundercastModel/Fix``). The daemon passes none: the fleet publishes the public view,
    ///   whose `location.motion` keeps `moving` alone (a speed and course beside a rounded
    ///   position would let a reader follow the machine).
    ///
    /// `nil` when the state has no location, no time for it, or coordinates that are not finite.
    public func locationMessage(
        _ state: WeatherState, precision: Int, altitude: Double? = nil, speed: Double? = nil, track: Double? = nil
    ) -> FleetMessage? {
        guard let location = state.location, let fixTime = location.time ?? location.receivedAt,
            let tst = Self.wholeNumber(fixTime.timeIntervalSince1970.rounded(.down))
        else { return nil }
        let published = Coordinate(latitude: location.latitude, longitude: location.longitude)
            .rounded(toDecimals: precision)
        let report = OwnTracksLocation(
            lat: published.latitude, lon: published.longitude, tst: tst,
            acc: PositionAccuracy.wholeMetres(eph: location.eph, decimals: precision), tid: trackerID,
            alt: altitude.flatMap { Self.wholeNumber($0.rounded()) },
            vel: speed.flatMap { Self.wholeNumber(($0 * 3.6).rounded()) },
            cog: track.flatMap { Self.wholeNumber($0.rounded()) }.map { ($0 % 360 + 360) % 360 })
        return FleetJSON.encode(report).map { FleetMessage(topic: topic, payload: $0) }
    }

    /// `value` as an `Int` when it is a whole number within ±2⁵³ (no trap on outside input).
    private static func wholeNumber(_ value: Double) -> Int? {
        abs(value) <= 9_007_199_254_740_992 ? Int(exactly: value) : nil
    }
}

/// OwnTracks' `_type=location` object; absent optionals are left out.
struct OwnTracksLocation: Encodable {
    var type = "location"
    var lat: Double
    var lon: Double
    var tst: Int
    var acc: Int
    var tid: String
    var alt: Int?
    var vel: Int?
    var cog: Int?

    private enum CodingKeys: String, CodingKey {
        case type = "_type"
        case lat, lon, tst, acc, tid, alt, vel, cog
    }
}
