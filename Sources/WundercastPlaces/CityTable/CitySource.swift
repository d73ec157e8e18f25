/// Where lookups read a city table: the table itself (``CityTable``), or a file that is
/// mapped for each lookup and unmapped after it (the daemon's `cities.bin`), so that between
/// lookups none of the table is resident.
public protocol CitySource: Sendable {
    /// The result of `body` run with the table; nil when the table cannot be read now (its
    /// file changed and is no longer a valid table). `body` should not keep the table.
    func withTable<Result>(_ body: (CityTable) -> Result) -> Result?
}

extension CityTable: CitySource {
    public func withTable<Result>(_ body: (CityTable) -> Result) -> Result? { body(self) }
}
