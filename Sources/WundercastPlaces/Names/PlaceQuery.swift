/// A place name as a user writes it, with optional qualifiers after commas:
/// `Los Angeles, CA` (a US state or Canadian province abbreviation, or any region name:
/// `Los Angeles, California`), `Los Angeles, Chile` (a country name), `Los Angeles, CL`
/// (an ISO country code). Every qualifier must match; a region match ranks before a
/// country-name match, which ranks before a country-code match (`CA` is California before Canada).
public struct PlaceQuery: Sendable, Equatable {
    /// The name before the first comma, folded (``NameFolding``).
    public var name: [UInt8]
    /// The qualifiers after it, folded; empty ones are dropped.
    public var qualifiers: [[UInt8]]

    /// Splits `text` at commas and folds the parts. A city whose own name holds a comma
    /// (`Burgdorf, Hanover`) is found by the search's second try with the whole text
    /// (``CityTable/search(_:limit:)``).
    public init(_ text: String) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        name = NameFolding.fold(parts.first ?? "")
        qualifiers = parts.dropFirst().map { NameFolding.fold($0) }.filter { !$0.isEmpty }
    }

    /// A query for `name` (already folded) without qualifiers.
    init(name: [UInt8]) {
        self.name = name
        qualifiers = []
    }

    /// How well a place in `region` of the country `countryCode`/`countryName` matches every
    /// qualifier: 0 region, 1 country name, 2 country code (the worst of the qualifiers), nil
    /// when one of them does not match. 0 when there are no qualifiers.
    public func qualifierRank(region: String?, countryCode: String?, countryName: String?) -> UInt8? {
        qualifierRank(
            regionFolded: NameFolding.fold(region ?? ""), countryCode: countryCode ?? "",
            countryNameFolded: NameFolding.fold(countryName ?? ""))
    }

    func qualifierRank(regionFolded: [UInt8], countryCode: String, countryNameFolded: [UInt8]) -> UInt8? {
        var worst: UInt8 = 0
        for qualifier in qualifiers {
            guard
                let rank = Self.rank(
                    qualifier, regionFolded: regionFolded, countryCode: countryCode,
                    countryNameFolded: countryNameFolded)
            else { return nil }
            worst = max(worst, rank)
        }
        return worst
    }

    static func rank(
        _ qualifier: [UInt8], regionFolded: [UInt8], countryCode: String, countryNameFolded: [UInt8]
    ) -> UInt8? {
        if !regionFolded.isEmpty {
            if regionFolded == qualifier || regionFolded.dropPrefix(Self.stateOf) == qualifier[...] { return 0 }
            if let abbreviated = RegionAbbreviations.region(qualifier, country: countryCode),
                regionFolded.dropPrefix(Self.stateOf).elementsEqual(abbreviated.utf8)
            {
                return 0
            }
        }
        if !countryNameFolded.isEmpty && countryNameFolded == qualifier { return 1 }
        if let alias = RegionAbbreviations.countryAliases[String(decoding: qualifier, as: UTF8.self)],
            alias == countryCode
        {
            return 1
        }
        if qualifier.count == 2 && countryCode.utf8.count == 2
            && zip(qualifier, countryCode.utf8).allSatisfy({ $0 == $1 | 0x20 })
        {
            return 2
        }
        return nil
    }

    /// GeoNames spells two US states `State of Maine`, `State of Wyoming`.
    static let stateOf = Array("state of ".utf8)
}

extension Array where Element == UInt8 {
    /// The bytes after `prefix` when they start with it, else all of them.
    func dropPrefix(_ prefix: [UInt8]) -> ArraySlice<UInt8> {
        starts(with: prefix) ? self[prefix.count...] : self[...]
    }
}
