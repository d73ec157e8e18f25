/// Resolves place names (`weather PLACE`, `Fallback=PLACE`, `around PLACE`): on the machine
/// first (the city table's ``CityTable/search(_:limit:)``), then online through a
/// ``PlaceGeocoder`` when one is given (`[Places] OnlineGeocoding=yes`, the default).
///
/// Answers are cached, found places and "no such place" alike, for at most ``cacheLimit``
/// names (the least recently used goes first); a failed online lookup is not cached, so the
/// next request tries again. Names are never logged (other users' lookups are theirs).
/// The search runs on the actor's executor, never on the caller's (the socket loop).
public actor PlaceResolver {
    /// Names remembered at most.
    public let cacheLimit: Int
    private let table: (any CitySource)?
    private let geocoder: (any PlaceGeocoder)?
    private var cache: [String: (result: Result<City, PlaceError>, used: UInt64)] = [:]
    private var clock: UInt64 = 0
    /// Online lookups made (for tests and `status`).
    public private(set) var onlineLookups = 0

    /// - Parameters:
    ///   - table: the city table (or where to read it), or nil when there is none (`Cities=`
    ///     empty or unreadable).
    ///   - geocoder: the online geocoder, or nil when online geocoding is off.
    ///   - cacheLimit: names remembered at most (at least 1).
    public init(table: (any CitySource)?, geocoder: (any PlaceGeocoder)?, cacheLimit: Int = 256) {
        self.table = table
        self.geocoder = geocoder
        self.cacheLimit = max(1, cacheLimit)
    }

    /// The best place for `query` (`Tromsø`, `Los Angeles, CA`): the table's best match, else
    /// the online geocoder's first result.
    ///
    /// - Throws: ``PlaceError/noSuchPlace(name:)`` when neither knows the name (also for an
    ///   empty name, and when there is no geocoder), ``PlaceError/geocodingUnavailable(name:reason:)``
    ///   when the table does not know it and the online lookup failed.
    public func resolve(_ query: String) async throws(PlaceError) -> City {
        let name = UntrustedText.sanitized(query)
        let key = NameFolding.folded(name)
        clock += 1
        if let cached = cache[key] {
            cache[key]?.used = clock
            return try cached.result.get()
        }
        let result: Result<City, PlaceError>
        if key.isEmpty {
            result = .failure(.noSuchPlace(name: name))
        } else if let city = table?.withTable({ $0.search(name, limit: 1).first }) ?? nil {
            result = .success(city)
        } else if let geocoder {
            onlineLookups += 1
            do throws(PlaceError) {
                let cities = try await geocoder.search(name)
                guard let first = cities.first else { throw .noSuchPlace(name: name) }
                result = .success(first)
            } catch .geocodingUnavailable(let name, let reason) {
                throw .geocodingUnavailable(name: name, reason: reason)  // not cached: try again next time
            } catch {
                result = .failure(error)
            }
        } else {
            result = .failure(.noSuchPlace(name: name))
        }
        remember(key, result)
        return try result.get()
    }

    private func remember(_ key: String, _ result: Result<City, PlaceError>) {
        if cache.count >= cacheLimit, cache[key] == nil,
            let oldest = cache.min(by: { $0.value.used < $1.value.used })?.key
        {
            cache[oldest] = nil
        }
        clock += 1
        cache[key] = (result, clock)
    }

    /// Names in the cache now.
    public var cachedCount: Int { cache.count }
}
