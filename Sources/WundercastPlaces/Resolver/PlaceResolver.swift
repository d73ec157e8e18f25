import WundercastSupport

/// Resolves place names (`weather PLACE`, `Fallback=PLACE`, `around PLACE`): on the machine
/// first (the city table's ``CityTable/search(_:limit:)``), then online through a
/// ``PlaceGeocoder`` when one is given (`[Places] OnlineGeocoding=yes`, the default).
///
/// Answers are cached, found places and "no such place" alike, for at most ``cacheLimit``
/// names (the least recently used goes first); a failed online lookup is not cached, so the
/// next request tries again; every answer is forgotten when the city table changes (its
/// ``CitySource/generation``: a file read again), so a name the new table has, or no longer
/// has, is looked up again. Names are never logged (other users' lookups are theirs).
/// The search runs on the actor's executor, never on the caller's (the socket loop).
///
/// Online lookups go one at a time and at most ``onlinePerMinute`` a minute for the whole
/// machine (PITFALLS: one request at a time to Open-Meteo; a flood of names from any user must
/// not get the machine's address limited); beyond that a name the table lacks gets
/// ``PlaceError/geocodingUnavailable(name:reason:)`` at once.
public actor PlaceResolver {
    /// Names remembered at most.
    public let cacheLimit: Int
    private let table: (any CitySource)?
    private let geocoder: (any PlaceGeocoder)?
    private var cache: [String: (result: Result<PlaceMatch, PlaceError>, used: UInt64)] = [:]
    private var clock: UInt64 = 0
    /// The table's ``CitySource/generation`` the cached answers were found with.
    private var cachedGeneration: UInt64 = 0
    /// Online lookups made (for tests and `status`).
    public private(set) var onlineLookups = 0
    /// Online lookups allowed per minute (all users together).
    public let onlinePerMinute: Int
    private let now: @Sendable () -> ContinuousClock.Instant
    private var onlineTimes: [ContinuousClock.Instant] = []
    /// An online lookup is under way (its caller holds the turn).
    private var onlineBusy = false
    /// Callers waiting for the turn, first come first served.
    private var onlineWaiting: [CheckedContinuation<Void, Never>] = []

    /// - Parameters:
    ///   - table: the city table (or where to read it), or nil when there is none (`Cities=`
    ///     empty or unreadable).
    ///   - geocoder: the online geocoder, or nil when online geocoding is off.
    ///   - cacheLimit: names remembered at most (at least 1).
    ///   - onlinePerMinute: online lookups allowed a minute (at least 1).
    ///   - clock: the time, for the per-minute count (tests give a manual one).
    public init(
        table: (any CitySource)?, geocoder: (any PlaceGeocoder)?, cacheLimit: Int = 256, onlinePerMinute: Int = 30,
        clock: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }
    ) {
        self.table = table
        self.geocoder = geocoder
        self.cacheLimit = max(1, cacheLimit)
        self.onlinePerMinute = max(1, onlinePerMinute)
        self.now = clock
    }

    /// The best place for `query` (`Tromsø`, `Los Angeles, CA`): the table's best match, else
    /// the online geocoder's first result.
    ///
    /// - Throws: ``PlaceError/noSuchPlace(name:)`` when neither knows the name (also for an
    ///   empty name, and when there is no geocoder), ``PlaceError/geocodingUnavailable(name:reason:)``
    ///   when the table does not know it and the online lookup failed.
    public func resolve(_ query: String) async throws(PlaceError) -> City {
        try await match(query).city
    }

    /// As ``resolve(_:)``, with the other places the name matches as well (``PlaceMatch``).
    public func match(_ query: String) async throws(PlaceError) -> PlaceMatch {
        let name = UntrustedText.sanitized(query)
        let key = NameFolding.folded(name)
        clock += 1
        if let generation = table?.generation, generation != cachedGeneration {
            cache.removeAll()
            cachedGeneration = generation
        }
        if let cached = cache[key] {
            cache[key]?.used = clock
            return try cached.result.get()
        }
        let result: Result<PlaceMatch, PlaceError>
        let offline: PlaceMatch?? =
            key.isEmpty
            ? .some(nil)
            : table?.withTable { table in
                table.match(name, alternatives: PlaceMatch.limit).map {
                    PlaceMatch(city: $0.city, alternatives: $0.alternatives)
                }
            }
        if key.isEmpty {
            result = .failure(.noSuchPlace(name: name))
        } else if table != nil, offline == nil {
            throw .tableUnavailable(name: name)  // not cached, not sent online
        } else if let found = offline ?? nil {
            result = .success(found)
        } else if let geocoder {
            do throws(PlaceError) {
                let cities = try await online(name, geocoder)
                guard let first = cities.first else { throw .noSuchPlace(name: name) }
                result = .success(PlaceMatch(online: first, among: cities.dropFirst()))
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

    /// One online lookup, after the one under way, within the per-minute allowance.
    private func online(_ name: String, _ geocoder: any PlaceGeocoder) async throws(PlaceError) -> [City] {
        let now = self.now()
        onlineTimes.removeAll { now - $0 >= .seconds(60) }
        guard onlineTimes.count < onlinePerMinute else {
            throw .geocodingUnavailable(
                name: name, reason: "more than \(onlinePerMinute) online lookups this minute; try again later")
        }
        onlineTimes.append(now)
        onlineLookups += 1
        // In the caller's own task (a lookup job of the socket service): cancelling it
        // cancels the request; nothing outlives it.
        await takeOnlineTurn()
        defer { passOnlineTurn() }
        return try await geocoder.search(name)
    }

    /// Returns once no other online lookup is under way (the turn is the caller's then).
    private func takeOnlineTurn() async {
        guard onlineBusy else {
            onlineBusy = true
            return
        }
        await withCheckedContinuation { onlineWaiting.append($0) }
    }

    /// Hands the turn to the first caller waiting (it stays taken), or frees it.
    private func passOnlineTurn() {
        if onlineWaiting.isEmpty {
            onlineBusy = false
        } else {
            onlineWaiting.removeFirst().resume()
        }
    }

    private func remember(_ key: String, _ result: Result<PlaceMatch, PlaceError>) {
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
