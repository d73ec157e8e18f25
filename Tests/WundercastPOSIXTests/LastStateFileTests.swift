import Foundation
import Glibc
import Testing
import WundercastConfiguration
import WundercastPipeline
@testable import WundercastPOSIX
import WundercastTestSupport

@testable import WundercastServer

/// The kept-weather file on disk: written atomically and privately, read back, and anything
/// unusable set aside as `PATH.corrupt` without stopping the daemon (and without blocking on
/// a FIFO).
@Suite struct LastStateFileTests {
    let directory: String
    let file: LastStateFile

    init() throws {
        directory = try DatagramSocket.temporaryDirectory()
        file = LastStateFile(path: directory + "/state.json")
    }

    static let record = LastState(
        provider: "open-meteo", fetchedAt: Date(timeIntervalSince1970: 1_800_000_000), clockSynchronized: true,
        location: .init(latitude: 48.12, longitude: 11.57, source: .gpsd), weather: makeWeather(3))

    func names() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
    }

    func remove() { try? FileManager.default.removeItem(atPath: directory) }

    @Test func noFileIsNoState() {
        defer { remove() }
        #expect(file.load() == .absent)
        #expect(names().isEmpty)
    }

    @Test func whatIsWrittenIsPrivateAndLoadsBack() throws {
        defer { remove() }
        try file.write(Self.record)
        var status = stat()
        #expect(stat(file.path, &status) == 0)
        #expect(status.st_mode & 0o777 == 0o600)
        #expect(file.load() == .valid(Self.record))
        #expect(names() == ["state.json"])
    }

    /// A crash during a write leaves `state.json.tmp-XXXXXX`; loading clears such leftovers
    /// and nothing else.
    @Test func loadingRemovesTheLeftoversOfACrashedWrite() throws {
        defer { remove() }
        try file.write(Self.record)
        for name in ["state.json.tmp-Ab3xY9", "state.json.tmp-000000", "state.json.tmp-toolong", "other.tmp-Ab3xY9"] {
            #expect(FileManager.default.createFile(atPath: directory + "/" + name, contents: Data("{".utf8)))
        }
        #expect(file.load() == .valid(Self.record))
        #expect(names() == ["other.tmp-Ab3xY9", "state.json", "state.json.tmp-toolong"])
    }

    static let unusable: [(String, [UInt8], String)] = [
        ("torn", Array(record.encoded().prefix(40)), "not a JSON object"),
        ("garbage", [0x00, 0x01, 0xFF], "not a JSON object"),
        (
            "version 9", Array(#"{"format":"wundercast-last-state","version":9}"#.utf8),
            "format version 9 (this daemon reads 1)"
        ),
        ("oversize", [UInt8](repeating: 0x20, count: LastState.sizeLimit + 1), "larger than 1048576 bytes"),
    ]

    @Test(arguments: unusable.indices)
    func anUnusableFileIsSetAsideWithItsReason(_ index: Int) throws {
        defer { remove() }
        let (_, bytes, reason) = Self.unusable[index]
        #expect(FileManager.default.createFile(atPath: file.path, contents: Data(bytes)))
        #expect(file.load() == .refused(reason: reason, setAside: true))
        #expect(names() == ["state.json.corrupt"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: file.asidePath)) == Data(bytes))
        // The next write is not disturbed by what was set aside.
        try file.write(Self.record)
        #expect(file.load() == .valid(Self.record))
    }

    /// A FIFO at the path would block a plain open: it is refused at once and left alone.
    @Test func aFIFOIsLeftAloneWithoutBlocking() {
        defer { remove() }
        #expect(mkfifo(file.path, 0o600) == 0)
        #expect(file.load() == .notAFile(kind: "a FIFO"))
        #expect(names() == ["state.json"])
    }

    /// `[Cache] Path=` naming a directory never moves the directory (nor what is in it).
    @Test func aDirectoryIsLeftAlone() {
        defer { remove() }
        #expect(mkdir(file.path, 0o700) == 0)
        #expect(FileManager.default.createFile(atPath: file.path + "/inside", contents: Data("x".utf8)))
        #expect(file.load() == .notAFile(kind: "a directory"))
        #expect(names() == ["state.json"])
        #expect(FileManager.default.fileExists(atPath: file.path + "/inside"))
    }

    /// A device node (`Path=/dev/null`) is never renamed, whatever the daemon's rights.
    @Test func aDeviceIsLeftAlone() {
        #expect(LastStateFile(path: "/dev/null").load() == .notAFile(kind: "a device"))
        var status = stat()
        #expect(lstat("/dev/null", &status) == 0 && status.st_mode & S_IFMT == S_IFCHR)
        #expect(!FileManager.default.fileExists(atPath: "/dev/null.corrupt"))
    }

    /// A symbolic link is judged by itself (`lstat`), even to a valid file: neither the link
    /// nor its target is renamed.
    @Test func aSymbolicLinkIsLeftAlone() throws {
        defer { remove() }
        let target = LastStateFile(path: directory + "/target.json")
        try target.write(Self.record)
        #expect(symlink(target.path, file.path) == 0)
        #expect(file.load() == .notAFile(kind: "a symbolic link"))
        #expect(names() == ["state.json", "target.json"])
        #expect(target.load() == .valid(Self.record))
    }

    /// `--check-config`: a `[Cache] Path=` that is not a regular file, or under /proc, /sys or
    /// /dev, is an error at its line; a regular file or nothing yet is fine.
    @Test func checkConfigRefusesACachePathThatIsNotAFileOrUnderTheKernelTrees() throws {
        defer { remove() }
        func errors(_ path: String) -> [String] {
            let parsed = Configuration.parse(
                "# c\n[Cache]\nPath=\(path)\n", file: "w.conf", onto: ParsedConfiguration())
            return Configuration.cachePathErrors(parsed).map(\.description)
        }
        #expect(errors(file.path).isEmpty)
        try file.write(Self.record)
        #expect(errors(file.path).isEmpty)
        #expect(errors(directory) == ["w.conf:3: Path=\"\(directory)\" is a directory, not a regular file"])
        #expect(
            errors("/dev/null") == ["w.conf:3: Path=\"/dev/null\" is under /dev, where no file of the daemon belongs"])
        #expect(errors("/proc/wundercast.json").first?.hasPrefix("w.conf:3: ") == true)
        #expect(errors("/sys/x").count == 1)
        #expect(errors("/devices/state.json").isEmpty)
        #expect(mkfifo(directory + "/fifo", 0o600) == 0)
        #expect(errors(directory + "/fifo") == ["w.conf:3: Path=\"\(directory)/fifo\" is a FIFO, not a regular file"])
    }

    /// The temporary file of a write is created exclusively, private and close-on-exec.
    @Test func theTemporaryFileIsExclusivePrivateAndCloseOnExec() throws {
        defer { remove() }
        let (fd, path) = try WholeFile.createTemporary(beside: file.path)
        defer { close(fd) }
        #expect(path.hasPrefix(file.path + ".tmp-") && path.utf8.count == file.path.utf8.count + 11)
        #expect(fcntl(fd, F_GETFD) & FD_CLOEXEC != 0)
        var status = stat()
        #expect(fstat(fd, &status) == 0)
        #expect(status.st_mode & 0o777 == 0o600)
        #expect(WholeFile.removeTemporaries(of: file.path) == [String(path.split(separator: "/").last!)])
    }
}
