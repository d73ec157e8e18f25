import Foundation
import Testing
import WundercastSupport
import WundercastTestSupport

/// `make install` as a newcomer runs it, into a temporary DESTDIR: the expected tree with the
/// stripped release binaries under their size caps, units whose paths follow PREFIX and that
/// verify as installed, the journal catalog where `journalctl --update-catalog` reads it, and
/// `make uninstall` leaving the tree empty.
///
/// Needs the release build (`make release`; `make check-install` builds it and runs this suite
/// with WUNDERCAST_INSTALL_TEST=1, as CI does): the test runs `install-files`, never a build.
@Suite(
    .serialized,
    .enabled(
        if: ProcessInfo.processInfo.environment["WUNDERCAST_INSTALL_TEST"] == "1",
        "set WUNDERCAST_INSTALL_TEST=1 after `make release` (make check-install)"))
struct FullInstallTests {
    /// Issue 8: stripped, static Swift runtime. The ctl's cap is 16 MB again (16.5 MB while issue
    /// 14's hardening sat in the one core module it linked whole: SwiftPM links a module's every
    /// object file); since issue 15 it links only the model, protocol and formats (14.8 MB).
    static let daemonCap = 25_000_000
    static let ctlCap = 16_000_000

    /// Installs into a fresh DESTDIR with `prefix`; returns it.
    func install(prefix: String) async throws -> ScratchDirectory {
        let dest = try ScratchDirectory()
        let result = try await runProcess(
            try Tool.require("make"),
            [
                "-s", "-C", Repository.root.path, "install-data", "install-files", "DESTDIR=\(dest.path)",
                "PREFIX=\(prefix)",
            ], timeout: .seconds(120))
        #expect(result.status == 0, "\(result.stderr)")
        return dest
    }

    /// Every regular file and directory under `dest`, relative, sorted.
    func tree(_ dest: ScratchDirectory) -> [String] {
        let walker = FileManager.default.enumerator(atPath: dest.path)
        var paths: [String] = []
        while let path = walker?.nextObject() as? String { paths.append(path) }
        return paths.sorted()
    }

    func uninstall(_ dest: ScratchDirectory, prefix: String) async throws {
        let result = try await runProcess(
            try Tool.require("make"),
            ["-s", "-C", Repository.root.path, "uninstall", "DESTDIR=\(dest.path)", "PREFIX=\(prefix)"])
        #expect(result.status == 0, "\(result.stderr)")
    }

    static func expectedFiles(prefix: String) -> [String] {
        let p = String(prefix.dropFirst())
        var files = [
            "\(p)/bin/wundercastd", "\(p)/bin/wundercastctl",
            "\(p)/lib/systemd/system/wundercast.service", "\(p)/lib/systemd/system/wundercast.socket",
            "\(p)/lib/systemd/user/wundercast.service", "\(p)/lib/systemd/user/wundercast.socket",
            "\(p)/lib/sysusers.d/wundercast.conf", "\(p)/lib/systemd/catalog/wundercast.catalog",
            "\(p)/share/wundercast/cities.bin", "\(p)/share/wundercast/install-manifest",
            "\(p)/share/doc/wundercast/README.md", "\(p)/share/doc/wundercast/PROTOCOL.md",
            "\(p)/share/bash-completion/completions/wundercastctl", "\(p)/share/zsh/site-functions/_wundercastctl",
            "\(p)/share/fish/vendor_completions.d/wundercastctl.fish",
            "etc/wundercast/wundercast.conf",
        ]
        for page in Repository.files(under: "man") {
            let name = URL(fileURLWithPath: page).lastPathComponent
            files.append("\(p)/share/man/man\(name.split(separator: ".").last!)/\(name)")
        }
        files += Repository.files(under: "etc").map { "\(p)/share/doc/wundercast/examples/" + $0.dropFirst(4) }
        // wundercastctl's message catalogues, one per po/<lang>.po.
        files += Repository.files(under: "po").filter { $0.hasSuffix(".po") }.map {
            "\(p)/share/locale/\($0.dropFirst(3).dropLast(3))/LC_MESSAGES/wundercast.mo"
        }
        return files.sorted()
    }

    @Test func installLaysOutTheTreeWithStrippedBinariesUnderTheCapsAndUninstallEmptiesIt() async throws {
        let dest = try await install(prefix: "/usr/local")
        defer { dest.remove() }
        let files = tree(dest).filter { path in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: dest.file(path), isDirectory: &isDirectory)
                && !isDirectory.boolValue
        }
        #expect(files == Self.expectedFiles(prefix: "/usr/local"))

        for (name, cap) in [("wundercastd", Self.daemonCap), ("wundercastctl", Self.ctlCap)] {
            let path = dest.file("usr/local/bin/\(name)")
            let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
            #expect(size <= cap, "\(name): \(size) bytes, cap \(cap)")
            // Stripped: no symbol table left.
            let sections = try await runProcess(try Tool.require("readelf"), ["-S", "-W", path])
            #expect(sections.status == 0)
            #expect(!sections.stdout.contains(".symtab"), "\(name) is not stripped")
            // Runs from the installed tree: the Swift runtime is linked in.
            let version = try await runProcess(path, ["--version"])
            #expect(version.status == 0, "\(name) --version: \(version.stderr)")
            #expect(version.stdout.contains(Wundercast.version), "\(version.stdout)")
        }
        // The installed wundercastctl finds its catalogues beside it (<bin>/../share/locale): a
        // German reader gets the offline bar in German (the locale from make test-deps).
        let offline = try await runProcess(
            dest.file("usr/local/bin/wundercastctl"),
            ["--socket", dest.file("none.sock"), "now", "--format", "i3blocks"],
            environment: ["LANG": "de_DE.UTF-8", "PATH": "/usr/bin:/bin"])
        #expect(offline.stdout.hasPrefix("⚠ wundercast nicht erreichbar\n"), "\(offline.stdout) \(offline.stderr)")
        // Installed as is: the sample configuration is the repository's.
        #expect(
            try String(contentsOfFile: dest.file("etc/wundercast/wundercast.conf"), encoding: .utf8)
                == (try Repository.text("etc/wundercast.conf")))

        try await uninstall(dest, prefix: "/usr/local")
        #expect(tree(dest) == [], "left after uninstall")
    }

    /// The units name the installed binary, for another PREFIX too, and verify as installed
    /// (ExecStart= pointed at the binary inside DESTDIR, which must exist and be executable).
    @Test(arguments: ["/usr/local", "/usr"])
    func installedUnitsNameTheInstalledBinaryAndVerify(prefix: String) async throws {
        let dest = try await install(prefix: prefix)
        defer { dest.remove() }
        let p = String(prefix.dropFirst())
        let units = try ScratchDirectory()
        defer { units.remove() }
        for kind in ["system", "user"] {
            try FileManager.default.createDirectory(
                atPath: units.file(kind), withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            for name in ["wundercast.service", "wundercast.socket"] {
                let text = try String(contentsOfFile: dest.file("\(p)/lib/systemd/\(kind)/\(name)"), encoding: .utf8)
                let settings = text.split(separator: "\n").filter { !$0.hasPrefix("#") }.joined(separator: "\n")
                #expect(!settings.contains(prefix == "/usr" ? "/usr/local" : "/usr/lib/"), "\(kind)/\(name)")
                if name.hasSuffix(".service") {
                    let exec = text.split(separator: "\n").filter { $0.hasPrefix("ExecStart=") }
                    #expect(exec.count == 1 && exec[0].hasPrefix("ExecStart=\(prefix)/bin/wundercastd "), "\(exec)")
                }
                let resolved = text.replacingOccurrences(
                    of: "ExecStart=\(prefix)/bin/", with: "ExecStart=\(dest.path)\(prefix)/bin/")
                try resolved.write(toFile: units.file("\(kind)/\(name)"), atomically: true, encoding: .utf8)
            }
            let runtime = units.file("runtime-\(kind)")
            try FileManager.default.createDirectory(
                atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let verify = try await runProcess(
                try Tool.require("systemd-analyze"),
                (kind == "user" ? ["verify", "--user"] : ["verify"]) + [
                    "--man=no", "--recursive-errors=yes", units.file("\(kind)/wundercast.service"),
                    units.file("\(kind)/wundercast.socket"),
                ], environment: ["XDG_RUNTIME_DIR": runtime, "PATH": "/usr/bin:/bin"])
            #expect(verify.status == 0, "\(kind): \(verify.stdout) \(verify.stderr)")
        }
        if prefix != "/usr/local" {
            // The daemon's built-in city table path is /usr/local/…: the installed sample names it.
            let conf = try String(contentsOfFile: dest.file("etc/wundercast/wundercast.conf"), encoding: .utf8)
            #expect(conf.contains("\nCities=\(prefix)/share/wundercast/cities.bin\n"))
        }
        try await uninstall(dest, prefix: prefix)
        #expect(tree(dest) == [], "left after uninstall")
    }

    /// `journalctl --update-catalog` reads $(PREFIX)/lib/systemd/catalog/ for /usr/local and
    /// /usr (not /etc/systemd/catalog/): every MESSAGE_ID is listed from the installed tree.
    @Test(
        .enabled(if: Tool.exists("journalctl"), "journalctl is not installed"),
        arguments: ["/usr/local", "/usr"])
    func journalctlListsEveryMessageIDFromTheInstalledTree(prefix: String) async throws {
        let dest = try await install(prefix: prefix)
        defer { dest.remove() }
        let journalctl = try Tool.require("journalctl")
        let update = try await runProcess(journalctl, ["--root=\(dest.path)", "--update-catalog"])
        #expect(update.status == 0, "\(update.stderr)")
        let list = try await runProcess(journalctl, ["--no-pager", "--root=\(dest.path)", "--list-catalog"])
        #expect(list.status == 0, "\(list.stderr)")
        let listed = Set(
            list.stdout.split(separator: "\n").filter { $0.contains(" wundercast: ") }.map { String($0.prefix(32)) })
        #expect(MessageIDs.all.count >= 15)
        #expect(listed == Set(MessageIDs.all), "listed: \(listed.sorted())")
        // What journalctl wrote is not ours to uninstall; the rest goes.
        try FileManager.default.removeItem(atPath: dest.file("var"))
        try await uninstall(dest, prefix: prefix)
        #expect(tree(dest) == [], "left after uninstall")
    }

    /// An edited configuration survives uninstall (with its directory); an unchanged sample does not.
    @Test func uninstallKeepsAnEditedConfiguration() async throws {
        let dest = try await install(prefix: "/usr/local")
        defer { dest.remove() }
        let conf = dest.file("etc/wundercast/wundercast.conf")
        let edited = try String(contentsOfFile: conf, encoding: .utf8) + "[Journal]\nPrecision=2\n"
        try edited.write(toFile: conf, atomically: true, encoding: .utf8)
        try await uninstall(dest, prefix: "/usr/local")
        #expect(tree(dest) == ["etc", "etc/wundercast", "etc/wundercast/wundercast.conf"])
        #expect(try String(contentsOfFile: conf, encoding: .utf8) == edited)
    }
}

/// The `MESSAGE_ID`s of `Sources/WundercastSupport/Logging/MessageID.swift`, read from the source.
enum MessageIDs {
    static var all: [String] {
        let source = (try? Repository.text("Sources/WundercastSupport/Logging/MessageID.swift")) ?? ""
        return source.split(separator: "\n").compactMap { line in
            guard line.contains("static let"), let open = line.firstIndex(of: "\"") else { return nil }
            let id = line[line.index(after: open)...].prefix(32)
            return id.count == 32 && id.allSatisfy(\.isHexDigit) ? String(id) : nil
        }
    }
}
