import Testing
import WundercastSupport
import WundercastModel
import WundercastFormats

@testable import WundercastCtl

/// `--help` fits an 80-column terminal and lists the short options, which parse as their long
/// forms do; `--short-template` (issue 18, item 7).
@Suite struct ShortOptionTests {
    @Test func everyHelpLineFitsEightyColumns() {
        let lines = Usage.text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count > 50)
        for line in lines {
            #expect(DisplayWidth.of(line) <= 80, "\(DisplayWidth.of(line)) columns: \(line)")
            #expect(!line.contains("\t"))
        }
    }

    /// Each option is in `--help`, a short one as `-x, --long`; the short letters are unique.
    @Test func helpListsEveryOptionWithItsShortForm() {
        let text = Usage.text
        for option in CtlOption.allCases {
            if let short = option.short {
                #expect(text.contains("  -\(short), \(option.long)"), "\(option.long)")
            } else {
                #expect(text.contains("      \(option.long)"), "\(option.long)")
            }
        }
        let shorts = CtlOption.allCases.compactMap(\.short)
        #expect(Set(shorts).count == shorts.count)
        #expect(shorts.count >= 7)
    }

    /// A command line with a short option parses to the same invocation as with the long one,
    /// the value separate, joined (`-fjson`) or after `=`.
    @Test(arguments: [
        (["-s", "/tmp/x.sock", "now"], ["--socket", "/tmp/x.sock", "now"]),
        (["now", "-f", "waybar"], ["now", "--format", "waybar"]),
        (["now", "-fi3bar"], ["now", "--format=i3bar"]),
        (["now", "-f=polybar"], ["now", "--format", "polybar"]),
        (["-j", "status"], ["--json", "status"]),
        (["now", "-t", "{icon} {place}"], ["now", "--template", "{icon} {place}"]),
        (["now", "-i", "nerd"], ["now", "--icons", "nerd"]),
        (["now", "-inerd"], ["now", "--icons=nerd"]),
        (["-h"], ["--help"]),
        (["-V"], ["--version"]),
        (["now", "-V", "-h"], ["now", "--version", "--help"]),
    ])
    func aShortOptionParsesAsItsLongOne(_ short: [String], _ long: [String]) throws {
        #expect(try ArgumentParser.parse(short) == ArgumentParser.parse(long))
    }

    @Test func eachShortOptionNamesItsOwnOption() throws {
        #expect(try ArgumentParser.parse(["-s", "/a", "now"]).socketPath == "/a")
        #expect(try ArgumentParser.parse(["-f", "i3blocks", "now"]).format == .i3blocks)
        #expect(try ArgumentParser.parse(["-j", "now"]).format == .json)
        #expect(try ArgumentParser.parse(["-t", "{place}", "now"]).template == Template("{place}"))
        #expect(try ArgumentParser.parse(["-i", "weather-icons", "now"]).icons == .weatherIcons)
        #expect(try ArgumentParser.parse(["-h", "now"]).action == .help)
        #expect(try ArgumentParser.parse(["-V"]).action == .clientVersion)
    }

    @Test(arguments: [
        ["now", "-x"], ["now", "-jx"], ["now", "--json=yes"], ["now", "-f"], ["-Vh"], ["now", "-J"],
    ])
    func badShortOptionsAreUsageErrors(_ arguments: [String]) {
        #expect(throws: UsageError.self) { try ArgumentParser.parse(arguments) }
    }

    @Test func aNegativeNumberIsStillAnArgument() throws {
        #expect(try ArgumentParser.parse(["-j", "weather", "-33.9,18.4"]).format == .json)
    }

    @Test func shortTemplateIsForTheFormatsWithAShortText() throws {
        let invocation = try ArgumentParser.parse(["now", "-f", "i3bar", "--short-template", "{temperature}{unit}"])
        #expect(invocation.shortTemplate == (try Template("{temperature}{unit}")))
        #expect(
            try ArgumentParser.parse(["watch", "--format=i3status-rs", "--short-template={icon}"]).shortTemplate != nil)
        #expect(try ArgumentParser.parse(["now", "--format", "i3blocks"]).shortTemplate == nil)
        for format in ["plain", "json", "waybar", "polybar"] {
            #expect(throws: UsageError.self, "\(format)") {
                try ArgumentParser.parse(["now", "--format", format, "--short-template", "{icon}"])
            }
        }
        #expect {
            try ArgumentParser.parse(["now", "-f", "i3bar", "--short-template", "{temp}"])
        } throws: { error in
            (error as? UsageError)?.message.hasPrefix("--short-template: ") == true
        }
    }
}
