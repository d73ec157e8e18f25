import WundercastModel

/// How far a published position may be from where the fix put the machine: the larger of the
/// fix's own error and the error of publishing it at `decimals` decimals. Home Assistant's
/// `gps_accuracy` and OwnTracks' `acc` are this, so that a consumer never takes a rounded position
/// for a finer one than it is.
public enum PositionAccuracy {
    /// The most that rounding a coordinate to `decimals` decimals moves it, in metres: half a
    /// unit of the last decimal on both axes at the equator, where a degree of longitude is
    /// longest (``WundercastModel/Coordinate/distance(to:)``): 0.79 m at 5 decimals, 7.9 m at 4,
    /// 786 m at 2. Decimals below 0 count as 0.
    public static func roundingError(decimals: Int) -> Double {
        var half = 0.5
        for _ in 0..<max(0, decimals) { half /= 10 }
        return Coordinate(latitude: 0, longitude: 0).distance(to: Coordinate(latitude: half, longitude: half))
    }

    /// The larger of `eph` (gpsd's horizontal error estimate, metres; ignored unless finite and
    /// not negative) and ``roundingError(decimals:)``, in whole metres rounded up; at most
    /// 20,037,509 (half the equator: no two points are farther apart).
    public static func wholeMetres(eph: Double?, decimals: Int) -> Int {
        var metres = roundingError(decimals: decimals)
        if let eph, eph.isFinite, eph > metres { metres = eph }
        return Int(min(metres, halfEquator).rounded(.up))
    }

    private static let halfEquator = 20_037_509.0
}
