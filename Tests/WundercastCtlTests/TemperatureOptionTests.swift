import Testing
import WundercastFormats

@testable import WundercastCtl

/// `--hot T` and `--cold T`: degrees in the daemon's unit, anywhere on the line; a bad value,
/// `--hot` not above `--cold` or a format that shows neither is a usage error that says so.
@Suite struct TemperatureOptionTests {
    @Test func thresholdsParse() throws {
        let invocation = try ArgumentParser.parse(["--hot", "30", "watch", "--cold=-5.5", "--format", "waybar"])
        #expect(invocation.bands == (try TemperatureBands(hot: 30, cold: -5.5)))
        #expect(try ArgumentParser.parse(["now", "-f", "i3bar", "--cold", "-10"]).bands.cold == -10)
        #expect(try ArgumentParser.parse(["now", "-f", "i3blocks", "--hot", "+86"]).bands.hot == 86)
        #expect(try ArgumentParser.parse(["now", "-f", "waybar"]).bands == .none)
    }

    @Test(arguments: [
        (["--hot", "abc"], "--hot 'abc': expected degrees"),
        (["--cold", "nan"], "--cold 'nan': expected degrees"),
        (["--hot", "inf"], "--hot 'inf': expected degrees"),
        (["--hot", "0x1E"], "--hot '0x1E': expected degrees"),
        (["--hot", "5000"], "--hot '5000': expected degrees"),
        (["--hot", ""], "--hot '': expected degrees"),
        (["--hot"], "--hot needs a value"),
        (["--hot", "10", "--cold", "20"], "--hot 10 must be above --cold 20"),
        (["--hot", "10", "--cold", "10"], "--hot 10 must be above --cold 10"),
    ])
    func badThresholdsAreUsageErrors(_ options: [String], _ message: String) {
        let error = #expect(throws: UsageError.self) { try ArgumentParser.parse(["now", "-f", "waybar"] + options) }
        #expect(error?.message.hasPrefix(message) == true, "\(error?.message ?? "")")
    }

    @Test(arguments: ["plain", "json", "polybar", "i3status-rs"])
    func aFormatThatShowsNoBandIsAUsageError(_ format: String) {
        let error = #expect(throws: UsageError.self) { try ArgumentParser.parse(["now", "-f", format, "--hot", "30"]) }
        #expect(error?.message == "--hot and --cold are for the formats that show them (waybar, i3blocks, i3bar)")
    }
}
