import Testing
import WundercastTestSupport

@testable import WundercastModel
@testable import WundercastPlaces

/// The binary image (``CityTableImage``): written from a parsed table, read back the same, and
/// every kind of damage named, never a crash or a read outside the image.
@Suite struct CityTableImageTests {
    static func sample() throws -> CityTable {
        try cityTable([
            Row(
                name: "Tromsø", region: "Troms", country: "NO", countryName: "Norway", timeZone: "Europe/Oslo",
                latitude: 69.6489, longitude: 18.95508, population: 64_448),
            Row(
                name: "Los Angeles", region: "California", country: "US", countryName: "United States",
                timeZone: "America/Los_Angeles", latitude: 34.05223, longitude: -118.24368, population: 3_971_883),
            Row(
                name: "São Paulo", region: "São Paulo", country: "BR", countryName: "Brazil",
                timeZone: "America/Sao_Paulo", latitude: -23.5475, longitude: -46.63611, population: 10_021_295),
            Row(name: "Nowhere", latitude: 0, longitude: 179.99, population: 0),
        ])
    }

    /// The table read from `image` (copied to the heap, owned by the table).
    static func open(_ image: [UInt8], trusted: Bool = false) throws(CityTableError) -> CityTable {
        let owner = HeapImage(image)
        return try CityTable(image: UnsafeRawBufferPointer(owner.bytes), owner: owner, trusted: trusted)
    }

    /// Where `section` lies in `image`, from its directory.
    static func range(of section: CityTableImage.Section, in image: [UInt8]) -> Range<Int> {
        func word(_ at: Int) -> Int { (0..<4).reduce(0) { $0 | Int(image[at + $1]) << (8 * $1) } }
        let offset = word(16 + section.rawValue * 8)
        return offset..<offset + word(20 + section.rawValue * 8)
    }

    static func settingWord(_ image: [UInt8], at offset: Int, to value: UInt32) -> [UInt8] {
        var copy = image
        for i in 0..<4 { copy[offset + i] = UInt8(truncatingIfNeeded: value >> (8 * UInt32(i))) }
        return copy
    }

    @Test func theImageReadsBackAsTheSameTable() throws {
        let table = try Self.sample()
        let copy = try Self.open(table.imageBytes)
        #expect(copy.count == table.count)
        #expect(copy.header == table.header)
        #expect((0..<copy.count).map(copy.city(at:)) == (0..<table.count).map(table.city(at:)))
        #expect(copy.search("tromso", limit: 5).map(\.name) == ["Tromsø"])
        #expect(copy.search("Los Angeles, CA", limit: 5).map(\.name) == ["Los Angeles"])
        #expect(copy.nearest(to: Coordinate(latitude: 0, longitude: -179.99))?.name == "Nowhere")
        #expect(CityTableImage.isImage(table.imageBytes))
        #expect(!CityTableImage.isImage(Array(CityTableFormat.header(libraryVersion: "x").utf8)))
    }

    @Test func damageIsNamed() throws {
        let image = try Self.sample().imageBytes
        func reason(_ damaged: [UInt8]) -> String? {
            do {
                _ = try Self.open(damaged)
                return nil
            } catch {
                #expect(error.line == nil)
                return error.reason
            }
        }
        var magic = image
        magic[0] = UInt8(ascii: "X")
        #expect(reason(magic)?.contains("does not begin with WCCITIES") == true)
        #expect(reason(Self.settingWord(image, at: 8, to: 3))?.contains("format version 3") == true)
        #expect(reason(Self.settingWord(image, at: 12, to: 5))?.contains("directory has 5 sections") == true)
        #expect(reason(Array(image.prefix(CityTableImage.directoryEnd + 8)))?.contains("is outside the image") == true)
        let latitudes = Self.range(of: .latitudes, in: image)
        #expect(
            reason(Self.settingWord(image, at: latitudes.lowerBound, to: 9_000_001))?.contains("outside ±90") == true)
        #expect(
            reason(Self.settingWord(image, at: latitudes.lowerBound, to: UInt32(bitPattern: Int32.min)))?.contains(
                "outside ±90") == true)
        let regionOf = Self.range(of: .regionOf, in: image)
        var region = image
        region[regionOf.lowerBound] = 0xFF
        #expect(reason(region)?.contains("section regionOf: city 0 names region") == true)
        let names = Self.range(of: .nameBytes, in: image)
        var control = image
        control[names.lowerBound] = 0x1B
        #expect(reason(control)?.contains("section nameBytes: string 0 contains a control character") == true)
        let starts = Self.range(of: .nameStarts, in: image)
        #expect(
            reason(Self.settingWord(image, at: starts.upperBound - 4, to: 1 << 30))?.contains("does not span") == true)
        let directoryEntry = 16 + CityTableImage.Section.populations.rawValue * 8
        #expect(reason(Self.settingWord(image, at: directoryEntry + 4, to: 3))?.contains("populations") == true)
        #expect(reason(Self.settingWord(image, at: directoryEntry, to: 2))?.contains("is outside the image") == true)
    }

    /// Seeded random damage: every image either is refused with a reason or is a table whose
    /// every city, search and nearest-city lookup works (the process does not trap).
    @Test func randomDamageNeverTraps() throws {
        let image = try Self.sample().imageBytes
        var random = SplitMix(seed: 0x5EED)
        var refused = 0
        for round in 0..<3000 {
            var damaged = image
            if round % 10 == 0 {
                damaged.removeLast(Int.random(in: 1...image.count, using: &random))
            } else {
                for _ in 0..<Int.random(in: 1...4, using: &random) {
                    damaged[Int.random(in: 0..<damaged.count, using: &random)] = UInt8.random(
                        in: 0...255, using: &random)
                }
            }
            guard let table = try? Self.open(damaged) else {
                refused += 1
                continue
            }
            for i in 0..<table.count { _ = table.city(at: i) }
            _ = table.search("a", limit: 3)
            _ = table.search("x, y", limit: 3)
            _ = table.nearest(to: Coordinate(latitude: 10, longitude: 10))
        }
        #expect(refused > 1000, "most damage is seen")
    }
}
