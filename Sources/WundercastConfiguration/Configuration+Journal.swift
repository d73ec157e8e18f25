extension Configuration {
    /// `[Journal]`: what the daemon's journal entries may say.
    public struct Journal: Sendable, Equatable {
        /// `Precision=` decimals of latitude/longitude in journal entries (the `WUNDERCAST_LATITUDE`
        /// and `WUNDERCAST_LONGITUDE` fields and positions in message texts), 0–6. Default 1
        /// (≈ 11 km): the journal is kept for weeks and read by administrators, so a track of
        /// where the machine was is left out unless asked for.
        public var precision: Int = 1
        public init() {}

        static func parsePrecision(_ c: inout Configuration, _ v: String) throws(InvalidValue) {
            c.journal.precision = try Configuration.decimals(
                v, in: 0...6, "decimals of latitude/longitude in the journal")
        }
    }
}
