import WundercastFormats
import WundercastPOSIX
import WundercastSupport

/// `wundercastctl`: parses the command line, runs the command, returns the exit status
/// (0 answered, 1 daemon down / no answer / error answer in plain and json, 2 usage error,
/// 33 i3blocks severe weather; see ``Usage``).
public enum Ctl {
    public static func main(_ arguments: [String]) -> Int32 {
        // Started with stdout closed (`>&-`): /dev/null there, never the daemon's socket.
        let missing = ProcessControl.openMissingStandardDescriptors()
        ProcessControl.ignoreBrokenPipes()  // a status bar that quits reading: EPIPE, exit 0 (Output.write)
        let invocation: Invocation
        do {
            invocation = try ArgumentParser.parse(arguments)
        } catch {
            Output.error("\(error.message)\nTry 'wundercastctl --help'.")
            return 2
        }
        switch invocation.action {
        case .help:
            Output.write(Usage.text + "\n")
            return 0
        case .clientVersion:
            Output.write("wundercastctl \(Wundercast.version)\n")
            return 0
        case .alerts:
            return InfoCommands.alerts(CommandContext(invocation, locale: readersLocale(invocation)))
        case .request(let request, let line):
            let context = CommandContext(invocation, locale: readersLocale(invocation))
            switch request {
            case .now: return WeatherCommand.run(context, line: line, isNow: true)
            case .weather: return WeatherCommand.run(context, line: line, isNow: false)
            case .watch(let options):
                // Nobody can read what it would print: as a hang-up.
                if missing.contains(1) { return 0 }
                return WatchCommand.run(context, line: line, every: options.every)
            case .around: return InfoCommands.around(context, line: line)
            case .status: return InfoCommands.status(context, line: line)
            case .refresh: return InfoCommands.refresh(context, line: line)
            case .authorize: return InfoCommands.authorize(context, line: line)
            case .version: return InfoCommands.version(context, line: line)
            case .help:
                Output.write(Usage.text + "\n")
                return 0
            }
        }
    }

    /// The reader's locale (``UserLocale/current()``), read once; `--format json` writes no
    /// human text and does not read it.
    static func readersLocale(_ invocation: Invocation) -> UserLocale {
        invocation.format == .json ? .english : .current()
    }
}
