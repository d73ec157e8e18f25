import Glibc
import Synchronization
import Testing
import WundercastConfiguration
import WundercastModel
import WundercastPlaces
import WundercastPOSIX
import WundercastSupport
import WundercastTestSupport

@testable import WundercastServer

/// `[Places] Cities=` as the daemon holds it: one copy, read once per identity of the file
/// (a file replaced or changed in place is read again, a bad one refused while the last good
/// copy serves), never read on the reactor, a text table parsed.
@Suite struct CityTableFileTests {
    static func image(_ lines: String...) throws -> [UInt8] {
        try CityTable(
            parsing: Array(([CityTableFormat.header(libraryVersion: "test")] + lines).joined(separator: "\n").utf8)
        ).imageBytes
    }

    static let tromso = "Tromsø\tTroms\tNO\tEurope/Oslo\t69.6489\t18.95508\t64448\tNorway"
    static let oslo = "Oslo\tOslo\tNO\tEurope/Oslo\t59.91273\t10.74609\t580000\tNorway"
    /// Oslo misspelt: an image of the same size as ``oslo``'s.
    static let olso = "Olso\tOslo\tNO\tEurope/Oslo\t59.91273\t10.74609\t580000\tNorway"
    static let north = Coordinate(latitude: 69, longitude: 19)

    /// Writes `bytes` over the file at `path` in place (same inode, like `cp`).
    static func overwrite(_ path: String, _ bytes: [UInt8]) throws {
        let fd = open(path, O_WRONLY | O_TRUNC)
        try #require(fd >= 0)
        defer { close(fd) }
        try Descriptor.writeAll(fd, bytes, subject: path)
    }

    /// Sets the modification time of `path` to `seconds` after the epoch.
    static func touch(_ path: String, seconds: Int) throws {
        var times = [timespec(tv_sec: seconds, tv_nsec: 0), timespec(tv_sec: seconds, tv_nsec: 0)]
        try #require(utimensat(AT_FDCWD, path, &times, 0) == 0)
    }

    /// Counts the reads of the file (the reader the daemon uses, counted) and the reports.
    final class Reads: Sendable {
        let count = Atomic<Int>(0)
        let reports = Mutex<[(valid: Bool, line: String)]>([])

        func file(_ path: String) throws -> CityTableFile {
            try CityTableFile(
                path: path,
                read: { path, limit in
                    self.count.add(1, ordering: .relaxed)
                    return try FileCopy(path: path, limit: limit)
                },
                report: { valid, line in self.reports.withLock { $0.append((valid, line)) } })
        }

        var reads: Int { count.load(ordering: .relaxed) }
    }

    static func withTemporaryPath(_ name: String, _ body: (String) throws -> Void) throws {
        let directory = try DatagramSocket.temporaryDirectory()
        defer { rmdir(directory) }
        let path = directory + "/" + name
        defer { unlink(path) }
        try body(path)
    }

    static func withTemporaryPath(_ name: String, _ body: (String) async throws -> Void) async throws {
        let directory = try DatagramSocket.temporaryDirectory()
        defer { rmdir(directory) }
        let path = directory + "/" + name
        defer { unlink(path) }
        try await body(path)
    }

    @Test func manyLookupsReadTheFileOnce() throws {
        try Self.withTemporaryPath("cities.bin") { path in
            try WholeFile.writeAtomically(try Self.image(Self.tromso), to: path)
            let reads = Reads()
            let file = try reads.file(path)
            for _ in 0..<500 {
                #expect(file.withTable { $0.nearest(to: Self.north)?.name } == "Tromsø")
                #expect(file.withTable(reloading: false) { $0.count } == 1)
            }
            #expect(reads.reads == 1)
            #expect(file.heldBytes == (try Self.image(Self.tromso)).count)
        }
    }

    @Test func aFileReplacedOrChangedInPlaceIsReadAgainOnce() throws {
        try Self.withTemporaryPath("cities.bin") { path in
            try WholeFile.writeAtomically(try Self.image(Self.tromso), to: path)
            let reads = Reads()
            let file = try reads.file(path)
            #expect(file.withTable { $0.nearest(to: Self.north)?.name } == "Tromsø")

            try WholeFile.writeAtomically(try Self.image(Self.oslo, Self.tromso), to: path)  // a new inode
            #expect(file.withTable { $0.count } == 2)
            #expect(file.withTable { $0.search("oslo", limit: 1).first?.name } == "Oslo")
            #expect(reads.reads == 2)

            try Self.overwrite(path, try Self.image(Self.oslo))  // the same inode, another size
            #expect(file.withTable { $0.nearest(to: Self.north)?.name } == "Oslo")
            #expect(reads.reads == 3)

            try #require(try Self.image(Self.olso).count == (try Self.image(Self.oslo)).count)
            try Self.overwrite(path, try Self.image(Self.olso))  // the same inode and size, another time
            try Self.touch(path, seconds: 1_000_000_000)
            #expect(file.withTable { $0.nearest(to: Self.north)?.name } == "Olso")
            #expect(file.withTable { $0.count } == 1)
            #expect(reads.reads == 4)
            #expect(reads.reports.withLock { $0.allSatisfy(\.valid) })
        }
    }

    @Test func aLookupOnTheReactorNeverReads() throws {
        try Self.withTemporaryPath("cities.bin") { path in
            try WholeFile.writeAtomically(try Self.image(Self.tromso), to: path)
            let reads = Reads()
            let file = try reads.file(path)
            try WholeFile.writeAtomically(try Self.image(Self.oslo), to: path)
            #expect(file.withTable(reloading: false) { $0.nearest(to: Self.north)?.name } == "Tromsø")
            #expect(reads.reads == 1)
            #expect(file.withTable(reloading: true) { $0.nearest(to: Self.north)?.name } == "Oslo")
            #expect(file.withTable(reloading: false) { $0.nearest(to: Self.north)?.name } == "Oslo")
            #expect(reads.reads == 2)
        }
    }

    /// The daemon's nearest city (`Daemon.placeFinder`): a `now` on the reactor serves the copy
    /// it has; a lookup off it reads the changed file, and the reactor sees the new copy after.
    @Test func theDaemonReadsAChangedFileOnlyOffTheReactor() async throws {
        try await Self.withTemporaryPath("cities.bin") { path in
            try WholeFile.writeAtomically(try Self.image(Self.tromso), to: path)
            var configuration = Configuration()
            configuration.places.cities = path
            configuration.places.onlineGeocoding = false
            let loop = try EventLoop(name: "test-cities")
            defer { loop.stop() }
            let places = Daemon.placeFinder(configuration, loop: loop, logger: .discard)
            let north = Self.north
            #expect(places.nearest(north)?.name == "Tromsø")
            try WholeFile.writeAtomically(try Self.image(Self.oslo), to: path)
            #expect(await loop.perform { places.nearest(north)?.name } == "Tromsø")
            #expect(places.nearest(north)?.name == "Oslo")
            #expect(await loop.perform { places.nearest(north)?.name } == "Oslo")
        }
    }

    @Test(arguments: ["truncated", "damaged", "removed"])
    func aBadNewFileIsReportedAndTheLastGoodTableServes(_ how: String) throws {
        try Self.withTemporaryPath("cities.bin") { path in
            try WholeFile.writeAtomically(try Self.image(Self.tromso), to: path)
            let reads = Reads()
            let file = try reads.file(path)
            let good = try Self.image(Self.oslo)
            switch how {
            case "truncated": try WholeFile.writeAtomically(Array(good.prefix(good.count / 2)), to: path)
            case "damaged":
                var damaged = good
                damaged[damaged.count - 3] = 0x1B  // a control character in the last string
                try Self.overwrite(path, damaged)
            default: unlink(path)
            }
            for _ in 0..<10 {
                #expect(file.withTable { $0.nearest(to: Self.north)?.name } == "Tromsø")
                #expect(file.withTable { $0.search("tromso", limit: 1).first?.name } == "Tromsø")
            }
            let reports = reads.reports.withLock { $0 }
            if how == "removed" {
                #expect(reads.reads == 1)  // nothing there to read: the copy serves
                #expect(reports.isEmpty)
            } else {
                #expect(reads.reads == 2)  // once for the bad file, not per lookup
                #expect(reports.count == 1)
                #expect(reports.first?.valid == false)
                #expect(reports.first?.line.contains("the city table \(path) changed and cannot be used: ") == true)
                #expect(reports.first?.line.contains("not a valid city table image") == true)
                #expect(reports.first?.line.hasSuffix("the last good table (1 cities) keeps serving") == true)
            }

            try WholeFile.writeAtomically(good, to: path)
            #expect(file.withTable { $0.nearest(to: Self.north)?.name } == "Oslo")
            #expect(reads.reportsValid.last == true)
        }
    }

    @Test func namesFoundInAnOlderCopyAreLookedUpAgain() async throws {
        try await Self.withTemporaryPath("cities.bin") { path in
            try WholeFile.writeAtomically(try Self.image(Self.tromso), to: path)
            let file = try Reads().file(path)
            let resolver = PlaceResolver(table: file, geocoder: nil)
            await #expect(throws: PlaceError.noSuchPlace(name: "Oslo")) { try await resolver.resolve("Oslo") }
            #expect(file.generation == 0)

            var damaged = try Self.image(Self.oslo)
            damaged[damaged.count - 3] = 0x1B
            try Self.overwrite(path, damaged)  // refused: the last good copy serves, no new generation
            await #expect(throws: PlaceError.noSuchPlace(name: "Oslo")) { try await resolver.resolve("Oslo") }
            #expect(file.generation == 0)

            try WholeFile.writeAtomically(try Self.image(Self.oslo, Self.tromso), to: path)
            #expect(try await resolver.resolve("Oslo").name == "Oslo")
            #expect(file.generation == 1)
        }
    }

    @Test func aTextTableIsParsedAndABadOneRefused() throws {
        try Self.withTemporaryPath("cities.tsv") { path in
            try WholeFile.writeAtomically(
                Array((CityTableFormat.header(libraryVersion: "test") + "\n" + Self.tromso + "\n").utf8), to: path)
            let reads = Reads()
            let file = try reads.file(path)
            try Self.overwrite(path, [])
            #expect(file.withTable { $0.search("Tromso", limit: 1).first?.name } == "Tromsø")
            #expect(reads.reports.withLock { $0.first?.line.contains(path) } == true)
            try Self.overwrite(
                path, Array((CityTableFormat.header(libraryVersion: "test") + "\n" + Self.oslo + "\n").utf8))
            #expect(file.withTable { $0.search("Oslo", limit: 1).first?.name } == "Oslo")
        }
    }

    @Test func badFilesAreRefusedWithTheirReason() throws {
        try Self.withTemporaryPath("cities.bin") { path in
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
}

extension CityTableFileTests.Reads {
    var reportsValid: [Bool] { reports.withLock { $0.map(\.valid) } }
}
