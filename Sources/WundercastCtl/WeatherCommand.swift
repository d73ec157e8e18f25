#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WundercastModel
import WundercastFormats

/// `now` and `weather PLACE|LAT,LON`: one `WEATHER` answer in the chosen format.
/// Exit status 0 when answered (33 for i3blocks `now` in severe weather); a failure is reported
/// by ``CommandContext/fail(_:preamble:)``.
enum WeatherCommand {
    static func run(_ context: CommandContext, line: String, isNow: Bool) -> Int32 {
        do {
            let answer = try context.ask(line)
            let state = try Answer.decode(answer, as: WeatherState.self, expected: "WEATHER")
            let (text, item) = StateRenderer(
                invocation: context.invocation, colors: context.colors, locale: context.locale
            ).render(
                state, line: answer, now: Date())
            Output.write(context.format.preamble + text)
            if isNow, context.format == .i3blocks, let item { return I3blocksFormat.exitStatus(item) }
            return 0
        } catch {
            return context.fail(error)
        }
    }
}
