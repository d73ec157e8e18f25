import WundercastSupport

extension Configuration {
    /// `[Cache]`: the last published weather kept on disk, so that a restarted daemon shows it
    /// (as `stale`) at once, before the network is up (``LastState``).
    public struct CacheSettings: Sendable, Equatable {
        /// `Enabled=` yes | no: keep the last weather on disk and read it at start-up. With `no`
        /// nothing is read or written (a file already there is left alone). Default yes.
        public var enabled: Bool = true
        /// `Path=` absolute path of the file. `nil` (unset or empty): `state.json` in systemd's
        /// `$CACHE_DIRECTORY` (its first directory; the unit's `CacheDirectory=`), and nothing
        /// is kept when that is not set either. Default `nil`.
        public var path: String? = nil
        /// `Precision=` decimals of latitude/longitude kept with the weather, 0–4; never finer
        /// than `[Weather] Precision=` (what is published). Default 2 (≈1.1 km).
        public var precision: Int = 2
        /// `ClockSyncFile=` the file whose existence says that the wall clock is synchronised
        /// (systemd-timesyncd's); until it exists (or a GPS fix confirms the clock) the age of
        /// weather kept from before the restart is unknown. `nil` (empty): the clock is always
        /// trusted (a machine with a real-time clock). Default `/run/systemd/timesync/synchronized`.
        public var clockSyncFile: String? = "/run/systemd/timesync/synchronized"
        public init() {}
    }

    /// The `[Cache]` section (``CacheSettings``).
    static let cacheSection = Section(
        name: "Cache",
        keys: [
            Key(name: "Enabled") { (c, v) throws(InvalidValue) in c.cache.enabled = try boolean(v) },
            Key(name: "Path") { (c, v) throws(InvalidValue) in c.cache.path = v.isEmpty ? nil : try filePath(v) },
            Key(name: "Precision") { (c, v) throws(InvalidValue) in
                c.cache.precision = try decimals(v, in: 0...4, "decimals of the position kept")
            },
            Key(name: "ClockSyncFile") { (c, v) throws(InvalidValue) in
                c.cache.clockSyncFile = v.isEmpty ? nil : try filePath(v)
            },
        ])

    /// A boolean as systemd writes them: `yes`/`true`/`on`/`1` or `no`/`false`/`off`/`0`, any case.
    static func boolean(_ v: String) throws(InvalidValue) -> Bool {
        switch v.lowercased() {
        case "yes", "true", "on", "1": true
        case "no", "false", "off", "0": false
        default: throw InvalidValue("is not a boolean (yes or no)")
        }
    }

    /// An absolute path naming a file (not ending in `/`), without control characters.
    static func filePath(_ v: String) throws(InvalidValue) -> String {
        guard v.hasPrefix("/") else { throw InvalidValue("is not an absolute path") }
        guard !v.hasSuffix("/") else { throw InvalidValue("names a directory, not a file") }
        guard !v.unicodeScalars.contains(where: UntrustedText.isControl) else {
            throw InvalidValue("contains control characters")
        }
        guard v.utf8.count <= 4095 else { throw InvalidValue("is longer than 4095 bytes (PATH_MAX)") }
        return v
    }
}
