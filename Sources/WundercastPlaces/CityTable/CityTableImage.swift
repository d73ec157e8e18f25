/// The city table's binary image, format v2: the compact arrays of ``CityTable`` as they lie
/// in memory, so that the daemon maps the file read-only instead of parsing text (written by
/// `wundercast-cities --image`; `make install` installs `cities.bin`). A parsed text table
/// (``CityTableFormat``) is turned into the same image on the heap.
///
/// Layout, all integers little-endian:
/// - 16 bytes: the magic `WCCITIES`, the version (UInt32, 2), the number of sections (UInt32);
/// - one directory entry per ``Section``, in its order: offset and length in bytes (UInt32 each);
/// - the sections, each starting at a multiple of 4 bytes.
///
/// A column section holds one integer per city (or region), in k-d order (see
/// ``NearestCityIndex``). A string list is two sections: `UInt32` start offsets, one more than
/// strings (the end of the last), and the UTF-8 bytes. ``CityTable/init(image:owner:)``
/// checks every offset, count, index and string before the table is used.
public enum CityTableImage {
    /// How every image begins.
    public static let magic: [UInt8] = Array("WCCITIES".utf8)
    /// The format version this code writes and reads.
    public static let version: UInt32 = 2

    /// The sections, in directory order.
    enum Section: Int, CaseIterable {
        case header
        case latitudes, longitudes, populations, regionOf, timeZoneOf
        case nameStarts, nameBytes, foldedCities, foldedStarts, foldedBytes
        case regionStarts, regionBytes, regionFoldedStarts, regionFoldedBytes, regionCountry
        case countryCodeStarts, countryCodeBytes, countryNameStarts, countryNameBytes
        case countryNameFoldedStarts, countryNameFoldedBytes
        case timeZoneStarts, timeZoneBytes
    }

    /// Bytes before the first section.
    static let directoryEnd = 16 + Section.allCases.count * 8

    /// Whether `prefix` (the first bytes of a file) begins like an image.
    public static func isImage(_ prefix: some Collection<UInt8>) -> Bool {
        prefix.starts(with: magic)
    }

    /// The image of `sections` (every ``Section`` present, in any order).
    static func encode(_ sections: [Section: [UInt8]]) -> [UInt8] {
        var image = magic
        image.appendLittleEndian(version)
        image.appendLittleEndian(UInt32(Section.allCases.count))
        var offset = directoryEnd
        for section in Section.allCases {
            let length = sections[section]?.count ?? 0
            image.appendLittleEndian(UInt32(offset))
            image.appendLittleEndian(UInt32(length))
            offset += (length + 3) & ~3
        }
        for section in Section.allCases {
            image.append(contentsOf: sections[section] ?? [])
            while image.count % 4 != 0 { image.append(0) }
        }
        return image
    }

    /// The sections of `image`, indexed by ``Section/rawValue``, after checking the magic,
    /// version, directory, alignment and that each section lies within the image.
    static func sections(of image: UnsafeRawBufferPointer) throws(CityTableError) -> [UnsafeRawBufferPointer] {
        func word(_ offset: Int) -> UInt32 {
            UInt32(littleEndian: image.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
        }
        guard image.count >= 16, isImage(image) else { throw CityTableError(image: "it does not begin with WCCITIES") }
        guard word(8) == version else {
            throw CityTableError(image: "format version \(word(8)); this wundercast reads version \(version)")
        }
        guard Int(word(12)) == Section.allCases.count, image.count >= directoryEnd else {
            throw CityTableError(image: "the directory has \(word(12)) sections, expected \(Section.allCases.count)")
        }
        return try Section.allCases.map { section throws(CityTableError) in
            let offset = Int(word(16 + section.rawValue * 8))
            let length = Int(word(20 + section.rawValue * 8))
            guard offset >= directoryEnd, offset % 4 == 0, length <= image.count - min(offset, image.count),
                offset <= image.count
            else {
                throw CityTableError(
                    image: "section \(section) (offset \(offset), \(length) bytes) is outside the image")
            }
            return UnsafeRawBufferPointer(rebasing: image[offset..<offset + length])
        }
    }
}

extension CityTableError {
    /// An error in a binary image (no line to name).
    init(image reason: String) {
        self.init(line: nil, reason: "not a valid city table image: \(reason)")
    }
}

extension Array where Element == UInt8 {
    mutating func appendLittleEndian<T: FixedWidthInteger>(_ value: T) {
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }
}

extension Sequence where Element: FixedWidthInteger {
    /// The integers as little-endian bytes (a column section).
    var littleEndianBytes: [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(underestimatedCount * MemoryLayout<Element>.size)
        for value in self { bytes.appendLittleEndian(value) }
        return bytes
    }
}
