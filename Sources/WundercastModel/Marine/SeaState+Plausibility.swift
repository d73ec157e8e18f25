/// Values no sea has, checked in the answer's own units (converted to base units) before
/// anything is converted, and left out (never corrected):
///
/// | quantity | kept when (in base units) | beyond it (records for scale) |
/// |---|---|---|
/// | wave, wind-wave and swell height | 0 … 40 m | 19 m significant height (buoy, 2013) |
/// | periods | 0 … 60 s | ~25 s swell |
/// | directions | 0 … 360° | |
/// | sea-surface temperature | −3 … 45 °C | −1.9 °C (freezing sea water), ~37 °C |
/// | current velocity | 0 … 10 m/s (36 km/h) | ~2.5 m/s Gulf Stream, ~8 m/s tidal races |
extension SeaState {
    public static func plausibleHeight(_ metres: Double) -> Bool { (0...40).contains(metres) }
    public static func plausiblePeriod(_ seconds: Double) -> Bool { (0...60).contains(seconds) }
    public static func plausibleSeaTemperature(_ celsius: Double) -> Bool { (-3...45).contains(celsius) }
    public static func plausibleCurrent(_ metresPerSecond: Double) -> Bool { (0...10).contains(metresPerSecond) }
}
