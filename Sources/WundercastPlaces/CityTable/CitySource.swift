/// Where lookups read a city table: the table itself (``CityTable``), or the daemon's one
/// shared copy of its `cities.bin`, read again when the file changes (`CityTableFile`).
public protocol CitySource: Sendable {
    /// The result of `body` run with the table; nil when there is no table to read now. `body` should not keep the table.
    func withTable<Result>(_ body: (CityTable) -> Result) -> Result?

    /// A number that changes whenever the table lookups read changes (a file read again);
    /// answers found in an earlier table must not be served after it changed. Asking may read a
    /// changed file again (as ``withTable(_:)`` does), so ask off the reactor.
    var generation: UInt64 { get }
}

extension CitySource {
    /// A table that never changes.
    public var generation: UInt64 { 0 }
}

extension CityTable: CitySource {
    public func withTable<Result>(_ body: (CityTable) -> Result) -> Result? { body(self) }
}
