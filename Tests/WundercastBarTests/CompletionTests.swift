import Foundation
import Testing
import WundercastTestSupport

@testable import WundercastModel
@testable import WundercastProtocol
@testable import WundercastFormats

/// The shell completions in `completions/`: bash's function run as bash runs it, zsh and fish
/// read by their own syntax check, and all three offer every command, format and icon set.
@Suite struct CompletionTests {
    static let bash = "completions/wundercastctl.bash"
    static let zsh = "completions/_wundercastctl"
    static let fish = "completions/wundercastctl.fish"

    /// The socket's requests, and `alerts` (wundercastctl's own: it reads `now`), after `around`.
    static let commands: [String] = {
        var names = SocketProtocol.requestSummaries.map { String($0.split(separator: " ")[0]) }
        names.insert("alerts", at: (names.firstIndex(of: "around") ?? names.count - 1) + 1)
        return names
    }()
    static let formats = OutputFormat.allCases.map(\.rawValue)
    static let iconSets = IconSet.allCases.map(\.rawValue)
    static let statuses = ["always", "when-in-use", "denied", "ask"]
    static let options = [
        "--socket", "--format", "--json", "--template", "--short-template", "--icons", "--icon-font", "--timeout",
        "--hide-offline", "--log", "--colors", "--hot", "--cold", "--help", "--version",
    ]
    /// The short options and the long ones they stand for (`wundercastctl --help`).
    static let shortOptions = [
        "-s": "--socket", "-f": "--format", "-j": "--json", "-t": "--template", "-i": "--icons", "-h": "--help",
        "-V": "--version",
    ]

    /// What `_wundercastctl` offers for the command line `words` (the last one is being
    /// completed), as bash would call it (`=` split off, as COMP_WORDBREAKS does).
    static func bashCompletions(_ words: [String]) async throws -> [String] {
        let quoted = words.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let script = """
            source "$0"
            COMP_WORDS=(\(quoted))
            COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
            _wundercastctl
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let result = try await runProcess(
            "/bin/bash", ["--norc", "-c", script, Repository.url(bash).path], environment: ["PATH": "/usr/bin:/bin"])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(words): \(result.stderr)")
        return result.stdout.split(separator: "\n").map(String.init)
    }

    @Test func bashOffersCommandsOptionsFormatsIconSetsAndStatuses() async throws {
        #expect(try await Self.bashCompletions(["wundercastctl", ""]) == Self.commands)
        #expect(try await Self.bashCompletions(["wundercastctl", "--"]) == Self.options)
        #expect(try await Self.bashCompletions(["wundercastctl", "--hi"]) == ["--hide-offline"])
        #expect(try await Self.bashCompletions(["wundercastctl", "--format", ""]) == Self.formats)
        #expect(
            try await Self.bashCompletions(["wundercastctl", "--format", "=", "i3"]) == [
                "i3blocks", "i3status-rs", "i3bar",
            ])
        #expect(try await Self.bashCompletions(["wundercastctl", "--icons", ""]) == Self.iconSets)
        #expect(try await Self.bashCompletions(["wundercastctl", "authorize", ""]) == Self.statuses)
        #expect(
            try await Self.bashCompletions(["wundercastctl", "--format", "json", "authorize", "w"]) == ["when-in-use"])
        #expect(try await Self.bashCompletions(["wundercastctl", "authorize", "ask", ""]) == [])
        #expect(try await Self.bashCompletions(["wundercastctl", "--format", "waybar", "wa"]) == ["watch"])
        #expect(try await Self.bashCompletions(["wundercastctl", "watch", ""]) == ["weather", "every"])
    }

    /// The short options take the same values, and an option's value is never the command.
    @Test func bashKnowsTheShortOptionsAndSkipsEveryValue() async throws {
        #expect(try await Self.bashCompletions(["wundercastctl", "-f", ""]) == Self.formats)
        #expect(try await Self.bashCompletions(["wundercastctl", "-i", ""]) == Self.iconSets)
        #expect(try await Self.bashCompletions(["wundercastctl", "--short-template", ""]) == [])
        for option in ["-i", "--log", "--colors", "--hot", "--cold", "--short-template", "--timeout", "-t", "-s"] {
            #expect(try await Self.bashCompletions(["wundercastctl", option, "x", ""]) == Self.commands, "\(option)")
        }
        #expect(try await Self.bashCompletions(["wundercastctl", "-j", "auth"]) == ["authorize"])
    }

    @Test(.enabled(if: Tool.exists("zsh"), "zsh is not installed (apt-get install zsh)"))
    func zshReadsItsCompletion() async throws {
        let result = try await runProcess(try Tool.require("zsh"), ["-n", Repository.url(Self.zsh).path])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
    }

    @Test(.enabled(if: Tool.exists("fish"), "fish is not installed (apt-get install fish)"))
    func fishReadsItsCompletion() async throws {
        let result = try await runProcess(try Tool.require("fish"), ["-n", Repository.url(Self.fish).path])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
    }

    /// fish runs the completion: the commands, then the formats after `--format`.
    @Test(.enabled(if: Tool.exists("fish"), "fish is not installed (apt-get install fish)"))
    func fishOffersCommandsAndFormats() async throws {
        func complete(_ line: String) async throws -> [String] {
            let result = try await runProcess(
                try Tool.require("fish"),
                [
                    "--no-config", "-c", "source $argv[1]; complete --do-complete=$argv[2]",
                    Repository.url(Self.fish).path, line,
                ],
                environment: ["PATH": "/usr/bin:/bin", "HOME": NSTemporaryDirectory()])
            return result.stdout.split(separator: "\n").map { String($0.split(separator: "\t")[0]) }
        }
        #expect(Set(try await complete("wundercastctl ")).isSuperset(of: Self.commands))
        #expect(Set(try await complete("wundercastctl --format ")) == Set(Self.formats))
        #expect(Set(try await complete("wundercastctl authorize ")) == Set(Self.statuses))
        #expect(Set(try await complete("wundercastctl -i ")) == Set(Self.iconSets))
    }

    /// zsh and fish name the same commands, formats, icon sets and statuses as bash.
    @Test(arguments: [zsh, fish])
    func everyShellKnowsTheSameWords(_ file: String) throws {
        let text = try Repository.text(file)
        for word in Self.commands + Self.formats + Self.iconSets + Self.statuses {
            #expect(text.contains(word), "\(file): \(word)")
        }
        for option in Self.options {
            let long = String(option.dropFirst(2))
            #expect(text.contains(option) || text.contains("-l \(long)"), "\(file): \(option)")
        }
        for (short, long) in Self.shortOptions {
            let lines = text.split(separator: "\n")
            let named =
                file == Self.fish
                ? lines.contains { $0.contains("-s \(short.dropFirst()) -l \(long.dropFirst(2)) ") }
                : lines.contains { $0.contains("{\(short)") && $0.contains(",\(long)") }
            #expect(named, "\(file): \(short) for \(long)")
        }
    }
}
