import Testing
import WundercastModel
import WundercastFormats

@testable import WundercastCtl

@Suite struct ArgumentParserTests {
    @Test func optionsStandAnywhereAndFormatsParse() throws {
        let invocation = try ArgumentParser.parse([
            "now", "--format", "waybar", "--socket", "/tmp/x.sock", "--icons", "nerd", "--hide-offline", "--timeout",
            "500ms",
        ])
        #expect(invocation.action == .request(.now, line: "now"))
        #expect(invocation.format == .waybar)
        #expect(invocation.socketPath == "/tmp/x.sock")
        #expect(invocation.icons == .nerd)
        #expect(invocation.hideOffline)
        #expect(invocation.effectiveTimeout == .milliseconds(500))
        #expect(try ArgumentParser.parse(["--json", "now"]).format == .json)
        #expect(try ArgumentParser.parse(["now", "--format=i3status-rs"]).format == .i3statusRs)
    }

    @Test func colorsLogAndAlertsParse() throws {
        #expect(try ArgumentParser.parse(["now", "--colors", "light"]).colors == .light)
        #expect(try ArgumentParser.parse(["now"]).colors == nil, "unset: the environment decides")
        #expect(throws: UsageError.self) { try ArgumentParser.parse(["now", "--colors", "pink"]) }
        #expect(
            try ArgumentParser.parse(["watch", "--format", "polybar", "--log", "/tmp/w.log"]).logPath == "/tmp/w.log")
        #expect(try ArgumentParser.parse(["alerts"]).action == .alerts)
        #expect(throws: UsageError.self) { try ArgumentParser.parse(["alerts", "now"]) }
        #expect(throws: UsageError.self) { try ArgumentParser.parse(["alerts", "--format", "waybar"]) }
        #expect(BarColors.fromEnvironment("dark") == .dark)
        #expect(BarColors.fromEnvironment("neon") == .none)
        #expect(BarColors.fromEnvironment(nil) == .none)
    }

    /// `--icon-font` is read for the format, wherever either stands on the line.
    @Test func anIconFontFitsItsFormat() throws {
        let waybar = try ArgumentParser.parse(["--icon-font", "Noto Color Emoji", "--format", "waybar", "watch"])
        #expect(waybar.iconFont == .family("Noto Color Emoji"))
        #expect(try ArgumentParser.parse(["watch", "--icon-font=2", "--format=polybar"]).iconFont == .polybarFont(2))
        #expect(try ArgumentParser.parse(["now", "--format", "i3bar"]).iconFont == nil)
        for line in [
            ["now", "--icon-font", "Noto"], ["now", "--format", "polybar", "--icon-font", "Noto"],
            ["now", "--format", "i3status-rs", "--icon-font", "Noto"],
            ["now", "--format", "waybar", "--icon-font", ""],
        ] {
            #expect(throws: UsageError.self, "\(line)") { try ArgumentParser.parse(line) }
        }
    }

    @Test func defaultTimeoutsAreTwoSecondsAndFifteenForLookups() throws {
        #expect(try ArgumentParser.parse(["now"]).effectiveTimeout == .seconds(2))
        #expect(try ArgumentParser.parse(["status"]).effectiveTimeout == .seconds(2))
        #expect(try ArgumentParser.parse(["watch"]).effectiveTimeout == .seconds(2))
        #expect(try ArgumentParser.parse(["weather", "Tromsø"]).effectiveTimeout == .seconds(15))
        #expect(try ArgumentParser.parse(["around"]).effectiveTimeout == .seconds(15))
    }

    @Test func aNegativeCoordinateIsAnArgumentNotAnOption() throws {
        let invocation = try ArgumentParser.parse(["weather", "-33.9,18.4"])
        #expect(
            invocation.action
                == .request(
                    .weather(.coordinate(Coordinate(latitude: -33.9, longitude: 18.4))), line: "weather -33.9,18.4"))
        let around = try ArgumentParser.parse(["around", "Los", "Angeles,", "CA", "0.5"])
        #expect(
            around.action
                == .request(.around(center: .name("Los Angeles, CA"), step: 0.5), line: "around Los Angeles, CA 0.5"))
    }

    @Test(arguments: [
        ["now", "--format", "xml"], ["frobnicate"], ["now", "--template", "{nope}"], ["now", "--timeout", "soon"],
        ["now", "--icons", "clipart"], ["watch", "every", "0s"], ["authorize", "maybe"], [],
        ["status", "--format", "waybar"],
        ["now", "--bogus"], ["now", "--socket"],
    ])
    func badCommandLinesAreUsageErrors(_ arguments: [String]) {
        #expect(throws: UsageError.self) { try ArgumentParser.parse(arguments) }
    }

    @Test func unknownPlaceholderIsNamed() {
        #expect {
            try ArgumentParser.parse(["now", "--template", "{icon} {temprature}"])
        } throws: { error in
            (error as? UsageError)?.message.contains("{temprature}") == true
        }
    }
}

/// Near misses get a suggestion (issue 18).
@Suite struct SuggestionTests {
    @Test(arguments: [
        (["nwo"], "did you mean 'now'?"), (["wacth"], "did you mean 'watch'?"), (["alert"], "did you mean 'alerts'?"),
        (["now", "--formt", "waybar"], "did you mean '--format'?"),
        (["now", "--colours", "dark"], "did you mean '--colors'?"),
    ])
    func aNearMissIsSuggested(_ arguments: [String], _ suggestion: String) {
        #expect {
            try ArgumentParser.parse(arguments)
        } throws: { error in
            (error as? UsageError)?.message.hasSuffix(suggestion) == true
        }
    }

    @Test func aFarMissGetsNoSuggestion() {
        #expect(Suggestion.didYouMean("xyzzy", among: ["now", "watch"]) == "")
        #expect(Suggestion.distance("kitten", "sitting") == 3)
    }
}
