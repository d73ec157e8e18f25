import WundercastSupport

/// Why a city table could not be read: the line (1-based) and what is wrong with it, e.g.
/// `line 7: latitude "91.5" is outside -90...90`, or for a binary image (``CityTableImage``)
/// no line and the section that is wrong, e.g. `not a valid city table image: section
/// latitudes: city 12 is at latitude 91.5`. Text quoted from the file is sanitised and bounded
/// (``UntrustedText/sanitized(_:limit:)``).
public struct CityTableError: Error, Sendable, Equatable, CustomStringConvertible {
    /// 1-based line number in a text table; nil for a binary image.
    public var line: Int?
    /// What is wrong, e.g. `expected 8 tab-separated fields, found 3`.
    public var reason: String

    public init(line: Int?, reason: String) {
        self.line = line
        self.reason = reason
    }

    public var description: String { line.map { "line \($0): \(reason)" } ?? reason }
}

extension CityTable {
    /// Parses a city table file (``CityTableFormat``) and builds its nearest-city index.
    ///
    /// - Parameter bytes: the whole file (e.g. `WholeFile.read` of `[Places] Cities=`).
    /// - Throws: ``CityTableError`` naming the first bad line: a first line that is not the
    ///   format's signature, a wrong number of fields, an empty name, text that is not UTF-8
    ///   or holds control characters, a country code that is not two capital letters, a
    ///   coordinate that is not a decimal number (at most 5 decimals) within ±90/±180, a
    ///   population that is not a whole number up to 2,147,483,647, more than 65,535
    ///   distinct regions or time zones.
    public init(parsing bytes: some Collection<UInt8>) throws(CityTableError) {
        let bytes = Array(bytes)
        var parser = CityTableParser()
        try parser.parse(bytes)
        try self.init(parsed: parser, bytes: bytes)
    }
}

/// The first pass over a table file: checks every line and collects the fields in file order
/// (interning regions, countries and time zones), before ``CityTable`` reorders them.
struct CityTableParser {
    var header = ""
    var nameRanges: [Range<Int>] = []
    var latitudes: [Int32] = []
    var longitudes: [Int32] = []
    var populations: [Int32] = []
    var regionOf: [UInt16] = []
    var timeZoneOf: [UInt16] = []
    var regions = PackedStrings()
    var regionCountry: [UInt16] = []
    var countryCodes = PackedStrings()
    var countryNames = PackedStrings()
    var timeZones = PackedStrings()
    // Keyed by bytes, not String: hashing a non-ASCII String normalises it, which touches the
    // standard library's normalisation tables (resident memory the daemon need not pay for).
    private var regionIndex: [[UInt8]: UInt16] = [:]
    private var countryIndex: [[UInt8]: UInt16] = [:]
    private var timeZoneIndex: [[UInt8]: UInt16] = [:]

    mutating func parse(_ bytes: [UInt8]) throws(CityTableError) {
        var lineNumber = 0
        var start = 0
        var fields: [Range<Int>] = []
        while start < bytes.count {
            lineNumber += 1
            var end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            let next = end + 1
            if end > start && bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
            defer { start = next }
            let line = start..<end
            if lineNumber == 1 {
                guard bytes[line].starts(with: CityTableFormat.signature.utf8) else {
                    throw CityTableError(
                        line: 1,
                        reason:
                            "not a wundercast city table: the first line must begin with \"\(CityTableFormat.signature)\""
                    )
                }
                header = try Self.text(bytes[line], "first line", lineNumber)
                continue
            }
            if line.isEmpty || bytes[start] == UInt8(ascii: "#") { continue }
            fields.removeAll(keepingCapacity: true)
            var fieldStart = start
            for i in line where bytes[i] == UInt8(ascii: "\t") {
                fields.append(fieldStart..<i)
                fieldStart = i + 1
            }
            fields.append(fieldStart..<end)
            try addCity(bytes, fields, lineNumber)
        }
        if lineNumber == 0 {
            throw CityTableError(line: 1, reason: "empty file: not a wundercast city table")
        }
    }

    private mutating func addCity(_ bytes: [UInt8], _ fields: [Range<Int>], _ line: Int) throws(CityTableError) {
        guard fields.count == CityTableFormat.fieldCount else {
            throw CityTableError(
                line: line, reason: "expected \(CityTableFormat.fieldCount) tab-separated fields, found \(fields.count)"
            )
        }
        let name = try Self.text(bytes[fields[0]], "name", line)
        guard !name.isEmpty else { throw CityTableError(line: line, reason: "empty name") }
        guard CityTableFormat.isVisibleName(name) else {
            throw CityTableError(line: line, reason: "name \(Self.quoted(name)) has no letter or digit")
        }
        let region = try Self.text(bytes[fields[1]], "region", line)
        let code = try Self.text(bytes[fields[2]], "country code", line)
        guard code.isEmpty || (code.utf8.count == 2 && code.utf8.allSatisfy { (65...90).contains($0) }) else {
            throw CityTableError(line: line, reason: "country code \(Self.quoted(code)) is not two capital letters")
        }
        let timeZone = try Self.text(bytes[fields[3]], "time zone", line)
        guard timeZone.isEmpty || CityTableFormat.isZoneName(timeZone.utf8) else {
            throw CityTableError(line: line, reason: "time zone \(Self.quoted(timeZone)) is not a zone name")
        }
        let latitude = try Self.degrees(bytes[fields[4]], "latitude", limit: 90, line)
        let longitude = try Self.degrees(bytes[fields[5]], "longitude", limit: 180, line)
        let populationText = try Self.text(bytes[fields[6]], "population", line)
        guard !populationText.isEmpty, populationText.utf8.allSatisfy({ (48...57).contains($0) }),
            let population = Int32(populationText)
        else {
            throw CityTableError(
                line: line, reason: "population \(Self.quoted(populationText)) is not a whole number up to 2147483647")
        }
        let countryName = try Self.text(bytes[fields[7]], "country name", line)

        let country = try Self.intern(
            Array(code.utf8) + [9] + Array(countryName.utf8), in: &countryIndex, line, "countries"
        ) {
            countryCodes.append(code.utf8)
            countryNames.append(countryName.utf8)
        }
        let regionKey = try Self.intern(
            Array(region.utf8) + [9, UInt8(country >> 8), UInt8(country & 0xFF)], in: &regionIndex, line, "regions"
        ) {
            regions.append(region.utf8)
            regionCountry.append(country)
        }
        let zone = try Self.intern(Array(timeZone.utf8), in: &timeZoneIndex, line, "time zones") {
            timeZones.append(timeZone.utf8)
        }
        nameRanges.append(fields[0])
        latitudes.append(latitude)
        longitudes.append(longitude)
        populations.append(population)
        regionOf.append(regionKey)
        timeZoneOf.append(zone)
    }

    /// The index of `key`, adding it (with `add`) when new.
    private static func intern(
        _ key: [UInt8], in index: inout [[UInt8]: UInt16], _ line: Int, _ what: String, add: () -> Void
    ) throws(CityTableError) -> UInt16 {
        if let known = index[key] { return known }
        guard index.count < Int(UInt16.max) else {
            throw CityTableError(line: line, reason: "more than \(UInt16.max) distinct \(what)")
        }
        let new = UInt16(index.count)
        index[key] = new
        add()
        return new
    }

    /// A field as text: UTF-8 without control characters.
    private static func text(_ field: ArraySlice<UInt8>, _ what: String, _ line: Int) throws(CityTableError) -> String {
        guard let text = String(validating: field, as: UTF8.self) else {
            throw CityTableError(line: line, reason: "\(what) is not UTF-8")
        }
        if text.unicodeScalars.contains(where: UntrustedText.isControl) {
            throw CityTableError(line: line, reason: "\(what) \(quoted(text)) contains a control character")
        }
        if text.unicodeScalars.count > CityTableFormat.fieldLimit {
            throw CityTableError(
                line: line, reason: "\(what) is longer than \(CityTableFormat.fieldLimit) characters")
        }
        return text
    }

    /// Decimal degrees (`-37.46973`, `12`) as an integer count of 1e-5 degrees.
    private static func degrees(
        _ field: ArraySlice<UInt8>, _ what: String, limit: Int32, _ line: Int
    ) throws(CityTableError) -> Int32 {
        var value: Int64 = 0
        var decimals = -1  // -1: before the point
        var digits = 0
        var negative = false
        var valid = !field.isEmpty
        for (i, byte) in zip(field.indices, field) {
            switch byte {
            case UInt8(ascii: "-") where i == field.startIndex: negative = true
            case UInt8(ascii: ".") where decimals < 0 && digits > 0: decimals = 0
            case 48...57 where decimals < CityTableFormat.decimals && value < 1_000_000_000:
                value = value * 10 + Int64(byte - 48)
                digits += 1
                if decimals >= 0 { decimals += 1 }
            default: valid = false
            }
        }
        let text = String(decoding: field, as: UTF8.self)
        guard valid, digits > 0, decimals != 0 else {
            throw CityTableError(
                line: line,
                reason:
                    "\(what) \(quoted(text)) is not a decimal number with at most \(CityTableFormat.decimals) decimals")
        }
        for _ in max(decimals, 0)..<CityTableFormat.decimals { value *= 10 }
        guard value <= Int64(limit) * 100_000 else {
            throw CityTableError(line: line, reason: "\(what) \(quoted(text)) is outside -\(limit)...\(limit)")
        }
        return Int32(negative ? -value : value)
    }

    static func quoted(_ text: String) -> String {
        "\"" + UntrustedText.sanitized(text, limit: 40) + "\""
    }
}
