extension ZoneOffset {
    /// The nautical time zone of `longitude` (degrees east), in seconds east of UTC: whole hours,
    /// one per 15° centred on the meridians of 0°, 15°, … (`Etc/GMT±h`), from −12 h (west of
    /// 172.5° W) to +12 h (east of 172.5° E). The clock of a place at sea, or of one with no
    /// known time zone.
    public static func nauticalOffset(longitude: Double) -> Int {
        guard longitude.isFinite else { return 0 }
        let hours = Int((min(180, max(-180, longitude)) / 15).rounded(.toNearestOrAwayFromZero))
        return hours * 3600
    }
}
