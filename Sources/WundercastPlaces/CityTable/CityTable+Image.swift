import WundercastSupport

extension CityTable {
    /// The table of a parsed text file, in k-d order, as an image on the heap.
    init(parsed parser: CityTableParser, bytes: [UInt8]) throws(CityTableError) {
        let order = NearestCityIndex.order(latitudes: parser.latitudes, longitudes: parser.longitudes)
        var names = PackedStrings()
        var folded = PackedStrings()
        var foldedCities: [UInt32] = []
        for (index, line) in order.enumerated() {
            let name = bytes[parser.nameRanges[line]]
            names.append(name)
            if !NameFolding.foldsToASCIILowercase(name) {
                foldedCities.append(UInt32(index))
                folded.append(NameFolding.fold(String(decoding: name, as: UTF8.self)))
            }
        }
        func folding(_ strings: PackedStrings) -> PackedStrings {
            var result = PackedStrings()
            for i in 0..<strings.count { result.append(NameFolding.fold(strings.string(i) ?? "")) }
            return result
        }
        func strings(
            _ strings: PackedStrings, _ starts: CityTableImage.Section, _ bytes: CityTableImage.Section
        )
            -> [(CityTableImage.Section, [UInt8])]
        { [(starts, strings.starts.littleEndianBytes), (bytes, strings.bytes)] }
        let sections: [(CityTableImage.Section, [UInt8])] =
            [
                (.header, Array(parser.header.utf8)),
                (.latitudes, order.lazy.map { parser.latitudes[$0] }.littleEndianBytes),
                (.longitudes, order.lazy.map { parser.longitudes[$0] }.littleEndianBytes),
                (.populations, order.lazy.map { parser.populations[$0] }.littleEndianBytes),
                (.regionOf, order.lazy.map { parser.regionOf[$0] }.littleEndianBytes),
                (.timeZoneOf, order.lazy.map { parser.timeZoneOf[$0] }.littleEndianBytes),
                (.foldedCities, foldedCities.littleEndianBytes),
                (.regionCountry, parser.regionCountry.littleEndianBytes),
            ]
            + strings(names, .nameStarts, .nameBytes) + strings(folded, .foldedStarts, .foldedBytes)
            + strings(parser.regions, .regionStarts, .regionBytes)
            + strings(folding(parser.regions), .regionFoldedStarts, .regionFoldedBytes)
            + strings(parser.countryCodes, .countryCodeStarts, .countryCodeBytes)
            + strings(parser.countryNames, .countryNameStarts, .countryNameBytes)
            + strings(folding(parser.countryNames), .countryNameFoldedStarts, .countryNameFoldedBytes)
            + strings(parser.timeZones, .timeZoneStarts, .timeZoneBytes)
        let image = HeapImage(CityTableImage.encode(Dictionary(uniqueKeysWithValues: sections)))
        try self.init(image: UnsafeRawBufferPointer(image.bytes), owner: image)
    }
}

/// An image on the heap (a parsed text table), freed with the last table that uses it.
// `@unchecked Sendable`: a raw buffer pointer to bytes never written after `init`.
final class HeapImage: @unchecked Sendable {
    let bytes: UnsafeMutableRawBufferPointer

    init(_ image: [UInt8]) {
        bytes = .allocate(byteCount: image.count, alignment: 16)
        image.withUnsafeBytes { bytes.copyMemory(from: $0) }
    }

    deinit { bytes.deallocate() }
}

extension CityTable {
    /// The table whose image (``CityTableImage``) is `image`, e.g. a `cities.bin` read
    /// into memory; `owner` keeps the memory valid as long as the table (or a copy) lives.
    ///
    /// Every section is checked before the table is used, so a damaged or hostile file gives
    /// an error, never a crash or a wrong read: counts agree, string offsets rise and stay in
    /// their section, strings are UTF-8 without control characters, names are not empty,
    /// coordinates lie within ±90/±180, populations are not negative, region, country and time
    /// zone indexes exist, folded-name indexes rise. That reads every page once.
    ///
    /// - Parameter trusted: the same image was checked before (the same file, unchanged): only
    ///   the directory, the section sizes and the string lists' ends are checked (a few pages
    ///   are read); a damaged image then gives wrong or no cities, never a trap or a read
    ///   outside it (``Column``, ``PackedStringsView``).
    /// - Throws: ``CityTableError`` without a line, naming the section that is wrong.
    public init(
        image: UnsafeRawBufferPointer, owner: some AnyObject & Sendable, trusted: Bool = false
    )
        throws(CityTableError)
    {
        let sections = try CityTableImage.sections(of: image)
        func raw(_ section: CityTableImage.Section) -> UnsafeRawBufferPointer { sections[section.rawValue] }
        func column<T: FixedWidthInteger>(
            _ section: CityTableImage.Section, count: Int? = nil
        ) throws(CityTableError)
            -> Column<T>
        {
            let bytes = raw(section)
            guard bytes.count % MemoryLayout<T>.size == 0 else {
                throw CityTableError(image: "section \(section): \(bytes.count) bytes is not a whole number of entries")
            }
            let column = Column<T>(bytes)
            if let count, column.count != count {
                throw CityTableError(image: "section \(section) has \(column.count) entries, expected \(count)")
            }
            return column
        }
        func strings(
            _ starts: CityTableImage.Section, _ bytes: CityTableImage.Section, count: Int? = nil
        )
            throws(CityTableError) -> PackedStringsView
        {
            let view = PackedStringsView(starts: try column(starts), bytes: raw(bytes))
            guard view.starts.count >= 1, view.starts[0] == 0, Int(view.starts[view.count]) == view.bytes.count else {
                throw CityTableError(image: "section \(starts) does not span section \(bytes)")
            }
            if let count, view.count != count {
                throw CityTableError(image: "section \(starts) has \(view.count) strings, expected \(count)")
            }
            for i in 0..<view.count where !trusted {
                guard view.starts[i] <= view.starts[i + 1], Int(view.starts[i + 1]) <= view.bytes.count else {
                    throw CityTableError(
                        image: "section \(starts): string \(i) ends before it starts or after its section")
                }
                guard let text = String(validating: view[i], as: UTF8.self) else {
                    throw CityTableError(image: "section \(bytes): string \(i) is not UTF-8")
                }
                guard !text.unicodeScalars.contains(where: UntrustedText.isControl) else {
                    throw CityTableError(image: "section \(bytes): string \(i) contains a control character")
                }
                guard text.unicodeScalars.count <= CityTableFormat.fieldLimit else {
                    throw CityTableError(
                        image: "section \(bytes): string \(i) is longer than \(CityTableFormat.fieldLimit) characters")
                }
            }
            return view
        }
        guard let headerText = String(validating: raw(.header), as: UTF8.self),
            !headerText.unicodeScalars.contains(where: UntrustedText.isControl)
        else { throw CityTableError(image: "section header is not UTF-8 text") }
        self.header = headerText
        self.image = image
        self.owner = owner
        latitudes = try column(.latitudes)
        let n = latitudes.count
        longitudes = try column(.longitudes, count: n)
        populations = try column(.populations, count: n)
        regionOf = try column(.regionOf, count: n)
        timeZoneOf = try column(.timeZoneOf, count: n)
        names = try strings(.nameStarts, .nameBytes, count: n)
        regions = try strings(.regionStarts, .regionBytes)
        regionsFolded = try strings(.regionFoldedStarts, .regionFoldedBytes, count: regions.count)
        regionCountry = try column(.regionCountry, count: regions.count)
        countryCodes = try strings(.countryCodeStarts, .countryCodeBytes)
        countryNames = try strings(.countryNameStarts, .countryNameBytes, count: countryCodes.count)
        countryNamesFolded = try strings(
            .countryNameFoldedStarts, .countryNameFoldedBytes, count: countryCodes.count)
        timeZones = try strings(.timeZoneStarts, .timeZoneBytes)
        foldedCities = try column(.foldedCities)
        foldedNames = try strings(.foldedStarts, .foldedBytes, count: foldedCities.count)
        if !trusted { try checkIndexes() }
    }

    /// The checks of ``init(image:owner:)`` that span sections.
    private func checkIndexes() throws(CityTableError) {
        for i in 0..<count {
            guard (-9_000_000...9_000_000).contains(latitudes[i]), (-18_000_000...18_000_000).contains(longitudes[i])
            else {
                throw CityTableError(image: "section latitudes/longitudes: city \(i) is outside ±90/±180")
            }
            guard populations[i] >= 0 else { throw CityTableError(image: "section populations: city \(i) is negative") }
            guard !names[i].isEmpty else { throw CityTableError(image: "section nameBytes: city \(i) has no name") }
            guard Int(regionOf[i]) < regions.count else {
                throw CityTableError(
                    image: "section regionOf: city \(i) names region \(regionOf[i]) of \(regions.count)")
            }
            guard Int(timeZoneOf[i]) < timeZones.count else {
                throw CityTableError(
                    image: "section timeZoneOf: city \(i) names time zone \(timeZoneOf[i]) of \(timeZones.count)")
            }
        }
        for z in 0..<timeZones.count where !timeZones[z].isEmpty && !CityTableFormat.isZoneName(timeZones[z]) {
            throw CityTableError(image: "section timeZoneBytes: string \(z) is not a zone name")
        }
        for i in 0..<count where !CityTableFormat.isVisibleName(String(decoding: names[i], as: UTF8.self)) {
            throw CityTableError(image: "section nameBytes: city \(i) has no letter or digit")
        }
        for r in 0..<regions.count where Int(regionCountry[r]) >= countryCodes.count {
            throw CityTableError(
                image: "section regionCountry: region \(r) names country \(regionCountry[r]) of \(countryCodes.count)")
        }
        var previous = -1
        for f in 0..<foldedCities.count {
            let city = Int(foldedCities[f])
            guard city > previous, city < count else {
                throw CityTableError(image: "section foldedCities: entry \(f) (city \(city)) is out of order or range")
            }
            previous = city
        }
    }
}
