/// Where lookups read a city table: the table itself (``CityTable``), or the daemon's one
/// shared copy of its `cities.bin`, read again when the file changes (`CityTableFile`).
public protocol CitySource: Sendable {
    /// The result of `body` run with the table; nil when there is no table to read now. `body` should not keep the table.
    func withTable<Result>(_ body: (CityTable) -> Result) -> Result?
}

extension CityTable: CitySource {
    public func withTable<Result>(_ body: (CityTable) -> Result) -> Result? { body(self) }
}
