import Glibc
import Testing
import WundercastModel
import WundercastPlaces
import WundercastPOSIX
import WundercastTestSupport

@testable import WundercastServer

/// `[Places] Cities=` as the daemon reads it: an image checked once and mapped per lookup, a
/// file changed in place checked again, a text table parsed.
@Suite struct CityTableFileTests {
    static func image(_ lines: String...) throws -> [UInt8] {
        try CityTable(
            parsing: Array(([CityTableFormat.header(libraryVersion: "test")] + lines).joined(separator: "\n").utf8)
        ).imageBytes
    }

    static let tromso = "Tromsø\tTroms\tNO\tEurope/Oslo\t69.6489\t18.95508\t64448\tNorway"
    static let oslo = "Oslo\tOslo\tNO\tEurope/Oslo\t59.91273\t10.74609\t580000\tNorway"

    /// Writes `bytes` over the file at `path` in place (same inode, like `cp`).
    static func overwrite(_ path: String, _ bytes: [UInt8]) throws {
        let fd = open(path, O_WRONLY | O_TRUNC)
        try #require(fd >= 0)
        defer { close(fd) }
        try Descriptor.writeAll(fd, bytes, subject: path)
    }

    @Test func anImageIsMappedPerLookupAndCheckedAgainWhenItChanges() throws {
        let directory = try DatagramSocket.temporaryDirectory()
        defer { rmdir(directory) }
        let path = directory + "/cities.bin"
        defer { unlink(path) }
        try WholeFile.writeAtomically(try Self.image(Self.tromso), to: path)
        let file = try CityTableFile(path: path)
        let north = Coordinate(latitude: 69, longitude: 19)
        #expect(file.withTable { $0.nearest(to: north)?.name } == "Tromsø")

        try Self.overwrite(path, try Self.image(Self.oslo, Self.tromso))
        #expect(file.withTable { $0.count } == 2)
        #expect(file.withTable { $0.search("oslo", limit: 1).first?.name } == "Oslo")

        var damaged = try Self.image(Self.oslo)
        damaged[damaged.count - 3] = 0x1B  // a control character in the last string
        try Self.overwrite(path, damaged)
        #expect(file.withTable { $0.count } == nil)

        try Self.overwrite(path, try Self.image(Self.oslo))
        #expect(file.withTable { $0.nearest(to: north)?.name } == "Oslo")
    }

    @Test func aTextTableIsParsedOnce() throws {
        let directory = try DatagramSocket.temporaryDirectory()
        defer { rmdir(directory) }
        let path = directory + "/cities.tsv"
        defer { unlink(path) }
        try WholeFile.writeAtomically(
            Array((CityTableFormat.header(libraryVersion: "test") + "\n" + Self.tromso + "\n").utf8), to: path)
        let file = try CityTableFile(path: path)
        try Self.overwrite(path, [])
        #expect(file.withTable { $0.search("Tromso", limit: 1).first?.name } == "Tromsø")
    }

    @Test func badFilesAreRefusedWithTheirReason() throws {
        let directory = try DatagramSocket.temporaryDirectory()
        defer { rmdir(directory) }
        let path = directory + "/cities.bin"
        defer { unlink(path) }
        #expect(throws: WholeFile.ReadError.self) { try CityTableFile(path: path) }
        var image = try Self.image(Self.tromso)
        image[8] = 9
        try WholeFile.writeAtomically(image, to: path)
        #expect {
            try CityTableFile(path: path)
        } throws: {
            "\($0)".contains("not a valid city table image: format version 9")
        }
    }
}
