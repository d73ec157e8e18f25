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
/// is reported (``CommandContext/report(_:)``: on stderr in plain and json, only to `--log FILE`
/// in bar formats, whose bar would show stderr). It ends (status 1, bar formats 0) when the
/// daemon refuses the request itself (bad argument, unknown request, not permitted), and
/// (status 0) as soon as its output hangs up — the status bar reading it is gone — whether the
/// daemon is silent or away; and (by ``ProcessControl/parentDeathSignal``) when the process that
/// started it ends. Between the daemon's lines it shows the last state again when its
/// ages would read differently (``WatchRefresh``).
enum WatchCommand {
    static let backoff = Backoff(initial: .seconds(1), maximum: .seconds(30))

    /// `ERROR` codes that a retry cannot cure.
    static let finalCodes: Set<String> = [
        SocketProtocol.ErrorCode.badArgument.rawValue, SocketProtocol.ErrorCode.unknownRequest.rawValue,
        SocketProtocol.ErrorCode.notPermitted.rawValue,
    ]

    /// stdout, watched for a hang-up.
    static let output: Int32 = 1

    static func run(_ context: CommandContext, line: String, every: Duration?) -> Int32 {
        // Besides the hang-up (the primary signal: a bar may start this through a shell that
        // stays, or a parent that is not the reader), the parent's end is a signal too.
        guard ProcessControl.hangUpWithParent() else { return 0 }
        let renderer = StateRenderer(invocation: context.invocation, colors: context.colors, locale: context.locale)
        Output.write(context.format.preamble)
        var attempt = 0
        var outageShown = false
        var refresh = WatchRefresh<ContinuousClock.Instant>(every: every, enabled: context.format != .json)
        while true {
            do {
                let connection = try context.open(sending: line)
                var answer = try connection.readLine(deadline: .now + context.timeout)
                attempt = 0
                outageShown = false
                var printed: String?
                while true {
                    let state = try Answer.decode(answer, as: WeatherState.self, expected: "WEATHER")
                    let text = renderer.render(state, line: answer, now: Date()).text
                    // A change the chosen format does not show (the alerts' fetch time in the
                    // human line) prints nothing: one line per visible change. Json shows all.
                    if text != printed || context.format == .json { Output.write(text) }
                    printed = text
                    refresh.arrived(state, printed: text, at: .now)
                    // The next change may be hours away: no limit, but a look at the ages and the
                    // reader meanwhile.
                    wait: while true {
                        switch try connection.readLine(wakeAt: refresh.nextLook, hangUpOf: output) {
                        case .line(let next):
                            answer = next
                            break wait
                        case .wake:
                            if let text = refresh.look(
                                at: .now, render: { renderer.render($0, line: [], now: Date()).text })
                            {
                                Output.write(text)
                                printed = text
                            }
                        case .readerGone:
                            return 0
                        }
                    }
                }
            } catch {
                if case .readerGone = error { return 0 }
                if case .refused(let code, _) = error, finalCodes.contains(code) {
                    return context.fail(error, preamble: false)
                }
                attempt += 1
                let delay = backoff.delay(attempt: attempt)
                context.report("\(error.message); trying again in \(TimeSpan.format(delay))")
                if context.format.isBar, !outageShown {
                    Output.write(context.unavailableLine(error))
                    outageShown = true
                }
                if ProcessControl.pause(delay, unlessHangUpOf: output) { return 0 }
            }
        }
    }
}
