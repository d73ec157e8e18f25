import Foundation
import Testing
import WundercastTestSupport

/// `make install` installs every man page, completion and snippet: its part that needs no
/// build (`make install-data`, a prerequisite of `install`) runs into a temporary DESTDIR.
@Suite struct InstallTests {
    @Test(.enabled(if: Tool.exists("make", "install"), "make is not installed"))
    func installDataPutsEveryManPageCompletionAndSnippetInPlace() async throws {
        let dest = try ScratchDirectory()
        defer { dest.remove() }
        let result = try await runProcess(
            try Tool.require("make"),
            ["-s", "-C", Repository.root.path, "install-data", "DESTDIR=\(dest.path)", "PREFIX=/usr/local"])
        #expect(result.status == 0, "\(result.stderr)")
        var expected: [String] = []
        for page in Repository.files(under: "man") {
            let name = URL(fileURLWithPath: page).lastPathComponent
            expected.append("usr/local/share/man/man\(name.split(separator: ".").last!)/\(name)")
        }
        #expect(expected.count == 3)
        expected += [
            "usr/local/share/bash-completion/completions/wundercastctl",
            "usr/local/share/zsh/site-functions/_wundercastctl",
            "usr/local/share/fish/vendor_completions.d/wundercastctl.fish",
        ]
        let snippets = Repository.files(under: "etc")
        #expect(snippets.contains("etc/waybar/config.jsonc") && snippets.contains("etc/i3blocks.conf"))
        expected += snippets.map { "usr/local/share/doc/wundercast/examples/" + $0.dropFirst("etc/".count) }
        for path in expected {
            let url = dest.url.appendingPathComponent(path)
            #expect(FileManager.default.fileExists(atPath: url.path), "\(path) not installed")
        }
        // Every file of completions/ is one of the three above.
        #expect(Repository.files(under: "completions").count == 3)
        // The installed copies are the files themselves.
        let page = try String(
            contentsOf: dest.url.appendingPathComponent("usr/local/share/man/man1/wundercastctl.1"), encoding: .utf8)
        #expect(page == (try Repository.text("man/wundercastctl.1")))
    }

    /// A DESTDIR that does not exist yet is made (install once walked up past `/` for ever).
    @Test(.enabled(if: Tool.exists("make", "install"), "make is not installed"))
    func aDestdirThatDoesNotExistYetIsMadeAndUninstallEmptiesIt() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let dest = scratch.url.appendingPathComponent("new/root").path
        for target in ["install-data", "uninstall"] {
            let result = try await runProcess(
                try Tool.require("timeout"),
                ["60", try Tool.require("make"), "-s", "-C", Repository.root.path, target, "DESTDIR=\(dest)"])
            #expect(result.status == 0, "\(target): \(result.stderr)")
        }
        let left = FileManager.default.enumerator(atPath: dest)?.compactMap { $0 as? String } ?? []
        #expect(FileManager.default.fileExists(atPath: dest))
        #expect(left.isEmpty, "\(left)")
    }

    /// `make install` runs install-data.
    @Test func installDependsOnInstallData() throws {
        let makefile = try Repository.text("Makefile")
        let rule = makefile.split(separator: "\n").first { $0.hasPrefix("install:") }
        #expect(rule?.contains("install-data") == true, "\(rule ?? "no install rule")")
    }
}
