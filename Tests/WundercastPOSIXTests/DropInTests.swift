import Foundation
import Testing
import WundercastConfiguration
import WundercastServer

#if canImport(Glibc)
import Glibc
#endif

/// Drop-ins as systemd reads its own: two directories, masking by name and by /dev/null,
/// sorted order, only regular files read, every error at once.
@Suite struct DropInTests {
    /// A fresh directory with `etc/` and `run/` drop-in directories and a main file path.
    private struct Tree {
        let root: String
        var main: String { root + "/wundercast.conf" }
        var etc: String { root + "/etc/wundercast.conf.d" }
        var run: String { root + "/run/wundercast.conf.d" }
        var sources: ConfigurationSources {
            ConfigurationSources(mainFile: main, dropInDirectories: [etc, run, root + "/missing/wundercast.conf.d"])
        }

        init() throws {
            root =
                FileManager.default.temporaryDirectory.appendingPathComponent(
                    "wundercast-dropins-\(UInt64.random(in: 0...UInt64.max))"
                ).path
            for directory in [root + "/etc/wundercast.conf.d", root + "/run/wundercast.conf.d"] {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            }
        }

        func write(_ path: String, _ text: String) throws {
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        }

        func remove() { try? FileManager.default.removeItem(atPath: root) }
    }

    @Test func dropInsApplyInNameOrderAcrossDirectoriesAndMaskByName() throws {
        let tree = try Tree()
        defer { tree.remove() }
        try tree.write(tree.main, "[Location]\nGPSD=main.lan\n[Throttle]\nMaxAge=1h\nMinDistance=5km\n")
        try tree.write(tree.etc + "/10-a.conf", "[Location]\nGPSD=a.lan\n")
        try tree.write(tree.run + "/10-a.conf", "[Location]\nGPSD=masked.lan\n[Throttle]\nMinDistance=9km\n")
        try tree.write(tree.run + "/20-b.conf", "# b\n[Location]\nGPSD=b.lan:3000\n")
        try tree.write(tree.etc + "/30-c.conf", "[Throttle]\nMaxAge=2h\n")
        // Not drop-ins: wrong suffix, hidden, a backup.
        try tree.write(tree.etc + "/README", "not a configuration")
        try tree.write(tree.etc + "/.hidden.conf", "[Nope]\n")
        try tree.write(tree.etc + "/99-z.conf~", "[Nope]\n")
        let parsed = try Configuration.load(tree.sources)
        #expect(parsed.files == [tree.main, tree.etc + "/10-a.conf", tree.run + "/20-b.conf", tree.etc + "/30-c.conf"])
        #expect(parsed.configuration.location.gpsdHost == "b.lan")
        #expect(parsed.configuration.location.gpsdPort == 3000)
        #expect(parsed.configuration.throttle.maxAge == .seconds(7200))
        #expect(parsed.configuration.throttle.minDistance == 5000, "the masked run/10-a.conf is not read")
        #expect(parsed.origins["Location.GPSD"] == ConfigurationOrigin(file: tree.run + "/20-b.conf", line: 3))
        #expect(parsed.origins["Throttle.MaxAge"] == ConfigurationOrigin(file: tree.etc + "/30-c.conf", line: 2))
        #expect(parsed.origins["Throttle.MinDistance"] == ConfigurationOrigin(file: tree.main, line: 5))
    }

    @Test func aLinkToDevNullMasksTheNameInEveryDirectory() throws {
        let tree = try Tree()
        defer { tree.remove() }
        try tree.write(tree.main, "[Location]\nGPSD=main.lan\n")
        try tree.write(tree.run + "/50-gpsd.conf", "[Location]\nGPSD=vendor.lan\n")
        #expect(try Configuration.load(tree.sources).configuration.location.gpsdHost == "vendor.lan")
        #expect(symlink("/dev/null", tree.etc + "/50-gpsd.conf") == 0)
        let parsed = try Configuration.load(tree.sources)
        #expect(parsed.configuration.location.gpsdHost == "main.lan")
        #expect(parsed.files == [tree.main])
        // A link to a regular file elsewhere is read.
        try tree.write(tree.root + "/elsewhere", "[Location]\nGPSD=linked.lan\n")
        #expect(symlink(tree.root + "/elsewhere", tree.etc + "/60-link.conf") == 0)
        let linked = try Configuration.load(tree.sources)
        #expect(linked.configuration.location.gpsdHost == "linked.lan")
        #expect(linked.origins["Location.GPSD"] == ConfigurationOrigin(file: tree.etc + "/60-link.conf", line: 2))
    }

    /// A FIFO (which would block a plain read for ever), a directory, a device and a dangling
    /// link are each an error naming the file; with a bad line elsewhere, all come at once.
    @Test func onlyRegularFilesAreReadAndEveryErrorIsReported() throws {
        let tree = try Tree()
        defer { tree.remove() }
        try tree.write(tree.main, "[Location]\nGPSD=h:99999\n")
        #expect(mkfifo(tree.etc + "/10-fifo.conf", 0o644) == 0)
        try FileManager.default.createDirectory(atPath: tree.etc + "/20-dir.conf", withIntermediateDirectories: false)
        #expect(symlink("/dev/zero", tree.run + "/30-zero.conf") == 0)
        #expect(symlink(tree.root + "/nowhere", tree.run + "/40-dangling.conf") == 0)
        try tree.write(tree.run + "/50-bad.conf", "[Socket]\nPath=/\n")
        #expect(
            throws: ConfigurationErrors([
                ConfigurationError(
                    file: tree.main, line: 2, message: "GPSD=\"h:99999\" has port 99999, outside 1-65535"),
                ConfigurationError(
                    file: tree.etc + "/10-fifo.conf", line: 0, message: "cannot read: not a regular file"),
                ConfigurationError(file: tree.etc + "/20-dir.conf", line: 0, message: "cannot read: Is a directory"),
                ConfigurationError(
                    file: tree.run + "/30-zero.conf", line: 0, message: "cannot read: not a regular file"),
                ConfigurationError(
                    file: tree.run + "/40-dangling.conf", line: 0, message: "cannot read: No such file or directory"),
                ConfigurationError(
                    file: tree.run + "/50-bad.conf", line: 2, message: "Path=\"/\" is the root directory, not a file"),
            ])
        ) {
            try Configuration.load(tree.sources)
        }
    }

    @Test func theMainFileMayBeAFIFOOnlyToBeRefused() throws {
        let tree = try Tree()
        defer { tree.remove() }
        #expect(mkfifo(tree.main, 0o644) == 0)
        #expect(
            throws: ConfigurationErrors([
                ConfigurationError(file: tree.main, line: 0, message: "cannot read: not a regular file")
            ])
        ) {
            try Configuration.load(tree.sources)
        }
    }

    @Test func aMissingMainFileIsAnErrorUnlessOptionalAndDropInsApplyEitherWay() throws {
        let tree = try Tree()
        defer { tree.remove() }
        try tree.write(tree.etc + "/10-a.conf", "[Location]\nGPSD=a.lan\n")
        #expect(
            throws: ConfigurationErrors([
                ConfigurationError(file: tree.main, line: 0, message: "cannot read: No such file or directory")
            ])
        ) {
            try Configuration.load(tree.sources)
        }
        var optional = tree.sources
        optional.mainFileOptional = true
        let parsed = try Configuration.load(optional)
        #expect(parsed.files == [tree.etc + "/10-a.conf"])
        #expect(parsed.configuration.location.gpsdHost == "a.lan")
    }

    @Test func aSocketPathThatIsADirectoryIsRefusedWhereItWasSet() throws {
        let tree = try Tree()
        defer { tree.remove() }
        try tree.write(tree.main, "[Socket]\nPath=\(tree.etc)\n")
        #expect(
            throws: ConfigurationErrors([
                ConfigurationError(
                    file: tree.main, line: 2,
                    message:
                        "Path=\"\(tree.etc)\" is a directory; name the socket file in it (e.g. \(tree.etc)/wundercast.sock)"
                )
            ])
        ) {
            try Configuration.load(tree.sources)
        }
    }

    @Test func aMissingCityTableIsAWarningAtItsLine() throws {
        let tree = try Tree()
        defer { tree.remove() }
        try tree.write(tree.main, "[Places]\nCities=\(tree.root)/cities.bin\n")
        let parsed = try Configuration.load(tree.sources)
        #expect(
            Configuration.fileSystemWarnings(parsed).map(\.description) == [
                "\(tree.main):2: warning: Cities=\"\(tree.root)/cities.bin\" cannot be read: No such file or directory; the daemon runs without place names (make install installs the table)"
            ])
        try tree.write(tree.root + "/cities.bin", "")
        #expect(Configuration.fileSystemWarnings(parsed).isEmpty)
    }

    @Test func theCommandLineChoosesTheDirectories() {
        let standard = ConfigurationSources.forCommandLine(path: nil, optional: false)
        #expect(standard.mainFile == "/etc/wundercast/wundercast.conf")
        #expect(standard.mainFileOptional)
        #expect(
            standard.dropInDirectories == [
                "/etc/wundercast/wundercast.conf.d", "/run/wundercast/wundercast.conf.d",
                "/usr/local/lib/wundercast/wundercast.conf.d", "/usr/lib/wundercast/wundercast.conf.d",
            ])
        // The unit names the default file: the same directories, but the file must exist.
        let named = ConfigurationSources.forCommandLine(path: "/etc/wundercast/wundercast.conf", optional: false)
        #expect(named.dropInDirectories == standard.dropInDirectories)
        #expect(!named.mainFileOptional)
        let own = ConfigurationSources.forCommandLine(
            path: "/home/me/.config/wundercast/wundercast.conf", optional: true)
        #expect(own.dropInDirectories == ["/home/me/.config/wundercast/wundercast.conf.d"])
        #expect(own.mainFileOptional)
    }
}
