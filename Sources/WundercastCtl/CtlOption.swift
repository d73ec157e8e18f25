/// `wundercastctl`'s options: the long name, the short letter of the common ones, and whether
/// a value follows. ``ArgumentParser`` reads options by this table and ``Suggestion`` suggests
/// from it; `--help` (``Usage``) lists each with its short form.
enum CtlOption: String, CaseIterable, Sendable {
    case socket
    case format
    case json
    case template
    case shortTemplate = "short-template"
    case icons
    case iconFont = "icon-font"
    case timeout
    case hideOffline = "hide-offline"
    case colors
    case hot
    case cold
    case log
    case help
    case version

    /// `--format`.
    var long: String { "--" + rawValue }

    /// `f` for `-f`; `nil` for the options without a short form.
    var short: Character? {
        switch self {
        case .socket: "s"
        case .format: "f"
        case .json: "j"
        case .template: "t"
        case .icons: "i"
        case .help: "h"
        case .version: "V"
        case .shortTemplate, .iconFont, .timeout, .hideOffline, .colors, .hot, .cold, .log: nil
        }
    }

    /// Whether a value follows (`--format json`, `--format=json`, `-f json`, `-fjson`).
    var takesValue: Bool {
        switch self {
        case .json, .hideOffline, .help, .version: false
        default: true
        }
    }

    /// The option an argument names and the value written into it, if any: `--format=json` →
    /// (`format`, `json`), `-fjson` and `-f=json` → (`format`, `json`), `-f` → (`format`, nil);
    /// `nil` for an unknown option.
    static func parse(_ argument: String) -> (option: CtlOption, inline: String?)? {
        if argument.hasPrefix("--") {
            let parts = argument.dropFirst(2).split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let option = CtlOption(rawValue: String(parts[0])) else { return nil }
            return (option, parts.count == 2 ? String(parts[1]) : nil)
        }
        let letters = argument.dropFirst()
        guard let letter = letters.first, let option = allCases.first(where: { $0.short == letter }) else {
            return nil
        }
        var rest = letters.dropFirst()
        if rest.isEmpty { return (option, nil) }
        // A value written into the short option: only an option that takes one has it.
        guard option.takesValue else { return nil }
        if rest.first == "=" { rest = rest.dropFirst() }
        return (option, String(rest))
    }
}
