extension CityTable {
    /// Cities whose name matches `query`, best first, on the machine (no network).
    ///
    /// Names are compared folded (``NameFolding``: `Tromso` finds `Tromsø`, `sao paulo` finds
    /// `São Paulo`). Qualifiers after commas narrow the choice (``PlaceQuery``:
    /// `Los Angeles, CA`, `Los Angeles, Chile`, `Los Angeles, CL`). Order: qualifier rank
    /// (region, country name, country code), then the kind of name match (the whole name; the
    /// name begins with the query; a later word of the name begins with it, as in
    /// `East Los Angeles`), then population, most first. When nothing matches a query with a
    /// comma, the whole text is tried as one name (`Burgdorf, Hanover`).
    ///
    /// Scans the names (about 0.3 MB) once per call, without allocating per city: about a
    /// millisecond in a release build. Empty for an empty query or `limit` < 1.
    public func search(_ query: String, limit: Int) -> [City] {
        ranked(query, limit: limit).found.map { city(at: $0.index) }
    }

    /// The best city for `query` (``search(_:limit:)``'s first) and, when its name is the query's
    /// whole name, the other cities of that name that every qualifier matches too, best first (a
    /// region match before a country's, then the most populous), at most `limit`: for
    /// `Springfield` the one in Missouri and seven others; for `Springfield, IL` Illinois's
    /// alone. Nil when nothing matches.
    public func match(_ query: String, alternatives limit: Int) -> (city: City, alternatives: [City])? {
        let (form, found) = ranked(query, limit: 1)
        guard let best = found.first else { return nil }
        guard best.key.name == 0 else { return (city(at: best.index), []) }
        let others = matches(form, limit: max(0, limit) + 1, wholeName: true).filter { $0.index != best.index }
        return (city(at: best.index), others.prefix(max(0, limit)).map { city(at: $0.index) })
    }

    /// The best `limit` matches of `query`, and the form of the query that found them: with its
    /// qualifiers, else (nothing found, and a comma in it) the whole text as one name.
    private func ranked(_ query: String, limit: Int) -> (form: PlaceQuery, found: [(key: SearchKey, index: Int)]) {
        let qualified = PlaceQuery(query)
        let found = matches(qualified, limit: limit)
        guard found.isEmpty && query.utf8.contains(UInt8(ascii: ",")) else { return (qualified, found) }
        let whole = PlaceQuery(name: NameFolding.fold(query))
        return (whole, matches(whole, limit: limit))
    }

    /// The best `limit` matches with their keys, best first; with `wholeName`, only cities whose
    /// whole name is the query's.
    func matches(_ query: PlaceQuery, limit: Int, wholeName: Bool = false) -> [(key: SearchKey, index: Int)] {
        guard limit > 0, !query.name.isEmpty else { return [] }
        let regionRanks = qualifierRanks(query)
        var best: [(key: SearchKey, index: Int)] = []
        var cursor = 0
        query.name.withUnsafeBufferPointer { wanted in
            for index in 0..<count {
                let isFolded = cursor < foldedCities.count && Int(foldedCities[cursor]) == index
                let foldedIndex = cursor
                if isFolded { cursor += 1 }
                let region = Int(regionOf[index])
                let qualifier = region < regionRanks.count ? regionRanks[region] : .max
                guard qualifier != .max else { continue }
                let rank =
                    isFolded
                    ? Self.nameRank(wanted, foldedNames[foldedIndex], lowercasing: false)
                    : Self.nameRank(wanted, names[index], lowercasing: true)
                guard let rank, !wholeName || rank == 0 else { continue }
                let key = SearchKey(qualifier: qualifier, name: rank, population: populations[index], index: index)
                if best.count == limit {
                    guard key < best[limit - 1].key else { continue }
                    best.removeLast()
                }
                let at = best.firstIndex { key < $0.key } ?? best.count
                best.insert((key, index), at: at)
            }
        }
        return best
    }

    /// The qualifier rank of every interned region (with its country) for `query`; `.max` when
    /// it does not match.
    private func qualifierRanks(_ query: PlaceQuery) -> [UInt8] {
        guard !query.qualifiers.isEmpty else { return [UInt8](repeating: 0, count: regions.count) }
        return (0..<regions.count).map { region in
            let country = Int(regionCountry[region])
            return query.qualifierRank(
                regionFolded: Array(regionsFolded[region]), countryCode: countryCodes.string(country) ?? "",
                countryNameFolded: Array(countryNamesFolded[country])) ?? .max
        }
    }

    /// 0 when `name` is `wanted`, 1 when it begins with it, 2 when a later word does; nil
    /// otherwise. With `lowercasing`, ASCII capitals of `name` count as small letters.
    static func nameRank(
        _ wanted: UnsafeBufferPointer<UInt8>, _ name: UnsafeBufferPointer<UInt8>, lowercasing: Bool
    ) -> UInt8? {
        guard name.count >= wanted.count else { return nil }
        func matches(at offset: Int) -> Bool {
            for i in 0..<wanted.count {
                var byte = name[offset + i]
                if lowercasing && byte >= 65 && byte <= 90 { byte += 32 }
                if byte != wanted[i] { return false }
            }
            return true
        }
        if matches(at: 0) { return name.count == wanted.count ? 0 : 1 }
        var offset = 1
        while offset <= name.count - wanted.count {
            if name[offset - 1] == UInt8(ascii: " ") && matches(at: offset) { return 2 }
            offset += 1
        }
        return nil
    }
}

/// The order of search results: smaller is better.
struct SearchKey: Comparable {
    var qualifier: UInt8
    var name: UInt8
    var population: Int32
    var index: Int

    static func < (a: SearchKey, b: SearchKey) -> Bool {
        (a.qualifier, a.name, b.population, a.index) < (b.qualifier, b.name, a.population, b.index)
    }
}
