#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WundercastFormats
import WundercastModel
import WundercastPOSIX
import WundercastProtocol
import WundercastSupport

/// `watch [weather] [every SPAN]`: the current state, then one output per change, each written
/// (and so flushed) at once, until interrupted.
///
/// When the daemon is down, does not answer the request within the timeout, or goes away
/// (restart), it tries again after 1 s, doubling up to 30 s (reset after an answer), on the same
/// socket path; meanwhile bar formats show one offline line per outage and every failed attempt
/// is reported on stderr. It ends (status 1, bar formats 0) only when the daemon refuses the
/// request itself (bad argument, unknown request, not permitted).
enum WatchCommand {
    static let backoff = Backoff(initial: .seconds(1), maximum: .seconds(30))

    /// `ERROR` codes that a retry cannot cure.
    static let finalCodes: Set<String> = [
        SocketProtocol.ErrorCode.badArgument.rawValue, SocketProtocol.ErrorCode.unknownRequest.rawValue,
        SocketProtocol.ErrorCode.notPermitted.rawValue,
    ]

    static func run(_ context: CommandContext, line: String) -> Int32 {
        let renderer = StateRenderer(invocation: context.invocation)
        Output.write(context.format.preamble)
        var attempt = 0
        var outageShown = false
        while true {
            do {
                let connection = try context.open(sending: line)
                var answer = try connection.readLine(deadline: .now + context.timeout)
                attempt = 0
                outageShown = false
                while true {
                    let state = try Answer.decode(answer, as: WeatherState.self, expected: "WEATHER")
                    Output.write(renderer.render(state, line: answer, now: Date()).text)
                    // The next change may be hours away: no limit from here on.
                    answer = try connection.readLine(deadline: nil)
                }
            } catch {
                if case .refused(let code, _) = error, finalCodes.contains(code) {
                    return context.fail(error, preamble: false)
                }
                attempt += 1
                let delay = backoff.delay(attempt: attempt)
                Output.error("\(error.message); trying again in \(TimeSpan.format(delay))")
                if context.format.isBar, !outageShown {
                    let item = BarItem.unavailable(error.barKind, reason: error.message)
                    Output.write(context.format.bar(item, hidden: context.invocation.hideOffline) ?? "")
                    outageShown = true
                }
                pause(delay)
            }
        }
    }

    /// Sleeps for `span` (wundercastctl's own thread; resumed after a signal).
    static func pause(_ span: Duration) { ProcessControl.pause(span) }
}
