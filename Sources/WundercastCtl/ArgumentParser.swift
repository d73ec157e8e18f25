import WundercastSupport
import WundercastModel
import WundercastProtocol
import WundercastFormats

/// A command line that cannot be run: printed with a pointer to `--help`, exit status 2.
public struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
    public init(_ message: String) { self.message = message }
}

/// Parses `wundercastctl`'s arguments: options may stand anywhere on the line; the first other
/// word is the command, the rest its arguments (checked as the daemon would, so a bad request
/// is a usage error before any connection). A word that starts with `-` and a digit is an
/// argument (`weather -33.9,18.4`); `--` ends the options.
public enum ArgumentParser {
    public static func parse(_ arguments: [String]) throws(UsageError) -> Invocation {
        var rest = arguments[...]
        var words: [String] = []
        var options = Invocation(action: .help)
        var formatSeen: String? = nil
        var help = false
        var clientVersion = false
        var templateText: String? = nil
        var shortTemplateText: String? = nil
        var iconFontText: String? = nil
        var thresholds: (hot: Double?, cold: Double?) = (nil, nil)

        func value(_ option: String, _ inline: String?) throws(UsageError) -> String {
            if let inline { return inline }
            guard let next = rest.popFirst() else { throw UsageError("\(option) needs a value") }
            return next
        }
        func setFormat(_ text: String) throws(UsageError) {
            guard let format = OutputFormat(rawValue: text) else {
                throw UsageError(
                    "unknown format '\(shown(text))' (known: \(OutputFormat.allCases.map(\.rawValue).joined(separator: ", ")))"
                )
            }
            if let seen = formatSeen, seen != text {
                throw UsageError("two formats given: \(seen) and \(text)")
            }
            formatSeen = text
            options.format = format
        }

        var optionsEnded = false
        while let argument = rest.popFirst() {
            guard !optionsEnded, argument.hasPrefix("-"), argument != "-", !startsWithNumber(argument) else {
                words.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            guard let (option, inline) = CtlOption.parse(argument) else {
                let name = String(argument.prefix { $0 != "=" })
                throw UsageError(
                    "unknown option '\(shown(argument))'" + Suggestion.didYouMean(name, among: Suggestion.options))
            }
            let name = option.long
            if !option.takesValue, inline != nil { throw UsageError("\(name) takes no value") }
            switch option {
            case .socket:
                options.socketPath = try value(name, inline)
            case .format:
                try setFormat(try value(name, inline))
            case .json:
                try setFormat("json")
            case .template:
                templateText = try value(name, inline)
            case .shortTemplate:
                shortTemplateText = try value(name, inline)
            case .icons:
                let text = try value(name, inline)
                guard let icons = IconSet(rawValue: text) else {
                    throw UsageError("unknown icon set '\(shown(text))' (known: emoji, nerd, weather-icons)")
                }
                options.icons = icons
            case .iconFont:
                iconFontText = try value(name, inline)
            case .timeout:
                let text = try value(name, inline)
                guard let span = TimeSpan.parse(text), span > .zero, span <= .seconds(3600) else {
                    throw UsageError("--timeout '\(shown(text))': expected a time span from 1ms to 1h (example: 2s)")
                }
                options.timeout = span
            case .hideOffline:
                options.hideOffline = true
            case .colors:
                let text = try value(name, inline)
                guard let colors = BarColors(rawValue: text) else {
                    throw UsageError("unknown colour scheme '\(shown(text))' (known: none, dark, light)")
                }
                options.colors = colors
            case .hot:
                thresholds.hot = try temperature(name, try value(name, inline))
            case .cold:
                thresholds.cold = try temperature(name, try value(name, inline))
            case .log:
                let path = try value(name, inline)
                guard !path.isEmpty else { throw UsageError("--log: expected a file path") }
                options.logPath = path
            case .help:
                help = true
            case .version:
                clientVersion = true
            }
        }
        options.template = try template(templateText)
        options.shortTemplate = try template(shortTemplateText, option: "--short-template: ")
        if options.shortTemplate != nil, !options.format.hasShortText {
            let formats = OutputFormat.allCases.filter(\.hasShortText).map(\.rawValue).joined(separator: ", ")
            throw UsageError("--short-template is for the formats with a short text (\(formats))")
        }
        do {
            options.bands = try TemperatureBands(hot: thresholds.hot, cold: thresholds.cold)
        } catch {
            throw UsageError(error.message)
        }
        if options.bands != .none, !options.format.showsTemperatureBands {
            let formats = OutputFormat.allCases.filter(\.showsTemperatureBands).map(\.rawValue).joined(separator: ", ")
            throw UsageError("--hot and --cold are for the formats that show them (\(formats))")
        }
        if let iconFontText {
            do {
                options.iconFont = try IconFont.parse(iconFontText, for: options.format)
            } catch {
                throw UsageError(error.message)
            }
        }
        if help || words.first == "help" {
            options.action = .help
            return options
        }
        if clientVersion && words.isEmpty {
            options.action = .clientVersion
            return options
        }
        guard let command = words.first else { throw UsageError("no command given") }
        if command == "alerts" {
            guard words.count == 1 else { throw UsageError("alerts takes no arguments") }
            guard !options.format.isBar else {
                throw UsageError(
                    "--format \(options.format.rawValue) is for now, watch and weather; 'alerts' is plain or json")
            }
            options.action = .alerts
            return options
        }
        let line = words.joined(separator: " ")
        guard
            SocketProtocol.requestSummaries.contains(where: {
                $0.split(separator: " ").first.map(String.init) == command
            })
        else {
            let commands =
                SocketProtocol.requestSummaries.compactMap { $0.split(separator: " ").first.map(String.init) } + [
                    "alerts"
                ]
            throw UsageError("unknown command '\(shown(command))'" + Suggestion.didYouMean(command, among: commands))
        }
        let request: SocketProtocol.Request
        do {
            request = try SocketProtocol.parse(line)
        } catch {
            throw UsageError(error.message)
        }
        switch request {
        case .now, .watch, .weather: break
        default:
            guard !options.format.isBar else {
                throw UsageError(
                    "--format \(options.format.rawValue) is for now, watch and weather; '\(command)' is plain or json")
            }
        }
        options.action = .request(request, line: line)
        return options
    }

    /// `text` parsed as a template; its error (after `option`) a usage error.
    static func template(_ text: String?, option: String = "") throws(UsageError) -> Template? {
        guard let text else { return nil }
        do {
            return try Template(text)
        } catch {
            throw UsageError(option + error.message)
        }
    }

    /// The value of `--hot` or `--cold`: degrees in the daemon's temperature unit (`30`, `-5.5`).
    static func temperature(_ option: String, _ text: String) throws(UsageError) -> Double {
        guard text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "-" || $0 == "." || $0 == "+") }),
            let degrees = Double(text), degrees.isFinite, abs(degrees) <= 1000
        else {
            throw UsageError(
                "\(option) '\(shown(text))': expected degrees in the daemon's temperature unit (example: 30, -5.5)")
        }
        return degrees
    }

    /// `-5`, `-33.9,18.4`: a negative number, not an option.
    static func startsWithNumber(_ argument: String) -> Bool {
        let second = argument.dropFirst().first
        return argument.first == "-" && (second?.isNumber == true || second == ".")
    }

    static func shown(_ text: String) -> String { UntrustedText.sanitized(text, limit: 40) }
}
