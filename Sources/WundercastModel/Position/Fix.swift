#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The NMEA/gpsd fix mode, as gpsd reports it in a TPV's `mode`.
public enum FixMode: Int, Sendable, Codable, Comparable {
    /// Mode not seen yet (gpsd `0`).
    case unknown = 0
    /// No fix (gpsd `1`).
    case noFix = 1
    /// Two-dimensional fix: latitude and longitude, no altitude (gpsd `2`).
    case twoD = 2
    /// Three-dimensional fix (gpsd `3`).
    case threeD = 3

    public static func < (lhs: FixMode, rhs: FixMode) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// One TPV (time-position-velocity) report as libgps hands it over, before any judgement.
///
/// Mirrors the fields of libgps's `gps_data_t.fix` that wundercast reads; values gpsd did
/// not report are NaN, as in libgps. Built by the gpsd adapter, judged by ``Fix/init(report:)``.
public struct TPVReport: Sendable, Equatable {
    /// `LATLON_SET` was set in `gps_data_t.set` by this read (not by an earlier one).
    public var latLonSet: Bool
    /// `fix.mode` (0 unknown, 1 no fix, 2 2D, 3 3D).
    public var mode: Int
    /// `fix.latitude`, degrees north (WGS 84); NaN when not reported.
    public var latitude: Double
    /// `fix.longitude`, degrees east (WGS 84); NaN when not reported.
    public var longitude: Double
    /// `fix.time` in seconds since 1970 UTC; `nil` when gpsd left it at {0,0} (no `"time"`).
    public var time: Double?
    /// `fix.eph`: estimated horizontal position error, metres; NaN when not reported.
    public var eph: Double
    /// `fix.epx`/`fix.epy`: longitude/latitude error estimates, metres; NaN when not reported.
    public var epx: Double
    public var epy: Double
    /// `fix.altHAE`, metres; `fix.speed`, m/s; `fix.track`, degrees true. NaN when not reported.
    public var altitude: Double
    public var speed: Double
    public var track: Double

    public init(
        latLonSet: Bool, mode: Int, latitude: Double, longitude: Double, time: Double? = nil,
        eph: Double = .nan, epx: Double = .nan, epy: Double = .nan,
        altitude: Double = .nan, speed: Double = .nan, track: Double = .nan
    ) {
        self.latLonSet = latLonSet
        self.mode = mode
        self.latitude = latitude
        self.longitude = longitude
        self.time = time
        self.eph = eph
        self.epx = epx
        self.epy = epy
        self.altitude = altitude
        self.speed = speed
        self.track = track
    }
}

/// A position fix that passed the acceptance rules: mode 2D or better, finite coordinates
/// within range, reported by this very read.
public struct Fix: Sendable, Equatable {
    /// Position (WGS 84). Source: gpsd TPV `lat`/`lon`, or the configured fallback place.
    public var coordinate: Coordinate
    /// Fix mode; ``FixMode/twoD`` or ``FixMode/threeD``.
    public var mode: FixMode
    /// GPS time of the fix, if the report carried one. Never used for throttling: replayed
    /// and real receivers jump backwards and into the future (PITFALLS).
    public var time: Date?
    /// Horizontal error estimate in metres: gpsd `eph`, else `sqrt(epx² + epy²)`; `nil` if unknown.
    public var horizontalError: Double?
    /// Altitude (HAE) in metres, speed in m/s, course in degrees true; `nil` when not reported.
    public var altitude: Double?
    public var speed: Double?
    public var track: Double?

    public init(
        coordinate: Coordinate, mode: FixMode, time: Date? = nil, horizontalError: Double? = nil,
        altitude: Double? = nil, speed: Double? = nil, track: Double? = nil
    ) {
        self.coordinate = coordinate
        self.mode = mode
        self.time = time
        self.horizontalError = horizontalError
        self.altitude = altitude
        self.speed = speed
        self.track = track
    }

    /// Judges one TPV report (PITFALLS, libgps): accepted only when this read set
    /// `LATLON_SET`, `mode >= 2`, and both coordinates are finite and in range. A
    /// zero-initialised `gps_data_t` (lat/lon 0,0, nothing set) is therefore never a fix.
    /// Returns `nil` for anything else.
    public init?(report: TPVReport) {
        guard report.latLonSet, report.mode >= FixMode.twoD.rawValue,
            report.latitude.isFinite, report.longitude.isFinite,
            abs(report.latitude) <= 90, abs(report.longitude) <= 180
        else { return nil }
        let error: Double?
        if report.eph.isFinite && report.eph >= 0 {
            error = report.eph
        } else if report.epx.isFinite && report.epy.isFinite {
            error = (report.epx * report.epx + report.epy * report.epy).squareRoot()
        } else {
            error = nil
        }
        self.init(
            coordinate: Coordinate(latitude: report.latitude, longitude: report.longitude),
            mode: report.mode >= 3 ? .threeD : .twoD,
            time: report.time.map { Date(timeIntervalSince1970: $0) },
            horizontalError: error,
            altitude: report.altitude.isFinite ? report.altitude : nil,
            speed: report.speed.isFinite ? report.speed : nil,
            track: report.track.isFinite ? report.track : nil)
    }

    /// Whether the fix is good enough to use: its horizontal error is at most `bound` metres.
    /// A fix whose error is unknown (an RMC-only receiver reports no HDOP) is accepted.
    public func isWithin(horizontalError bound: Double) -> Bool {
        guard let horizontalError else { return true }
        return horizontalError <= bound
    }
}
