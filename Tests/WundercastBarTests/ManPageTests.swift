import Foundation
import Testing
import WundercastTestSupport

@testable import WundercastModel
@testable import WundercastConfiguration
@testable import WundercastProtocol
@testable import WundercastFormats

/// The hand-written man pages in `man/`: groff reads them without a warning, and they document
/// what the programs and the parser really have.
@Suite struct ManPageTests {
    static let pages = ["man/wundercastctl.1", "man/wundercastd.8", "man/wundercast.conf.5"]

    /// The roff source with its escapes for `-` and quotes undone, to search for names.
    static func source(_ page: String) throws -> String {
        try Repository.text(page)
            .replacingOccurrences(of: "\\-", with: "-")
            .replacingOccurrences(of: "\\(dq", with: "\"")
            .replacingOccurrences(of: "\\(aq", with: "'")
    }

    @Test(
        .enabled(if: Tool.exists("groff"), "groff is not installed (apt-get install groff-base)"),
        arguments: pages)
    func groffReadsItWithoutWarnings(_ page: String) async throws {
        // -ww: every warning; -z: no output, only the diagnostics.
        let result = try await runProcess(
            try Tool.require("groff"), ["-man", "-Tutf8", "-ww", "-z", Repository.url(page).path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "\(page): \(result.stderr)")
    }

    @Test(.enabled(if: Tool.exists("man"), "man is not installed (apt-get install man-db)"), arguments: pages)
    func manReadsItWithoutWarnings(_ page: String) async throws {
        let result = try await runProcess(
            try Tool.require("man"), ["--warnings", "-l", Repository.url(page).path],
            environment: ["PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8", "MANWIDTH": "80", "MANPAGER": "cat"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "\(page): \(result.stderr)")
        #expect(result.stdout.contains("NAME"))
    }

    /// The part of `text` from the line `.SS [name]` to the next `.SS` or `.SH`.
    static func section(_ name: String, in text: String) -> String? {
        guard let start = text.range(of: "\n.SS [\(name)]\n") else { return nil }
        let rest = text[start.upperBound...]
        let end = [rest.range(of: "\n.SS "), rest.range(of: "\n.SH ")].compactMap { $0?.lowerBound }.min()
        return String(rest[..<(end ?? rest.endIndex)])
    }

    /// The entry `.TP` `.B Key=` in `section`, up to the next `.TP`.
    static func entry(_ key: String, in section: String) -> String? {
        guard let start = section.range(of: "\n.TP\n.B \(key)=\n") else { return nil }
        let rest = section[start.upperBound...]
        return String(rest[..<(rest.range(of: "\n.TP")?.lowerBound ?? rest.endIndex)])
    }

    /// Every section and key the parser knows is documented in its section, with the default of
    /// the sample file (`#Key=default` in etc/wundercast.conf), and nothing else is.
    @Test func wundercastConfDocumentsEveryKeyWithTheSampleDefault() throws {
        let page = try Self.source("man/wundercast.conf.5")
        let sample = try Repository.text("etc/wundercast.conf")
        for section in Configuration.sections {
            let part = try #require(Self.section(section.name, in: page), "no .SS [\(section.name)]")
            // The sample's own section: a key name may stand in several sections (Path=, Precision=).
            let samplePart = try #require(
                sample.components(separatedBy: "[\(section.name)]\n").dropFirst().first?
                    .components(separatedBy: "\n[").first, "etc/wundercast.conf has no [\(section.name)]")
            for key in section.keys {
                let entry = try #require(Self.entry(key.name, in: part), "[\(section.name)] \(key.name)= is missing")
                let line = samplePart.split(separator: "\n").first { $0.hasPrefix("#\(key.name)=") }
                let value = try #require(line, "etc/wundercast.conf has no #\(key.name)=").dropFirst(key.name.count + 2)
                if value.isEmpty {
                    #expect(entry.contains("Default: none."), "[\(section.name)] \(key.name)=: \(entry)")
                } else {
                    #expect(
                        entry.contains("Default: \\fB\(value)\\fP."), "[\(section.name)] \(key.name)=\(value): \(entry)"
                    )
                }
            }
            let lines = part.split(separator: "\n", omittingEmptySubsequences: false)
            let documented = zip(lines, lines.dropFirst()).filter { $0.0 == ".TP" && $0.1.hasPrefix(".B ") }
                .map { String($0.1.dropFirst(3).dropLast()) }
            #expect(documented == section.keys.map(\.name), "[\(section.name)] in the parser's order")
        }
        let sections = page.split(separator: "\n").filter { $0.hasPrefix(".SS [") }
        #expect(sections.map(String.init) == Configuration.sections.map { ".SS [\($0.name)]" })
    }

    /// The words of `--help` that look like options (`--socket`, `-s`).
    static func options(inUsage usage: String) -> Set<String> {
        var found: Set<String> = []
        let pattern = try! NSRegularExpression(pattern: "(?<![\\w-])(--[a-z][a-z-]*|-[a-zA-Z])(?![\\w-])")
        let range = NSRange(usage.startIndex..., in: usage)
        for match in pattern.matches(in: usage, range: range) {
            found.insert(String(usage[Range(match.range, in: usage)!]))
        }
        return found
    }

    @Test func wundercastctlDocumentsEveryCommandOptionFormatIconSetAndPlaceholder() async throws {
        let page = try Self.source("man/wundercastctl.1")
        let usage = try await runProcess(try Binaries.path("wundercastctl"), ["--help"])
        #expect(usage.status == 0)
        for option in Self.options(inUsage: usage.stdout) {
            #expect(page.contains(option), "\(option) of --help")
        }
        // Each command has an entry of its own: a `.TP` tag that starts with it.
        let lines = page.split(separator: "\n", omittingEmptySubsequences: false)
        let tags = zip(lines, lines.dropFirst()).filter { $0.0 == ".TP" }.map {
            $0.1.replacingOccurrences(of: "\\fB", with: " ").split(separator: " ").first { !$0.hasPrefix(".") }
                .map { String($0.prefix { $0.isLetter }) } ?? ""
        }
        for summary in SocketProtocol.requestSummaries {
            let command = String(summary.split(separator: " ")[0])
            #expect(tags.contains(command), "command \(command)")
        }
        for format in OutputFormat.allCases { #expect(page.contains(".B \(format.rawValue)\n"), "format \(format)") }
        for icons in IconSet.allCases { #expect(page.contains(icons.rawValue), "icon set \(icons)") }
        for placeholder in Placeholder.allCases {
            #expect(page.contains("{\(placeholder.rawValue)}"), "placeholder {\(placeholder.rawValue)}")
        }
        for status in ["always", "when-in-use", "denied", "ask"] { #expect(page.contains(status)) }
        for status in ["\n.B 0\n", "\n.B 1\n", "\n.B 2\n", "\n.B 33\n"] { #expect(page.contains(status)) }
        #expect(page.contains("WUNDERCAST_SOCKET"))
        // An example per bar: the command of each snippet.
        for snippet in [
            try Snippet.waybar(), try Snippet.i3blocks(), try Snippet.polybar(), try Snippet.i3statusRust(),
            try Snippet.swaybar(),
        ] {
            #expect(page.contains(snippet.command), "the \(snippet) example")
        }
    }

    @Test func wundercastdDocumentsEveryOptionAndMessageID() async throws {
        let page = try Self.source("man/wundercastd.8")
        let usage = try await runProcess(try Binaries.path("wundercastd"), ["--help"])
        for option in Self.options(inUsage: usage.stdout + usage.stderr) {
            #expect(page.contains(option), "\(option) of --help")
        }
        let catalog = try Repository.text("systemd/wundercast.catalog")
        let ids = catalog.split(separator: "\n").filter { $0.hasPrefix("-- ") }.map { $0.dropFirst(3) }
        #expect(ids.count >= 6)
        for id in ids { #expect(page.contains(".B \(id)\n"), "MESSAGE_ID \(id)") }
        for word in [
            "SIGHUP", "SIGTERM", "LISTEN_FDS", "READY=1", "RELOADING=1", "WATCHDOG=1", "STOPPING=1", "SO_PEERCRED",
            "PreciseGroup=", "PublicPrecision=", "Mode=", "PrivateUsers=yes",
        ] {
            #expect(page.contains(word), "\(word)")
        }
    }
}
